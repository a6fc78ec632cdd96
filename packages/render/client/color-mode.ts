import { COLOR_MODE_STORAGE_KEY, type ReaderClientConfig } from '../src/reader/client-config.js';
import { type ColorChoice, nextColorChoice } from '../src/reader/client-logic.js';
import { storage } from './storage.js';

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Applies a choice to the document: `data-mode` is what CSS reads, `data-mode-choice` what the button shows. */
export function applyColorChoice(choice: ColorChoice): void {
  const root = document.documentElement;
  root.setAttribute('data-mode-choice', choice);
  root.setAttribute('data-mode', choice === 'system' ? (systemPrefersDark() ? 'dark' : 'light') : choice);
}

function currentChoice(config: ReaderClientConfig): ColorChoice {
  const stored = storage.get(COLOR_MODE_STORAGE_KEY);
  if (stored === 'light' || stored === 'dark' || stored === 'system') return stored;
  return config.mode;
}

export function initColorMode(config: ReaderClientConfig): void {
  const buttons = document.querySelectorAll<HTMLButtonElement>('[data-kit-color-mode]');
  const label = (choice: ColorChoice) =>
    choice === 'light'
      ? config.strings.colorModeLight
      : choice === 'dark'
        ? config.strings.colorModeDark
        : config.strings.colorModeSystem;
  const sync = (choice: ColorChoice) => {
    applyColorChoice(choice);
    for (const button of buttons) button.setAttribute('aria-label', label(choice));
  };
  sync(currentChoice(config));
  for (const button of buttons) {
    button.addEventListener('click', () => {
      const next = nextColorChoice(currentChoice(config));
      storage.set(COLOR_MODE_STORAGE_KEY, next);
      sync(next);
    });
  }
  if (typeof matchMedia === 'function') {
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => {
      if (currentChoice(config) === 'system') sync('system');
    });
  }
  // Another tab changed the choice: follow it.
  window.addEventListener('storage', (event) => {
    if (event.key === COLOR_MODE_STORAGE_KEY) sync(currentChoice(config));
  });
}
