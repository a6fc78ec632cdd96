/**
 * Writes apps/site/reference/events.md from the event types (src/events/types.ts):
 *
 *   pnpm --filter @kit/core gen:events
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EVENTS_REFERENCE_PAGE, renderEventsReference } from './events-reference.js';

const target = fileURLToPath(new URL(`../../../${EVENTS_REFERENCE_PAGE}`, import.meta.url));
writeFileSync(target, renderEventsReference());
process.stdout.write(`wrote ${EVENTS_REFERENCE_PAGE}\n`);
