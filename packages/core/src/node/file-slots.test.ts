import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSlots, isTransientFileError, mapConcurrently, withFileSlot } from './file-slots.js';

const failure = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('createFileSlots', () => {
  it('never runs more calls at once than it has slots, and runs every call', async () => {
    const slots = createFileSlots({ slots: 3, retryDelaysMs: [] });
    let running = 0;
    let most = 0;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        slots(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resume) => setImmediate(resume));
          running -= 1;
          return index;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(results).toEqual(Array.from({ length: 40 }, (_, index) => index));
  });

  it('tries a call that fails with EMFILE, ENFILE, EAGAIN or EBUSY again until it succeeds', async () => {
    const slots = createFileSlots({ slots: 2, retryDelaysMs: [0, 0, 0, 0] });
    const codes = ['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY'];
    let tries = 0;
    const value = await slots(async () => {
      const code = codes[tries++];
      if (code) throw failure(code);
      return 'read';
    });
    expect(value).toBe('read');
    expect(tries).toBe(5);
  });

  it('gives a transient failure up, unchanged, once the retries are spent', async () => {
    const slots = createFileSlots({ slots: 2, retryDelaysMs: [0, 0] });
    let tries = 0;
    const outcome = slots(async () => {
      tries += 1;
      throw failure('EMFILE');
    });
    await expect(outcome).rejects.toMatchObject({ code: 'EMFILE' });
    expect(tries).toBe(3);
  });

  it('does not try again a failure that says something about the file (ENOENT, EACCES)', async () => {
    const slots = createFileSlots({ slots: 2, retryDelaysMs: [0, 0, 0] });
    for (const code of ['ENOENT', 'EACCES']) {
      let tries = 0;
      await expect(
        slots(async () => {
          tries += 1;
          throw failure(code);
        }),
      ).rejects.toMatchObject({ code });
      expect(tries).toBe(1);
    }
  });

  it('frees the slot of a failed call for the next one', async () => {
    const slots = createFileSlots({ slots: 1, retryDelaysMs: [] });
    await expect(slots(() => Promise.reject(failure('EACCES')))).rejects.toThrow('EACCES');
    await expect(slots(async () => 'next')).resolves.toBe('next');
  });
});

describe('withFileSlot', () => {
  it('reads real files through the process-wide pool', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'kit-file-slots-'));
    try {
      await Promise.all(
        Array.from({ length: 300 }, (_, index) => writeFile(join(folder, `${index}.md`), `page ${index}`)),
      );
      const texts = await Promise.all(
        Array.from({ length: 300 }, (_, index) => withFileSlot(() => readFile(join(folder, `${index}.md`), 'utf8'))),
      );
      expect(texts[299]).toBe('page 299');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('mapConcurrently', () => {
  it('keeps the order of the items and runs at most `concurrency` tasks at once', async () => {
    let running = 0;
    let most = 0;
    const doubled = await mapConcurrently(
      Array.from({ length: 25 }, (_, index) => index),
      async (item) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resume) => setImmediate(resume));
        running -= 1;
        return item * 2;
      },
      4,
    );
    expect(most).toBe(4);
    expect(doubled).toEqual(Array.from({ length: 25 }, (_, index) => index * 2));
  });

  it('rejects with the first failure and starts no task after it', async () => {
    const started: number[] = [];
    const outcome = mapConcurrently(
      [0, 1, 2, 3, 4, 5],
      async (item) => {
        started.push(item);
        if (item === 1) throw new Error('item 1 failed');
        return item;
      },
      2,
    );
    await expect(outcome).rejects.toThrow('item 1 failed');
    expect(started).toEqual([0, 1, 2]);
  });

  it('answers an empty list with an empty list', async () => {
    await expect(mapConcurrently([], async () => 1, 8)).resolves.toEqual([]);
  });
});

describe('isTransientFileError', () => {
  it('is true for too many open files and busy resources only', () => {
    expect(['EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY'].every((code) => isTransientFileError(failure(code)))).toBe(true);
    expect(['ENOENT', 'EACCES', 'EISDIR'].some((code) => isTransientFileError(failure(code)))).toBe(false);
    expect(isTransientFileError(null)).toBe(false);
    expect(isTransientFileError('EMFILE')).toBe(false);
  });
});
