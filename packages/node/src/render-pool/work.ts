import type { RenderedPage, SourcePage } from '@kit/core';
import { pageTooComplex, type RenderOutcome } from '@kit/render';
import type { PostedRenderContext } from './render-worker.js';

/** One page asked for. */
export interface Item {
  page: SourcePage;
  context: PostedRenderContext;
  /** Renders this page on the calling thread instead. */
  inline(): Promise<RenderOutcome>;
  resolve(outcome: RenderOutcome): void;
  reject(error: Error): void;
  settled: boolean;
}

/** What one worker renders in one go: a page, or several with the same Markdown or the same path. */
export interface Pending {
  id: number;
  items: Item[];
}

/** The pages of `pending` not answered yet. */
export function unsettled(pending: Pending): Item[] {
  return pending.items.filter((item) => !item.settled);
}

/** Pages answered as text because their render ran past the deadline or crashed its worker. */
const cutShort = new WeakSet<RenderedPage>();

/**
 * True for a page a render pool answered as text because its render ran past the deadline or
 * crashed its worker: an outcome of that run, which an on-disk cache should not keep.
 */
export function renderCutShort(page: RenderedPage): boolean {
  return cutShort.has(page);
}

/** Answers a page as its text, with a notice saying why: an outcome of this run only (`renderCutShort`). */
export function answerAsText(item: Item, why: string): void {
  item.settled = true;
  const page: RenderedPage = { ...pageTooComplex(item.page, why), provisional: true };
  cutShort.add(page);
  item.resolve({ page, includes: [] });
}
