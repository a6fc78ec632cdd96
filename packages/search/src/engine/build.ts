import { tokenize } from '../text/analyze.js';
import type { EngineIndex, EnginePage, EngineSection, FieldPostings } from './types.js';

/** What the engine needs of one section (a subset of `SearchSection` from `@kit/core`). */
export interface EngineInput {
  path: string;
  title: string;
  heading: string;
  headingPath: string[];
  description?: string | null;
  text: string;
  url: string;
  markdownUrl: string;
}

class FieldBuilder {
  readonly ids: number[][] = [];
  readonly tfs: number[][] = [];

  push(term: number, id: number, tf: number): void {
    let ids = this.ids[term];
    let tfs = this.tfs[term];
    if (!ids || !tfs) {
      ids = [];
      tfs = [];
      this.ids[term] = ids;
      this.tfs[term] = tfs;
    }
    ids.push(id);
    tfs.push(Math.min(tf, 65535));
  }

  finish(termCount: number, remap: Uint32Array): FieldPostings {
    const ids: Uint32Array[] = new Array(termCount);
    const tfs: Uint16Array[] = new Array(termCount);
    for (let old = 0; old < remap.length; old++) {
      const target = remap[old]!;
      ids[target] = Uint32Array.from(this.ids[old] ?? []);
      tfs[target] = Uint16Array.from(this.tfs[old] ?? []);
    }
    return { ids, tfs };
  }
}

/** Whether section `inner`'s heading path lies under section `outer`'s. */
function isUnder(inner: EngineInput, outer: EngineInput): boolean {
  const path = outer.headingPath;
  return inner.headingPath.length > path.length && path.every((heading, at) => inner.headingPath[at] === heading);
}

/**
 * The text snippets of section `at` are cut from: its own, or for a section with only sub-headings
 * (no text of its own) the text of its first subsection that has some, so its snippet is never
 * empty. Ranking reads the section's own words only.
 */
function snippetText(group: readonly EngineInput[], at: number): string {
  const section = group[at]!;
  if (section.text.trim() !== '') return section.text;
  for (let next = at + 1; next < group.length && isUnder(group[next]!, section); next++) {
    if (group[next]!.text.trim() !== '') return group[next]!.text;
  }
  return section.text;
}

/**
 * Builds the ranking index of one scope. Sections of a page stay together in the order given;
 * the page's title, description and Markdown URL come from its first section.
 */
export function buildEngineIndex(inputs: readonly EngineInput[]): EngineIndex {
  const pageOf = new Map<string, number>();
  const grouped: EngineInput[][] = [];
  for (const input of inputs) {
    let page = pageOf.get(input.path);
    if (page === undefined) {
      page = grouped.length;
      pageOf.set(input.path, page);
      grouped.push([]);
    }
    grouped[page]!.push(input);
  }

  const termId = new Map<string, number>();
  const termList: string[] = [];
  const surfaceTermOf = new Map<string, number>();
  const idOf = (term: string, surface: string): number => {
    let id = termId.get(term);
    if (id === undefined) {
      id = termList.length;
      termId.set(term, id);
      termList.push(term);
    }
    if (!surfaceTermOf.has(surface)) surfaceTermOf.set(surface, id);
    return id;
  };
  const count = (text: string): { counts: Map<number, number>; length: number } => {
    const counts = new Map<number, number>();
    const tokens = tokenize(text);
    for (const token of tokens) {
      const id = idOf(token.term, token.surface);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return { counts, length: tokens.length };
  };

  const body = new FieldBuilder();
  const head = new FieldBuilder();
  const title = new FieldBuilder();
  const desc = new FieldBuilder();
  const pages: EnginePage[] = [];
  const sections: EngineSection[] = [];
  const pageStart = new Uint32Array(grouped.length + 1);
  const titleLen = new Uint32Array(grouped.length);
  const descLen = new Uint32Array(grouped.length);
  const bodyLens: number[] = [];
  const headLens: number[] = [];
  const sectionPages: number[] = [];

  grouped.forEach((group, page) => {
    const first = group[0]!;
    const description = first.description?.trim() ? first.description.trim() : null;
    pages.push({ path: first.path, title: first.title, description, markdownUrl: first.markdownUrl });
    pageStart[page] = sections.length;
    const titleCounts = count(first.title);
    titleLen[page] = titleCounts.length;
    for (const [term, tf] of titleCounts.counts) title.push(term, page, tf);
    const descCounts = count(description ?? '');
    descLen[page] = descCounts.length;
    for (const [term, tf] of descCounts.counts) desc.push(term, page, tf);
    group.forEach((input, at) => {
      const id = sections.length;
      sections.push({ page, heading: input.heading, url: input.url, text: snippetText(group, at) });
      sectionPages.push(page);
      const headCounts = count(input.headingPath.length ? input.headingPath.join(' ') : input.heading);
      headLens.push(headCounts.length);
      for (const [term, tf] of headCounts.counts) head.push(term, id, tf);
      const bodyCounts = count(input.text);
      bodyLens.push(bodyCounts.length);
      for (const [term, tf] of bodyCounts.counts) body.push(term, id, tf);
    });
  });
  pageStart[grouped.length] = sections.length;

  // Terms are renumbered in sorted order so a serialized index can list them compactly.
  const terms = [...termList].sort();
  const remap = new Uint32Array(termList.length);
  const sortedId = new Map<string, number>();
  for (const [index, term] of terms.entries()) sortedId.set(term, index);
  termList.forEach((term, old) => {
    remap[old] = sortedId.get(term)!;
  });
  const surfaces = [...surfaceTermOf.keys()].sort();
  const surfaceTerm = Uint32Array.from(surfaces, (surface) => remap[surfaceTermOf.get(surface)!]!);

  return {
    pages,
    sections,
    pageStart,
    sectionPage: Uint32Array.from(sectionPages),
    bodyLen: Uint32Array.from(bodyLens),
    headLen: Uint32Array.from(headLens),
    titleLen,
    descLen,
    terms,
    termId: sortedId,
    surfaces,
    surfaceTerm,
    body: body.finish(terms.length, remap),
    head: head.finish(terms.length, remap),
    title: title.finish(terms.length, remap),
    desc: desc.finish(terms.length, remap),
  };
}
