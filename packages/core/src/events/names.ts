import type { KitEventName } from './types.js';

// Typed against KitEventMap: an event added there and missing here (or the other way round) fails
// the typecheck, so the names the config accepts never drift from the events Kit fires.
const eventNames = {
  FeedbackSubmitted: true,
  McpToolCalled: true,
  SearchPerformed: true,
  DraftPublished: true,
  DraftDiscarded: true,
  PageRestored: true,
} as const satisfies Record<KitEventName, true>;

/** Every event Kit fires, by name: the keys the config's `events` accepts. */
export const KIT_EVENT_NAMES: readonly KitEventName[] = Object.freeze(Object.keys(eventNames) as KitEventName[]);
