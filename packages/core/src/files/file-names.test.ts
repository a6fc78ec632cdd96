import { describe, expect, it } from 'vitest';
import { contentFolder, fileCandidates, fileUrl, resolveFilePath, type UrlLayout } from '../urls/set-urls.js';
import { fileContentType, isServableFileName, looksLikeFile } from './file-names.js';

const layout: UrlLayout = {
  prefix: '/docs',
  versioned: true,
  versions: [
    { id: '13.x', label: '13.x', status: 'current', default: true, visibility: 'public' },
    { id: '12.x', label: '12.x', status: 'maintained', default: false, visibility: 'public' },
  ],
  locales: [
    { code: 'en', label: 'English', dir: 'ltr', default: true },
    { code: 'ar', label: 'العربية', dir: 'rtl', default: false },
  ],
  defaultVersion: '13.x',
  defaultLocale: 'en',
  landing: 'installation',
};

describe('static file names', () => {
  it('serves plain names and refuses traversal, dotfiles, Markdown, structure files and secrets', () => {
    for (const name of ['13.x/img/flow.png', 'brand/logo.svg', '13.x/downloads/guide v2.pdf', '100%.png']) {
      expect(isServableFileName(name), name).toBe(true);
    }
    for (const name of [
      '',
      '../x.png',
      '13.x/../x.png',
      './x.png',
      'a//b.png',
      '/etc/passwd',
      'a\\b.png',
      'a\u0000.png',
      '.env',
      '13.x/.git/config',
      '13.x/page.md',
      '13.x/PAGE.MD',
      'kit.json',
      '13.x/navigation.json',
      '13.x/keys/server.key',
      '13.x/id_rsa.png',
      'config/app.png',
      'node_modules/x/logo.png',
      'kit.config.ts',
      '13.x/credentials.json',
    ]) {
      expect(isServableFileName(name), name).toBe(false);
    }
  });

  it('tells files from pages by a non-Markdown extension', () => {
    expect(looksLikeFile('img/flow.png')).toBe(true);
    expect(looksLikeFile('/docs/guide.pdf')).toBe(true);
    expect(looksLikeFile('guides/setup')).toBe(false);
    expect(looksLikeFile('guides/setup.md')).toBe(false);
    expect(looksLikeFile('v1.2/notes')).toBe(false);
  });

  it('types known extensions and sends unknown and runnable ones as downloads', () => {
    expect(fileContentType('a/flow.PNG')).toEqual({ type: 'image/png', download: false });
    expect(fileContentType('logo.svg')).toEqual({ type: 'image/svg+xml', download: false });
    expect(fileContentType('guide.pdf')).toEqual({ type: 'application/pdf', download: false });
    expect(fileContentType('setup.exe')).toEqual({ type: 'application/octet-stream', download: true });
    expect(fileContentType('widget.html')).toEqual({ type: 'application/octet-stream', download: true });
    expect(fileContentType('app.js')).toEqual({ type: 'application/octet-stream', download: true });
    expect(fileContentType('README')).toEqual({ type: 'application/octet-stream', download: true });
  });
});

describe('where static files live and answer', () => {
  it('keeps a file in its version (and locale) folder, a translation falling back to the default locale', () => {
    expect(contentFolder(layout, '13.x', 'en')).toBe('13.x');
    expect(contentFolder(layout, '12.x', 'ar')).toBe('12.x/ar');
    expect(contentFolder({ versioned: false, defaultLocale: 'en' }, 'current', 'ar')).toBe('ar');
    expect(fileCandidates(layout, { version: '12.x', locale: 'ar', path: 'img/a.png' })).toEqual([
      '12.x/ar/img/a.png',
      '12.x/img/a.png',
    ]);
    expect(fileCandidates(layout, { version: '13.x', locale: 'en', path: 'img/a.png' })).toEqual(['13.x/img/a.png']);
  });

  it('serves a file at the page URL space of its version and locale', () => {
    expect(fileUrl(layout, { version: '13.x', locale: 'en', path: 'img/flow.png' })).toBe('/docs/img/flow.png');
    expect(fileUrl(layout, { version: '12.x', locale: 'ar', path: 'a b.png' })).toBe('/docs/12.x/ar/a%20b.png');
    // The landing page's name is no special case for a file.
    expect(fileUrl(layout, { version: '13.x', locale: 'en', path: 'installation' })).toBe('/docs/installation');
  });

  it('resolves a relative file link against the page folder, never out of the version', () => {
    expect(resolveFilePath('guides/index', './flow.png')).toBe('guides/flow.png');
    expect(resolveFilePath('guides/queues', '../img/a%20b.png')).toBe('img/a b.png');
    expect(resolveFilePath('index', '../secret.png')).toBeNull();
  });
});
