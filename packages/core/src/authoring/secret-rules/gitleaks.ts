// The detection gitleaks does with its rule set, for text held in memory: keyword prefilter, regex,
// the secret taken from the first non-empty capture group (or `secretGroup`), Shannon entropy above
// the rule's threshold, then the global and the rule's allowlists (regexes on the secret, the match
// or the line; stopwords in the secret). File paths, commits, decoding passes and the
// `gitleaks:allow` comment play no part: a page has no path or commit, and an author must not be
// able to wave a secret through with a comment.

import { re2ToJs } from './re2.js';

/** An allowlist of gitleaks, as data. */
export interface GitleaksAllowlist {
  /** What `regexes` are tried on: the secret, the whole match, or the line(s) it is on. */
  regexTarget: 'secret' | 'match' | 'line';
  /** OR: any one check allows the finding; AND: all of them must. */
  condition: 'OR' | 'AND';
  regexes: string[];
  /** Lowercase words; a secret that contains one is allowed. */
  stopwords: string[];
}

/** A rule of gitleaks, as data (its regexes in RE2 syntax, verbatim). */
export interface GitleaksRule {
  id: string;
  description: string;
  regex: string;
  /** A finding whose secret has this Shannon entropy or less is dropped. */
  entropy?: number;
  /** Lowercase; the rule runs only on text that contains one (all text when empty). */
  keywords: string[];
  secretGroup?: number;
  allowlists: GitleaksAllowlist[];
}

/** gitleaks' rule set: its version, global allowlists and rules. */
export interface GitleaksRuleSet {
  version: string;
  allowlists: GitleaksAllowlist[];
  rules: GitleaksRule[];
}

/** One finding: the rule, where the match starts in the scanned text, and the secret. */
export interface RuleFinding {
  rule: string;
  index: number;
  secret: string;
}

interface CompiledAllowlist {
  target: GitleaksAllowlist['regexTarget'];
  and: boolean;
  regexes: RegExp[];
  stopwords: string[];
}

interface CompiledRule {
  id: string;
  pattern: RegExp;
  /** Set for a rule in {@link ANCHORED_RULES}: the same regex, sticky, tried only where a match can start. */
  anchored: AnchoredRule | null;
  entropy: number;
  keywords: string[];
  secretGroup: number;
  allowlists: CompiledAllowlist[];
}

function compileAllowlist(list: GitleaksAllowlist): CompiledAllowlist {
  return {
    target: list.regexTarget,
    and: list.condition === 'AND',
    regexes: list.regexes.map((regex) => new RegExp(re2ToJs(regex))),
    stopwords: list.stopwords,
  };
}

/** Shannon entropy as gitleaks computes it: per character, over the UTF-8 length. */
export function shannonEntropy(text: string): number {
  if (text === '') return 0;
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = new TextEncoder().encode(text).length;
  let entropy = 0;
  for (const count of counts.values()) {
    const frequency = count / length;
    entropy -= frequency * Math.log2(frequency);
  }
  return entropy;
}

function allowed(lists: CompiledAllowlist[], secret: string, match: string, line: string): boolean {
  const lowered = secret.toLowerCase();
  for (const list of lists) {
    const target = list.target === 'match' ? match : list.target === 'line' ? line : secret;
    const regexAllowed = target !== '' && list.regexes.some((regex) => regex.test(target));
    const stopword = secret !== '' && list.stopwords.some((word) => lowered.includes(word));
    if (list.and) {
      const checks = [
        ...(list.regexes.length > 0 ? [regexAllowed] : []),
        ...(list.stopwords.length > 0 ? [stopword] : []),
      ];
      if (checks.length > 0 && checks.every(Boolean)) return true;
    } else if (regexAllowed || stopword) return true;
  }
  return false;
}

/** The line(s) a match at `start`..`end` is on, without their line breaks. */
function linesAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const next = text.indexOf('\n', end);
  return text.slice(from, next < 0 ? text.length : next);
}

/**
 * Rules whose regex costs too much when tried at every position of a long hostile line, and how
 * to find their matches cheaply. generic-api-key opens with a lazy `[\w.-]{0,50}?` before a
 * keyword as short as "key", so on 1 MB of "key" repeated the engine retries the rest of the
 * pattern at up to 50 offsets from each of a million start positions (2-8 s). The same matches
 * are found by trying the rest of the pattern (`rest`, the regex without that prefix) once at each
 * position where a keyword can start, only where a separator (`=`, `>`, `:`, `||`, `,`, `?=`)
 * follows within `reach` characters (a keyword of up to 10, 20 of filler, 3 of quotes or spaces),
 * then running the whole regex from the leftmost start its prefix allows.
 */
const ANCHORED_RULES: Record<string, { prefix: string; word: string; anchor: RegExp; reach: number }> = {
  'generic-api-key': { prefix: '(?i)[\\w.-]{0,50}?', word: '(?i)[\\w.-]', anchor: /[=>:|,?]/g, reach: 33 },
};

interface AnchoredRule {
  sticky: RegExp;
  rest: RegExp;
  word: RegExp;
  anchor: RegExp;
  reach: number;
  /** The most characters the prefix takes. */
  prefixLength: number;
}

function compileAnchored(rule: GitleaksRule): AnchoredRule | null {
  const anchored = ANCHORED_RULES[rule.id];
  if (!anchored) return null;
  // A new upstream regex must not silently lose the equivalence this rests on.
  if (!rule.regex.startsWith(anchored.prefix)) throw new Error(`${rule.id} no longer starts with ${anchored.prefix}`);
  return {
    sticky: new RegExp(re2ToJs(rule.regex), 'y'),
    rest: new RegExp(re2ToJs(`(?i)${rule.regex.slice(anchored.prefix.length)}`), 'y'),
    word: new RegExp(re2ToJs(anchored.word)),
    anchor: anchored.anchor,
    reach: anchored.reach,
    prefixLength: 50,
  };
}

/** The ranges [from, to] of positions within `reach` before an `anchor` character, merged. */
function startRanges(text: string, anchor: RegExp, reach: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  anchor.lastIndex = 0;
  for (let found = anchor.exec(text); found; found = anchor.exec(text)) {
    const from = Math.max(0, found.index - reach);
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = found.index;
    else ranges.push([from, found.index]);
  }
  return ranges;
}

/**
 * Every match of a rule's regex in `text`, as a global exec loop finds them. For an anchored rule:
 * the first position `at` (from where the last match ended) where the rest of the pattern matches
 * gives the leftmost start the lazy prefix can reach back to, and the whole regex runs from there.
 */
function* matchesOf(rule: CompiledRule, text: string): Generator<RegExpExecArray> {
  if (!rule.anchored) {
    rule.pattern.lastIndex = 0;
    for (let found = rule.pattern.exec(text); found; found = rule.pattern.exec(text)) {
      if (found[0] === '') rule.pattern.lastIndex += 1;
      else yield found;
    }
    return;
  }
  const { sticky, rest, word, anchor, reach, prefixLength } = rule.anchored;
  let next = 0;
  for (const [from, to] of startRanges(text, anchor, reach)) {
    for (let at = Math.max(from, next); at <= to; at++) {
      rest.lastIndex = at;
      if (!rest.test(text)) continue;
      let start = at;
      while (start > next && at - start < prefixLength && word.test(text[start - 1]!)) start--;
      sticky.lastIndex = start;
      const found = sticky.exec(text);
      if (!found) throw new Error(`${rule.id}: the anchored scan found no match at ${start}`);
      next = start + found[0].length;
      yield found;
      at = next - 1;
    }
  }
}

/** Options of {@link gitleaksScanner}. */
export interface ScannerOptions {
  /** An allowlist of the caller's own on top of gitleaks': true drops the finding. */
  allowed?(rule: string, secret: string, match: string): boolean;
}

/**
 * A scanner for a gitleaks rule set: every finding in `text`, in the order they appear. The
 * regexes are compiled once, on the first scan. As gitleaks does, a finding of a "generic" rule
 * that overlaps one of a specific rule is dropped.
 */
export function gitleaksScanner(
  ruleSet: GitleaksRuleSet,
  options: ScannerOptions = {},
): (text: string) => RuleFinding[] {
  let compiled: { rules: CompiledRule[]; global: CompiledAllowlist[] } | null = null;
  const compile = () => ({
    rules: ruleSet.rules.map(
      (rule): CompiledRule => ({
        id: rule.id,
        pattern: new RegExp(re2ToJs(rule.regex), 'g'),
        anchored: compileAnchored(rule),
        entropy: rule.entropy ?? 0,
        keywords: rule.keywords,
        secretGroup: rule.secretGroup ?? 0,
        allowlists: rule.allowlists.map(compileAllowlist),
      }),
    ),
    global: ruleSet.allowlists.map(compileAllowlist),
  });

  return (text) => {
    compiled ??= compile();
    const lowered = text.toLowerCase();
    const findings: Array<RuleFinding & { end: number }> = [];
    for (const rule of compiled.rules) {
      if (rule.keywords.length > 0 && !rule.keywords.some((keyword) => lowered.includes(keyword))) continue;
      for (const found of matchesOf(rule, text)) {
        const match = found[0].replace(/^\n+|\n+$/g, '');
        const start = found.index + found[0].indexOf(match);
        let secret = match;
        if (found.length >= 2) {
          secret =
            rule.secretGroup > 0
              ? (found[rule.secretGroup] ?? '')
              : (found.slice(1).find((group) => group !== undefined && group !== '') ?? match);
        }
        if (rule.entropy > 0 && shannonEntropy(secret) <= rule.entropy) continue;
        const line = linesAround(text, start, start + match.length);
        if (allowed(compiled.global, secret, match, line) || allowed(rule.allowlists, secret, match, line)) continue;
        if (options.allowed?.(rule.id, secret, match)) continue;
        findings.push({ rule: rule.id, index: start, end: start + match.length, secret });
      }
    }
    const generic = (finding: RuleFinding) => finding.rule.includes('generic');
    return findings
      .filter(
        (finding) =>
          !generic(finding) ||
          !findings.some((other) => !generic(other) && other.index < finding.end && finding.index < other.end),
      )
      .sort((a, b) => a.index - b.index)
      .map(({ rule, index, secret }) => ({ rule, index, secret }));
  };
}
