import { createRenderer } from '@kit/render';
import { createServerSearch } from '@kit/search';
import { createFsSource } from '@kit/source-fs';
import { describe, expect, it } from 'vitest';
import { docsPageUri } from './resources.js';
import { connectClient, fixtureKitFactory, guest } from './testing/fixtures.js';

const createFixtureKit = fixtureKitFactory({ createRenderer, createServerSearch, createFsSource });

describe('docsPageUri', () => {
  it('puts a non-default locale in front of the path and encodes each segment', () => {
    expect(docsPageUri({ set: 'docs', version: '3.x', locale: 'ar', path: 'intro' })).toBe('docs://docs/3.x/ar/intro');
    expect(docsPageUri({ set: 'docs', version: 'current', locale: undefined, path: 'guides/my page' })).toBe(
      'docs://docs/current/guides/my%20page',
    );
  });

  it('builds URIs the docs-page template reads back', async () => {
    const client = await connectClient({ kit: createFixtureKit(), scope: { kind: 'local' }, viewer: guest });
    const uri = docsPageUri({ set: 'docs', version: '3.x', locale: 'ar', path: 'intro' });
    const page = await client.readResource({ uri });
    expect(page.contents[0]).toMatchObject({ uri, mimeType: 'text/markdown' });
  });
});
