import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { KIT_EVENT_NAMES } from './names.js';

// The generator lives in scripts/, outside the package's sources (it needs the TypeScript compiler).
const script = pathToFileURL(join(import.meta.dirname, '../../scripts/events-reference.ts')).href;
interface EventDoc {
  name: string;
  doc: string;
  fields: { name: string; type: string; optional: boolean; doc: string }[];
}
const { readEventDocs, renderEventsReference, EVENTS_REFERENCE_PAGE } = (await import(script)) as {
  readEventDocs(file?: string): EventDoc[];
  renderEventsReference(events?: readonly EventDoc[]): string;
  EVENTS_REFERENCE_PAGE: string;
};
const page = readFileSync(join(import.meta.dirname, '../../../..', EVENTS_REFERENCE_PAGE), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'kit-events-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the events reference page', () => {
  it('is what gen:events writes from the event types (run pnpm --filter @kit/core gen:events)', () => {
    expect(page).toBe(renderEventsReference());
  });

  it('describes every event the config accepts, with each payload field', () => {
    const events = readEventDocs();
    expect(events.map((event) => event.name)).toEqual([...KIT_EVENT_NAMES]);
    for (const event of events) {
      expect(page).toContain(`## ${event.name}\n`);
      for (const field of event.fields) expect(page).toContain(`| \`${field.name}\``);
    }
    expect(page).toContain("| `source` | `'agent' \\| 'widget'` |");
    expect(page).toContain('| `comment` (optional) | `string` |');
  });

  it('picks up an event added to the map, payload written inline or as a named type', () => {
    const file = join(scratch, 'types.ts');
    writeFileSync(
      file,
      `/** Payload of DraftPublished. */
interface DraftPayload {
  /** Key of the set. */
  set: string;
  /** Who published, or null. */
  by?: string | null;
}
export interface KitEventMap {
  /** A search ran. */
  SearchPerformed: {
    /** The query. */
    query: string;
  };
  /** A person published a draft. */
  DraftPublished: DraftPayload;
}
`,
    );
    const events = readEventDocs(file);
    expect(events).toEqual([
      {
        name: 'SearchPerformed',
        doc: 'A search ran.',
        fields: [{ name: 'query', type: 'string', optional: false, doc: 'The query.' }],
      },
      {
        name: 'DraftPublished',
        doc: 'A person published a draft.',
        fields: [
          { name: 'set', type: 'string', optional: false, doc: 'Key of the set.' },
          { name: 'by', type: 'string | null', optional: true, doc: 'Who published, or null.' },
        ],
      },
    ]);
    const rendered = renderEventsReference(events);
    expect(rendered).toContain('## DraftPublished\n\nA person published a draft.');
    expect(rendered).toContain('| [`DraftPublished`](#draftpublished) | A person published a draft. |');
    expect(rendered).toContain('| `by` (optional) | `string \\| null` | Who published, or null. |');
  });

  it('refuses an event or a field without a doc comment, naming it', () => {
    const file = join(scratch, 'undocumented.ts');
    writeFileSync(file, 'export interface KitEventMap {\n  /** Documented. */\n  PageRestored: { path: string };\n}\n');
    expect(() => readEventDocs(file)).toThrow(/The field PageRestored\.path has no doc comment/);
  });
});
