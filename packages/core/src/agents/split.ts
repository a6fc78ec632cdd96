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
  const bodies: string[] = [];
  const queue = [...items];
  let body = '';
  let part = 1;
  while (queue.length > 0) {
    const item = queue.shift() as string;
    const room = Math.max(1, limit - head(part).length - tail(part + 1).length);
    if (body.length + item.length <= room) {
      body += item;
      continue;
    }
    if (body === '') {
      const cut = cutPoint(item, room);
      body = item.slice(0, cut);
      queue.unshift(item.slice(cut));
    } else {
      queue.unshift(item);
    }
    bodies.push(body);
    body = '';
    part += 1;
  }
  bodies.push(body);
  return bodies.map((text, index) => head(index + 1) + text + (index < bodies.length - 1 ? tail(index + 2) : ''));
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
