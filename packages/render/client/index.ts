/**
 * The reader's browser script: an ES module loaded on every page (deferred, as modules are).
 * Everything works without it; it adds search, the phone drawer, the color toggle, menus, copy
 * buttons, scroll-spy, freshness dots and the feedback widget. The client search engine is a
 * separate chunk, fetched the first time a reader searches a `client`-driver set.
 */
import { loadClientSearch } from 'kit:client-search';
import { CLIENT_CONFIG_ID, type ReaderClientConfig } from '../src/reader/client-config.js';
import type { ClientIndexQuery } from '../src/reader/client-logic.js';
import { initCodeCopy } from './code.js';
import { initColorMode } from './color-mode.js';
import { initDrawer, revealCurrentPage } from './drawer.js';
import { initFeedback } from './feedback.js';
import { initFragmentAlias } from './fragment.js';
import { initFreshness } from './fresh.js';
import { initHighlightSwap } from './highlight-swap.js';
import { initNavLoading } from './nav.js';
import { initPageActions } from './page-actions.js';
import { initSearch } from './search.js';
import { initSwitchers } from './switchers.js';
import { initTocSpy } from './toc.js';

function readConfig(): ReaderClientConfig | null {
  const element = document.getElementById(CLIENT_CONFIG_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as ReaderClientConfig;
  } catch {
    return null;
  }
}

/**
 * The client search engine behind functions that import its chunk on first use (once; a failed
 * download is asked for again on the next query).
 */
function lazyClientSearch(load: NonNullable<typeof loadClientSearch>) {
  let loaded: ReturnType<typeof load> | undefined;
  const module = () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  const queryClientIndex: ClientIndexQuery = async (serialized, query, limit) => {
    const { queryClientIndex: search } = await module();
    if (!search) throw new Error('The client search module exports no queryClientIndex.');
    return search(serialized, query, limit);
  };
  const prepareClientIndex = (serialized: string) => {
    module().then(
      (engine) => engine.prepareClientIndex?.(serialized),
      () => undefined, // the first query asks again and reports the failure
    );
  };
  return { queryClientIndex, prepareClientIndex };
}

const clientSearch = loadClientSearch ? lazyClientSearch(loadClientSearch) : undefined;

function start(): void {
  const config = readConfig();
  if (!config) return;
  document.documentElement.classList.add('js');
  // Each part stands alone: one failing (an odd page, a blocked API) must not take the others down.
  const parts: Array<() => void> = [
    () => initColorMode(config),
    () => initFragmentAlias(),
    () => initDrawer(),
    () => revealCurrentPage(),
    () => initNavLoading(),
    () => initSwitchers(),
    () => initSearch(config, clientSearch?.queryClientIndex, clientSearch?.prepareClientIndex),
    () => initCodeCopy(config),
    () => initHighlightSwap(),
    () => initPageActions(config),
    () => initTocSpy(),
    () => initFreshness(config),
    () => initFeedback(config),
  ];
  for (const part of parts) {
    try {
      part();
    } catch (error) {
      console.error('[kit]', error);
    }
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
