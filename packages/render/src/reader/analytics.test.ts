import { describe, expect, it } from 'vitest';
import { analyticsForSet, analyticsScripts } from './analytics.js';

const manifest = { fromManifest: true };
const config = { fromManifest: false };

function srcs(html: string): string[] {
  return [...html.matchAll(/src="([^"]+)"/g)].map((match) => match[1]!);
}

describe('analyticsScripts', () => {
  it('returns nothing for an empty, missing or malformed configuration', () => {
    expect(analyticsScripts(undefined, manifest)).toBe('');
    expect(analyticsScripts(null, manifest)).toBe('');
    expect(analyticsScripts({}, manifest)).toBe('');
    expect(analyticsScripts({ ga4: 'G-ABC123' } as never, manifest)).toBe('');
    expect(analyticsScripts({ ga4: ['G-ABC123'] } as never, manifest)).toBe('');
  });

  it('ignores tool keys it does not know', () => {
    expect(analyticsScripts({ matomo: { siteId: '1' } }, config)).toBe('');
  });

  describe('ga4', () => {
    it('loads gtag for a measurement id starting with G-', () => {
      const html = analyticsScripts({ ga4: { measurementId: 'G-ABC123XYZ' } }, manifest);
      expect(srcs(html)).toEqual(['https://www.googletagmanager.com/gtag/js?id=G-ABC123XYZ']);
      expect(html).toContain("gtag('config','G-ABC123XYZ')");
    });

    it.each(['UA-12345-1', 'ABC123', 'G-', "G-ABC');alert(1);//", 'g-abc123', ''])('leaves out the id %j', (id) => {
      expect(analyticsScripts({ ga4: { measurementId: id } }, config)).toBe('');
    });

    it('puts the nonce on its inline bootstrap', () => {
      const html = analyticsScripts({ ga4: { measurementId: 'G-ABC123' } }, { fromManifest: true, nonce: 'n0nce' });
      expect(html).toContain('<script nonce="n0nce">window.dataLayer');
    });
  });

  describe('plausible', () => {
    it('uses the provider script with the domain by default', () => {
      const html = analyticsScripts({ plausible: { domain: 'docs.example.com' } }, manifest);
      expect(html).toBe(
        '<script defer data-domain="docs.example.com" src="https://plausible.io/js/script.js"></script>',
      );
    });

    it('accepts a comma-separated list of domains', () => {
      expect(analyticsScripts({ plausible: { domain: 'a.example.com,b.example.org' } }, manifest)).toContain(
        'data-domain="a.example.com,b.example.org"',
      );
    });

    it('leaves the tool out when the domain is missing or not a domain', () => {
      expect(analyticsScripts({ plausible: {} }, manifest)).toBe('');
      expect(analyticsScripts({ plausible: { domain: 'not a domain' } }, manifest)).toBe('');
      expect(analyticsScripts({ plausible: { domain: 'x" onload="alert(1)' } }, manifest)).toBe('');
    });

    it("accepts from a manifest only the provider's own https script URL", () => {
      const own = analyticsScripts(
        { plausible: { domain: 'example.com', src: 'https://plausible.io/js/script.outbound-links.js' } },
        manifest,
      );
      expect(srcs(own)).toEqual(['https://plausible.io/js/script.outbound-links.js']);
      const foreign = analyticsScripts(
        { plausible: { domain: 'example.com', src: 'https://stats.example.com/js/script.js' } },
        manifest,
      );
      expect(srcs(foreign)).toEqual(['https://plausible.io/js/script.js']);
      const plain = analyticsScripts(
        { plausible: { domain: 'example.com', src: 'http://plausible.io/js/script.js' } },
        manifest,
      );
      expect(srcs(plain)).toEqual(['https://plausible.io/js/script.js']);
    });

    it('accepts any https script URL from configuration, and no other scheme', () => {
      const selfHosted = analyticsScripts(
        { plausible: { domain: 'example.com', src: 'https://stats.example.com/js/script.js' } },
        config,
      );
      expect(srcs(selfHosted)).toEqual(['https://stats.example.com/js/script.js']);
      const insecure = analyticsScripts(
        { plausible: { domain: 'example.com', src: 'http://stats.example.com/s.js' } },
        config,
      );
      expect(srcs(insecure)).toEqual(['https://plausible.io/js/script.js']);
      const script = analyticsScripts({ plausible: { domain: 'example.com', src: 'javascript:alert(1)' } }, config);
      expect(srcs(script)).toEqual(['https://plausible.io/js/script.js']);
    });
  });

  describe('fathom', () => {
    it('loads the provider script with the site id', () => {
      expect(analyticsScripts({ fathom: { siteId: 'ABCDEFGH' } }, manifest)).toBe(
        '<script defer data-site="ABCDEFGH" src="https://cdn.usefathom.com/script.js"></script>',
      );
    });

    it('leaves the tool out for a missing or malformed site id', () => {
      expect(analyticsScripts({ fathom: {} }, manifest)).toBe('');
      expect(analyticsScripts({ fathom: { siteId: 'abc"def' } }, manifest)).toBe('');
      expect(analyticsScripts({ fathom: { siteId: 42 } }, manifest)).toBe('');
    });

    it('applies the same source rule as plausible', () => {
      const custom = { fathom: { siteId: 'ABCDEFGH', src: 'https://cdn.example.com/fathom.js' } };
      expect(srcs(analyticsScripts(custom, manifest))).toEqual(['https://cdn.usefathom.com/script.js']);
      expect(srcs(analyticsScripts(custom, config))).toEqual(['https://cdn.example.com/fathom.js']);
    });
  });

  describe('posthog', () => {
    const apiKey = 'phc_0123456789abcdefghijABCDEFGHIJ';

    it('initialises with the US cloud host by default', () => {
      const html = analyticsScripts({ posthog: { apiKey } }, manifest);
      expect(srcs(html)).toEqual(['https://us-assets.i.posthog.com/static/array.js']);
      expect(html).toContain(`posthog.init("${apiKey}",{"api_host":"https://us.i.posthog.com"})`);
    });

    it('leaves the tool out for a key that does not start with phc_', () => {
      expect(analyticsScripts({ posthog: { apiKey: 'phx_0123456789abcdefghij' } }, manifest)).toBe('');
      expect(analyticsScripts({ posthog: { apiKey: 'phc_"+alert(1)+"aaaaaaaaaaaaaaa' } }, manifest)).toBe('');
    });

    it("accepts from a manifest only one of the provider's own hosts", () => {
      const eu = analyticsScripts({ posthog: { apiKey, host: 'https://eu.i.posthog.com' } }, manifest);
      expect(eu).toContain('"api_host":"https://eu.i.posthog.com"');
      expect(srcs(eu)).toEqual(['https://eu-assets.i.posthog.com/static/array.js']);
      const selfHosted = analyticsScripts({ posthog: { apiKey, host: 'https://ph.example.com' } }, manifest);
      expect(selfHosted).toContain('"api_host":"https://us.i.posthog.com"');
    });

    it('accepts any https host from configuration', () => {
      const html = analyticsScripts({ posthog: { apiKey, host: 'https://ph.example.com/' } }, config);
      expect(html).toContain('"api_host":"https://ph.example.com"');
      expect(srcs(html)).toEqual(['https://ph.example.com/static/array.js']);
      const insecure = analyticsScripts({ posthog: { apiKey, host: 'http://ph.example.com' } }, config);
      expect(insecure).toContain('"api_host":"https://us.i.posthog.com"');
    });
  });

  describe('custom', () => {
    it('loads an https script deferred by default', () => {
      expect(analyticsScripts({ custom: { src: 'https://cdn.example.com/a.js' } }, manifest)).toBe(
        '<script src="https://cdn.example.com/a.js" defer></script>',
      );
    });

    it('honours defer false and async true', () => {
      expect(
        analyticsScripts({ custom: { src: 'https://cdn.example.com/a.js', defer: false, async: true } }, manifest),
      ).toBe('<script src="https://cdn.example.com/a.js" async></script>');
    });

    it('keeps only data-* attributes and escapes their values', () => {
      const html = analyticsScripts(
        {
          custom: {
            src: 'https://cdn.example.com/a.js',
            attributes: { 'data-site': 'docs"><b>', onload: 'alert(1)', 'data-bad name': 'x', id: 'y', 'data-n': 3 },
          },
        },
        manifest,
      );
      expect(html).toBe(
        '<script src="https://cdn.example.com/a.js" defer data-site="docs&quot;&gt;&lt;b&gt;" data-n="3"></script>',
      );
    });

    it('leaves out a source that is not https', () => {
      expect(analyticsScripts({ custom: { src: 'http://cdn.example.com/a.js' } }, config)).toBe('');
      expect(analyticsScripts({ custom: { src: '/local.js' } }, config)).toBe('');
      expect(analyticsScripts({ custom: { src: 'https://user:pass@cdn.example.com/a.js' } }, config)).toBe('');
    });
  });

  it('renders every matching tool and skips the ones that do not match', () => {
    const html = analyticsScripts(
      {
        ga4: { measurementId: 'G-ABC123' },
        plausible: { domain: 'nope' },
        fathom: { siteId: 'ABCDEFGH' },
        custom: { src: 'https://cdn.example.com/a.js' },
      },
      manifest,
    );
    expect(srcs(html)).toEqual([
      'https://www.googletagmanager.com/gtag/js?id=G-ABC123',
      'https://cdn.usefathom.com/script.js',
      'https://cdn.example.com/a.js',
    ]);
  });
});

describe('analyticsForSet', () => {
  it('lets configuration win per tool over the manifest', () => {
    const html = analyticsForSet({
      source: 'repository',
      manifest: { ga4: { measurementId: 'G-MANIFEST' }, fathom: { siteId: 'ABCDEFGH' } },
      config: { ga4: { measurementId: 'G-CONFIG1' } },
    });
    expect(html).toContain('G-CONFIG1');
    expect(html).not.toContain('G-MANIFEST');
    expect(html).toContain('data-site="ABCDEFGH"');
  });

  it('applies the manifest source rule to manifest values and the configuration rule to configuration values', () => {
    const html = analyticsForSet({
      source: 'repository',
      manifest: { plausible: { domain: 'example.com', src: 'https://stats.example.com/s.js' } },
      config: { custom: { src: 'https://stats.example.com/c.js' } },
    });
    expect(srcs(html)).toEqual(['https://stats.example.com/c.js', 'https://plausible.io/js/script.js']);
  });

  it('ignores the manifest of a database set', () => {
    expect(analyticsForSet({ source: 'database', manifest: { ga4: { measurementId: 'G-ABC123' } } })).toBe('');
    expect(
      analyticsForSet({
        source: 'database',
        manifest: { ga4: { measurementId: 'G-ABC123' } },
        config: { fathom: { siteId: 'ABCDEFGH' } },
      }),
    ).toBe('<script defer data-site="ABCDEFGH" src="https://cdn.usefathom.com/script.js"></script>');
  });
});
