import type { ResolvedSetConfig } from '../config/types.js';
import { normalizeManifest, parseManifestText } from '../manifest/normalize.js';
import type { NormalizedManifest, SourceProblem } from '../model/types.js';
import type { ContentSource } from '../ports/content-source.js';
import { createUrlLayout, type UrlLayout } from '../urls/set-urls.js';

/** The set's manifest as last read: its text, what it says, its problems and the URL layout it fixes. */
export interface ManifestState {
  text: string | null;
  manifest: NormalizedManifest;
  problems: SourceProblem[];
  layout: UrlLayout;
}

/** Reads a set's manifest, keeping it while the source is watched (until a manifest change). */
export interface ManifestReader {
  load(): Promise<ManifestState>;
  /**
   * The manifest {@link ManifestReader.load} would answer, synchronously: while watching, once
   * its read has settled and no change came since. Undefined otherwise (then call `load`).
   */
  now(): ManifestState | undefined;
  /** The layout as last read: synchronously while watching, once read; else read now. */
  layout(): UrlLayout | Promise<UrlLayout>;
  /** Forgets the manifest read, after a manifest change notice. */
  forget(): void;
}

/**
 * The manifest part of a doc set. `onMoved` runs when a read finds the manifest text changed since
 * the previous read: URLs and rendered links may differ from then on.
 */
export function createManifestReader(options: {
  set: string;
  config: ResolvedSetConfig;
  source: ContentSource;
  watching: boolean;
  onMoved: () => void;
}): ManifestReader {
  const { set, config, source, watching } = options;
  let current: Promise<ManifestState> | null = null;
  const settled = new WeakMap<Promise<ManifestState>, ManifestState>();

  async function read(previous: Promise<ManifestState> | null): Promise<ManifestState> {
    const file = await source.readManifest();
    const text = file?.text ?? null;
    const before = previous ? await previous.catch(() => null) : null;
    if (before && before.text === text) return before;
    const result = text === null ? normalizeManifest(undefined, set) : parseManifestText(text, set, file?.file);
    if (before) options.onMoved();
    return {
      text,
      manifest: result.manifest,
      problems: result.problems,
      layout: createUrlLayout(config.route.prefix, result.manifest, { linkPrefix: config.route.link_prefix }),
    };
  }

  async function load(): Promise<ManifestState> {
    if (watching && current) return current;
    const next = read(current);
    current = next;
    next.then(
      (state) => settled.set(next, state),
      () => {
        if (current === next) current = null;
      },
    );
    return next;
  }

  const now = () => (watching && current ? settled.get(current) : undefined);
  return {
    load,
    now,
    layout() {
      const state = now();
      return state ? state.layout : load().then((loaded) => loaded.layout);
    },
    forget() {
      current = null;
    },
  };
}
