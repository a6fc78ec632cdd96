/**
 * The reader's browser script: one file, loaded with `defer` on every page. Everything works
 * without it; it adds search, the phone drawer, the color toggle, menus, copy buttons, scroll-spy,
 * freshness dots and the feedback widget.
 */
import * as clientSearch from 'kit:client-search';
import { CLIENT_CONFIG_ID, type ReaderClientConfig } from '../src/reader/client-config.js';
import { initCodeCopy } from './code.js';
import { initColorMode } from './color-mode.js';
import { initDrawer } from './drawer.js';
import { initFeedback } from './feedback.js';
import { initFragmentAlias } from './fragment.js';
import { initFreshness } from './fresh.js';
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

function start(): void {
  const config = readConfig();
  if (!config) return;
  document.documentElement.classList.add('js');
  // Each part stands alone: one failing (an odd page, a blocked API) must not take the others down.
  const parts: Array<() => void> = [
    () => initColorMode(config),
    () => initFragmentAlias(),
    () => initDrawer(),
    () => initSwitchers(),
    () => initSearch(config, clientSearch.queryClientIndex, clientSearch.prepareClientIndex),
    () => initCodeCopy(config),
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
