import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { KitError } from '@kit/core';

/** The lock file inside a PGlite data folder, holding the owner's pid and host as JSON. */
export const LOCK_FILE = 'kit.lock';

// The owner touches its lock this often; a lock from another host untouched for STALE_MS is left
// over (its pid cannot be checked from here).
const HEARTBEAT_MS = 10_000;
const STALE_MS = 60_000;
// A lock being created has no content for a moment; one still empty after this is left over.
const CREATING_MS = 5_000;

interface Owner {
  pid: number;
  host: string;
}

const held = new Map<string, { text: string; timer: ReturnType<typeof setInterval> }>();
let exitHook = false;

/**
 * Takes the exclusive lock on a PGlite data folder and returns the function that releases it.
 * PGlite runs inside one process: a second process (or a second PGlite in this one) opening the
 * same folder keeps its own copy of the database in memory and the two overwrite each other's
 * files, losing writes each of them acknowledged. The lock file is created with O_EXCL; a lock
 * whose process is gone (same host, pid not running) or whose host stopped touching it is left
 * over from a crash and taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const folder = resolve(dataDir);
  const file = join(folder, LOCK_FILE);
  if (held.has(file)) {
    throw new KitError(
      'source.error',
      `The embedded database in "${folder}" is open in this process already. Open it once and share the handle (a second PGlite on the same folder would lose writes).`,
    );
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const text = `${JSON.stringify({ pid: process.pid, host: hostname() } satisfies Owner)}\n`;
    if (create(file, text)) {
      const timer = setInterval(() => touch(file), HEARTBEAT_MS);
      timer.unref?.();
      held.set(file, { text, timer });
      if (!exitHook) {
        exitHook = true;
        process.on('exit', () => {
          for (const path of [...held.keys()]) release(path);
        });
      }
      return () => release(file);
    }
    const seen = read(file);
    if (seen === null) continue;
    const owner = parseOwner(seen.text);
    if (owner === null ? seen.age < CREATING_MS : !isLeftOver(owner, seen.age)) {
      throw inUse(folder, file, owner);
    }
    breakLock(file, seen.text);
  }
  throw inUse(folder, file, null);
}

function create(file: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new KitError(
      'source.error',
      `Cannot lock the embedded database folder (${(error as Error).message}). Check that the folder is writable.`,
      { cause: error },
    );
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

function read(file: string): { text: string; age: number } | null {
  try {
    const age = Date.now() - statSync(file).mtimeMs;
    return { text: readFileSync(file, 'utf8'), age };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function parseOwner(text: string): Owner | null {
  try {
    const value = JSON.parse(text) as Partial<Owner>;
    return Number.isInteger(value.pid) && value.pid! > 0 && typeof value.host === 'string' ? (value as Owner) : null;
  } catch {
    return null;
  }
}

function isLeftOver(owner: Owner, age: number): boolean {
  if (owner.host !== hostname()) return age > STALE_MS;
  // Our own pid but not held here: a previous process had it (a restarted container is pid 1 again).
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Removes a left-over lock, unless another process replaced it meanwhile: two processes finding
 * the same stale lock must not both take it. A short-lived second lock serializes the breakers.
 */
function breakLock(file: string, stale: string): void {
  const guard = `${file}.break`;
  if (!create(guard, `${process.pid}\n`)) {
    const seen = read(guard);
    // A breaker that crashed between these few calls leaves its guard; it is stale after a moment.
    if (seen && seen.age > CREATING_MS) unlinkQuietly(guard);
    return;
  }
  try {
    if (read(file)?.text === stale) unlinkQuietly(file);
  } finally {
    unlinkQuietly(guard);
  }
}

function release(file: string): void {
  const lock = held.get(file);
  if (!lock) return;
  clearInterval(lock.timer);
  held.delete(file);
  try {
    if (readFileSync(file, 'utf8') === lock.text) unlinkSync(file);
  } catch {
    // Gone already: nothing to release.
  }
}

function touch(file: string): void {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // The next open decides whether the lock is left over; a failed touch changes nothing now.
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Someone else removed it first.
  }
}

function inUse(folder: string, file: string, owner: Owner | null): KitError {
  const who = owner
    ? owner.host === hostname()
      ? `process ${owner.pid}`
      : `process ${owner.pid} on host ${owner.host}`
    : 'another process';
  return new KitError(
    'source.error',
    `The embedded database in "${folder}" is in use by ${who}. PGlite runs inside one process: a second process opening the same folder would lose writes. Stop the other process (kit serve, a script) first, or give the connection a postgres:// url so several processes can share the database set. If no process uses the folder, delete ${file}.`,
    { details: { folder, ...(owner ? { pid: owner.pid, host: owner.host } : {}) } },
  );
}
