/**
 * The `@kit/cli/load-kit` entry, kept for host applications written against it. Everything here
 * lives in `@kit/node` now; import it from there.
 */
import {
  type LoadedKit as NodeLoadedKit,
  type LoadKitOptions as NodeLoadKitOptions,
  type OpenedRateLimitStore as NodeOpenedRateLimitStore,
  currentBranch as nodeCurrentBranch,
  loadKit as nodeLoadKit,
  openRateLimitStore as nodeOpenRateLimitStore,
  renderDeadlineFromEnv as nodeRenderDeadlineFromEnv,
} from '@kit/node';

/** @deprecated Import `LoadKitOptions` from `@kit/node`. */
export type LoadKitOptions = NodeLoadKitOptions;

/** @deprecated Import `LoadedKit` from `@kit/node`. */
export type LoadedKit = NodeLoadedKit;

/** @deprecated Import `OpenedRateLimitStore` from `@kit/node`. */
export type OpenedRateLimitStore = NodeOpenedRateLimitStore;

/**
 * Loads the project's config and wires a kit: see `loadKit` in `@kit/node`.
 *
 * @deprecated Import `loadKit` from `@kit/node`; `@kit/cli/load-kit` only passes it on.
 */
export const loadKit: typeof nodeLoadKit = nodeLoadKit;

/**
 * The git branch the project is on: see `currentBranch` in `@kit/node`.
 *
 * @deprecated Import `currentBranch` from `@kit/node`.
 */
export const currentBranch: typeof nodeCurrentBranch = nodeCurrentBranch;

/**
 * The render deadline `KIT_RENDER_DEADLINE_MS` sets: see `renderDeadlineFromEnv` in `@kit/node`.
 *
 * @deprecated Import `renderDeadlineFromEnv` from `@kit/node`.
 */
export const renderDeadlineFromEnv: typeof nodeRenderDeadlineFromEnv = nodeRenderDeadlineFromEnv;

/**
 * Opens the rate-limit store a server counts in: see `openRateLimitStore` in `@kit/node`.
 *
 * @deprecated Import `openRateLimitStore` from `@kit/node`.
 */
export const openRateLimitStore: typeof nodeOpenRateLimitStore = nodeOpenRateLimitStore;
