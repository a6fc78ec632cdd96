/**
 * Packing text into files that never pass a character limit. Agent files split by navigation
 * group first; a group still too large continues in numbered parts, and a single item larger than a
 * part (a long page in `llms-full.txt`) is cut at line ends, so no file is over the limit and no
 * content is lost.
 */

/** Smallest limit the splitter honours; smaller configured limits are raised to it. */
export const MIN_AGENT_FILE_LIMIT = 1024;

/** The limit actually applied: the configured one, never below {@link MIN_AGENT_FILE_LIMIT}. */
export function effectiveLimit(limit: number): number {
  return Number.isFinite(limit) ? Math.max(Math.floor(limit), MIN_AGENT_FILE_LIMIT) : MIN_AGENT_FILE_LIMIT;
}

/**
 * Packs `items` (each ending in a newline) into as few parts as fit: part `k` is
 * `head(k) + items + tail(k + 1)`, the last part without a tail. Every part is at most `limit`
 * characters (UTF-16 code units, which never count fewer than characters).
 */
export function packParts(
  items: readonly string[],
  limit: number,
  head: (part: number) => string,
  tail: (nextPart: number) => string,
): string[] {
  const packer = new PartPacker(limit, head, tail);
  const bodies: string[] = [];
  for (const item of items) {
    for (const piece of packer.add(item.length, item)) {
      bodies[piece.part - 1] = (bodies[piece.part - 1] ?? '') + item.slice(piece.start, piece.end);
    }
  }
  while (bodies.length < packer.parts) bodies.push('');
  return bodies.map((text, index) => head(index + 1) + text + (index < bodies.length - 1 ? tail(index + 2) : ''));
}

/** Where one item's characters `[start, end)` land: in part `part`. */
export interface PackedPiece {
  part: number;
  start: number;
  end: number;
}

/**
 * The packing of {@link packParts} one item at a time, from lengths: an item's text is needed only
 * when it is cut (larger than a part of its own, see {@link PartPacker.cuts}), so the parts of a
 * group are counted, and one part is picked out, without holding the group's text. `parts` is the
 * number of parts so far; after the last item it is the number of parts of the whole.
 *
 * @example
 * const packer = new PartPacker(100, (part) => `# Part ${part}\n`, (next) => `-> ${next}\n`);
 * packer.add(6); // [{ part: 1, start: 0, end: 6 }]
 */
export class PartPacker {
  /** The part the next item goes into (the number of parts so far). */
  parts = 1;
  #body = 0;
  readonly #limit: number;
  readonly #head: (part: number) => string;
  readonly #tail: (nextPart: number) => string;

  constructor(limit: number, head: (part: number) => string, tail: (nextPart: number) => string) {
    this.#limit = limit;
    this.#head = head;
    this.#tail = tail;
  }

  #room(part: number): number {
    return Math.max(1, this.#limit - this.#head(part).length - this.#tail(part + 1).length);
  }

  /** True when an item of `length` characters would be cut, so {@link add} needs its text. */
  cuts(length: number): boolean {
    if (this.#body + length <= this.#room(this.parts)) return false;
    return length > this.#room(this.#body === 0 ? this.parts : this.parts + 1);
  }

  /** Places the next item; `text` is required when {@link cuts} says it is cut. */
  add(length: number, text?: string): PackedPiece[] {
    const pieces: PackedPiece[] = [];
    let start = 0;
    while (start < length) {
      const rest = length - start;
      const room = this.#room(this.parts);
      if (this.#body + rest <= room) {
        pieces.push({ part: this.parts, start, end: length });
        this.#body += rest;
        return pieces;
      }
      if (this.#body === 0) {
        if (text === undefined) throw new Error('PartPacker.add needs the text of an item it cuts.');
        const end = start + cutPoint(text.slice(start), room);
        pieces.push({ part: this.parts, start, end });
        start = end;
      }
      this.parts += 1;
      this.#body = 0;
    }
    return pieces;
  }
}

/** Where to cut an oversized item: after the last newline that fits, else at `room` (never inside a surrogate pair). */
function cutPoint(text: string, room: number): number {
  const newline = text.lastIndexOf('\n', room - 1);
  if (newline > 0) return newline + 1;
  let cut = Math.min(room, text.length);
  const code = text.charCodeAt(cut - 1);
  if (cut > 1 && code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return cut;
}

/**
 * A URL-safe slug for a navigation group: lowercase ASCII letters, digits and single hyphens.
 * Labels with no such characters (Arabic, for example) get `group-{n}` by position.
 *
 * @example
 * groupSlug('Getting Started', 0); // 'getting-started'
 * groupSlug('البداية', 2); // 'group-3'
 */
export function groupSlug(label: string, position: number): string {
  const slug = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? `group-${position + 1}` : slug;
}

/** Unique slugs for a list of labels; `index` is reserved for the continuation of a split index. */
export function uniqueSlugs(labels: readonly string[]): string[] {
  const taken = new Set<string>(['index']);
  return labels.map((label, position) => {
    const base = groupSlug(label, position);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    taken.add(slug);
    return slug;
  });
}
