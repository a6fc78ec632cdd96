import type { SyncDenyRules } from './deny.js';

/** A unified diff with the denied files' changes taken out. */
export interface RedactedDiff {
  /** The diff the model is shown: each denied file's section replaced by one line naming it. */
  text: string;
  /** Files whose changes were withheld. */
  withheld: string[];
  /** True when the diff was cut at `maxChars`. */
  truncated: boolean;
}

const FILE_HEADER = /^diff --git a\/(.+?) b\/(.+)$/;

/**
 * Withholds the changes of denied files from a `git diff` (run with `--no-renames`, paths relative
 * to the project root): a denied file's whole section, hunks included, becomes one line naming the
 * file, so its content never reaches the provider while the model still knows it changed. The
 * rest is kept as it is, cut at `maxChars` with a note saying so.
 *
 * @example
 * redactDiff(gitDiff, syncDenyRules([]), 200_000).withheld; // ['.env.example']
 */
export function redactDiff(diff: string, deny: SyncDenyRules, maxChars = 200_000): RedactedDiff {
  const withheld: string[] = [];
  const out: string[] = [];
  let skipping = false;
  for (const line of diff.split('\n')) {
    const header = FILE_HEADER.exec(line);
    if (header) {
      const files = [...new Set([header[1]!, header[2]!])];
      skipping = files.some((file) => deny.denies(file));
      if (skipping) {
        withheld.push(...files);
        out.push(
          `diff --git a/${files[0]} b/${files[0]}`,
          `[kit sync: the changes to ${files.join(', ')} are withheld: the path is in the deny list (built in, or ai.sync.deny).]`,
        );
        continue;
      }
    }
    if (!skipping) out.push(line);
  }
  let text = out.join('\n');
  const truncated = text.length > maxChars;
  if (truncated) {
    text = `${text.slice(0, maxChars)}\n[kit sync: the diff is longer than ${maxChars} characters and was cut here; read the files you need with read_file.]`;
  }
  return { text, withheld: [...new Set(withheld)], truncated };
}
