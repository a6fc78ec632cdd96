/** One line of a line diff: kept (` `), removed (`-`) or added (`+`). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

// Past this many line pairs between the first and last difference, a change is shown as a whole
// replacement: the table below grows with their product.
const MAX_CELLS = 4_000_000;

function splitLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * The lines of `after` against `before` as kept, removed and added lines (a longest common
 * subsequence of lines; null stands for no content at all).
 *
 * @example
 * diffLines('a\nb\n', 'a\nc\n'); // [{op:' ',text:'a'}, {op:'-',text:'b'}, {op:'+',text:'c'}]
 */
export function diffLines(before: string | null, after: string | null): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const head: DiffLine[] = a.slice(0, start).map((text) => ({ op: ' ', text }));
  const tail: DiffLine[] = a.slice(endA).map((text) => ({ op: ' ', text }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const rows = midA.length;
  const cols = midB.length;
  if (rows * cols > MAX_CELLS) {
    return [
      ...head,
      ...midA.map((text): DiffLine => ({ op: '-', text })),
      ...midB.map((text): DiffLine => ({ op: '+', text })),
      ...tail,
    ];
  }
  // lengths[i][j]: longest common subsequence of midA[i..] and midB[j..], in one flat array.
  const width = cols + 1;
  const lengths = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i -= 1) {
    for (let j = cols - 1; j >= 0; j -= 1) {
      lengths[i * width + j] =
        midA[i] === midB[j]
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const middle: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    if (midA[i] === midB[j]) {
      middle.push({ op: ' ', text: midA[i]! });
      i += 1;
      j += 1;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      middle.push({ op: '-', text: midA[i]! });
      i += 1;
    } else {
      middle.push({ op: '+', text: midB[j]! });
      j += 1;
    }
  }
  while (i < rows) middle.push({ op: '-', text: midA[i++]! });
  while (j < cols) middle.push({ op: '+', text: midB[j++]! });
  return [...head, ...middle, ...tail];
}

/**
 * A unified diff (as `diff -u` and `git diff` print it) of `after` against `before`, with
 * `context` unchanged lines around each change; an empty string when they hold the same lines.
 * A side that does not exist (a new or deleted page) is `null` and shown as `/dev/null`.
 *
 * @example
 * unifiedDiff('# Home\n', '# Home\n\nWelcome.\n', { from: 'a/index.md', to: 'b/index.md' });
 */
export function unifiedDiff(
  before: string | null,
  after: string | null,
  names: { from: string; to: string; context?: number },
): string {
  const lines = diffLines(before, after);
  if (!lines.some((line) => line.op !== ' ')) return '';
  const context = names.context ?? 3;
  const out = [`--- ${before === null ? '/dev/null' : names.from}`, `+++ ${after === null ? '/dev/null' : names.to}`];
  // Line numbers in each file of every diff line.
  const numbers: Array<{ a: number; b: number }> = [];
  let a = 1;
  let b = 1;
  for (const line of lines) {
    numbers.push({ a, b });
    if (line.op !== '+') a += 1;
    if (line.op !== '-') b += 1;
  }
  let index = 0;
  while (index < lines.length) {
    const firstChange = lines.findIndex((line, at) => at >= index && line.op !== ' ');
    if (firstChange === -1) break;
    const start = Math.max(index, firstChange - context);
    // The hunk runs until `context * 2` unchanged lines in a row follow its last change.
    let end = firstChange;
    let lastChange = firstChange;
    while (end < lines.length) {
      if (lines[end]!.op !== ' ') lastChange = end;
      else if (end - lastChange > context * 2) break;
      end += 1;
    }
    const stop = Math.min(lines.length, lastChange + context + 1);
    const hunk = lines.slice(start, stop);
    const oldCount = hunk.filter((line) => line.op !== '+').length;
    const newCount = hunk.filter((line) => line.op !== '-').length;
    const oldStart = oldCount === 0 ? numbers[start]!.a - 1 : numbers[start]!.a;
    const newStart = newCount === 0 ? numbers[start]!.b - 1 : numbers[start]!.b;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const line of hunk) out.push(`${line.op}${line.text}`);
    index = stop;
  }
  return `${out.join('\n')}\n`;
}
