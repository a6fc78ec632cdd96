import { type ReaderClientConfig, SEEN_STORAGE_PREFIX } from '../src/reader/client-config.js';
import { isFreshFor, type SeenPages, seenKey } from '../src/reader/client-logic.js';
import { storage } from './storage.js';

const DAY_MS = 86_400_000;

function readSeen(set: string): SeenPages {
  try {
    const parsed = JSON.parse(storage.get(SEEN_STORAGE_PREFIX + set) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as SeenPages) : {};
  } catch {
    return {};
  }
}

/** Records the open page as seen, then shows or hides each sidebar dot from what was seen. */
export function initFreshness(config: ReaderClientConfig, now = Date.now()): void {
  if (!(config.freshDays > 0)) return;
  const seen = readSeen(config.set);
  const span = config.freshDays * DAY_MS;
  // Forget entries that can no longer hide a dot, so the record stays small.
  for (const [key, at] of Object.entries(seen)) if (typeof at !== 'number' || now - at > span) delete seen[key];
  if (config.path) seen[seenKey(config, config.path)] = now;
  storage.set(SEEN_STORAGE_PREFIX + config.set, JSON.stringify(seen));

  const template = document.querySelector<HTMLElement>('[data-kit-fresh]');
  for (const link of document.querySelectorAll<HTMLAnchorElement>('.kit-nav a[data-updated][data-path]')) {
    const path = link.dataset.path!;
    const fresh = isFreshFor(Date.parse(link.dataset.updated!), seen[seenKey(config, path)], now, config.freshDays);
    const dot = link.querySelector<HTMLElement>('[data-kit-fresh]');
    if (!fresh) dot?.remove();
    else if (!dot) {
      const created = (template?.cloneNode(true) as HTMLElement | undefined) ?? document.createElement('span');
      created.className = 'kit-fresh-dot';
      created.setAttribute('data-kit-fresh', '');
      link.append(created);
    }
  }
}
