import { resolve } from 'node:path';
import { defineConfig } from '@kit/core';
import { createMiniSearchDriver } from '@kit/search/examples/minisearch-driver';

// The Laravel corpus sits beside the repository (`../shared/corpora/laravel`); KIT_LARAVEL_PATH overrides.
const laravelPath = process.env.KIT_LARAVEL_PATH ?? resolve(import.meta.dirname, '../../../shared/corpora/laravel');

export default defineConfig({
  sets: {
    // Kit's own documentation, from apps/site.
    docs: {
      route: { prefix: 'docs' },
      source: { driver: 'repository', path: '../site' },
    },
    // KIT_LARAVEL=1 adds the Laravel docs (three versions) as a second set. Its pages mark anchors with
    // raw <a name> tags, so it is served as its owners would: a trusted repository set with html_input allow.
    ...(process.env.KIT_LARAVEL
      ? {
          laravel: {
            route: { prefix: 'laravel' },
            source: { driver: 'repository' as const, path: laravelPath },
            html_input: 'allow' as const,
            search: { driver: process.env.KIT_LARAVEL_SEARCH ?? 'server' },
          },
        }
      : {}),
  },
  // The worked example of a custom search driver: `search: { driver: 'minisearch' }` on any set uses it.
  searchDrivers: { minisearch: createMiniSearchDriver },
});
