import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { highlightCode, highlightedHtml } from '../highlight/highlight.js';
import { enhanceArticleHtml } from './article.js';
import { colorModeScript, safeCssValue, themeCss } from './theme.js';

describe('themeCss', () => {
  it('places the Arabic font right after the sans font', () => {
    const css = themeCss({ radius: 'sharp', fonts: { sans: 'Inter', arabic: 'Noto Kufi Arabic' }, mode: 'system' });
    expect(css).toMatch(/--kit-font-sans:Inter, "Noto Kufi Arabic", ui-sans-serif/);
  });

  it('keeps the UI font ahead of the Arabic stack when no sans font is set', () => {
    const css = themeCss({ radius: 'sharp', fonts: {}, mode: 'system' });
    expect(css).toMatch(
      /--kit-font-sans:ui-sans-serif, system-ui, -apple-system, "Kit Noto Sans Arabic", "Noto Sans Arabic", [^;]*Tahoma/,
    );
    expect(themeCss({ radius: 'sharp', fonts: { arabic: 'Noto Kufi Arabic' }, mode: 'system' })).toMatch(
      /--kit-font-sans:ui-sans-serif, system-ui, -apple-system, "Noto Kufi Arabic", "Segoe UI", Roboto/,
    );
  });

  it('puts the bundled Arabic font right after the sans font when no Arabic font is named', () => {
    expect(themeCss({ radius: 'sharp', fonts: { sans: '"IBM Plex Sans"' }, mode: 'system' })).toMatch(
      /--kit-font-sans:"IBM Plex Sans", "Kit Noto Sans Arabic", "Noto Sans Arabic"/,
    );
  });

  it("sets code in the UI font's monospace style unless fonts.mono names one", () => {
    expect(themeCss({ radius: 'sharp', fonts: {}, mode: 'system' })).toMatch(
      /--kit-font-mono:ui-monospace, [^;]*monospace;/,
    );
    expect(themeCss({ radius: 'sharp', fonts: { mono: 'JetBrains Mono' }, mode: 'system' })).toMatch(
      /--kit-font-mono:"JetBrains Mono", ui-monospace, /,
    );
  });

  it('maps radius and accent to custom properties', () => {
    const soft = themeCss({ accent: 'oklch(60% 0.2 250)', radius: 'soft', fonts: {}, mode: 'light' });
    expect(soft).toContain('--kit-radius:10px');
    expect(soft).toContain('--kit-accent-user:oklch(60% 0.2 250)');
    expect(themeCss({ radius: 'sharp', fonts: {}, mode: 'light' })).toContain('--kit-radius:3px');
  });

  it('refuses theme values that could escape the style block', () => {
    for (const bad of [
      'red;}body{display:none',
      'red</style><script>',
      'url(https://x.test/a.png)',
      'red/*',
      '\\72 ed',
    ]) {
      expect(safeCssValue(bad)).toBeNull();
      expect(themeCss({ accent: bad, radius: 'sharp', fonts: { sans: bad }, mode: 'light' })).not.toContain(bad);
    }
  });
});

function runModeScript(stored: string | null, prefersDark: boolean, fallback: 'system' | 'light' | 'dark') {
  const attributes: Record<string, string> = {};
  const classes = new Set<string>();
  runInNewContext(colorModeScript(fallback), {
    document: {
      documentElement: {
        setAttribute: (name: string, value: string) => {
          attributes[name] = value;
        },
        classList: { add: (name: string) => classes.add(name) },
      },
    },
    localStorage: { getItem: () => stored },
    matchMedia: () => ({ matches: prefersDark }),
  });
  return { attributes, classes };
}

describe('colorModeScript', () => {
  it("applies the reader's remembered choice before anything paints", () => {
    expect(runModeScript('dark', false, 'light').attributes).toEqual({
      'data-mode-choice': 'dark',
      'data-mode': 'dark',
    });
    expect(runModeScript('light', true, 'dark').attributes['data-mode']).toBe('light');
  });

  it('follows the system preference for the system choice', () => {
    expect(runModeScript('system', true, 'light').attributes).toEqual({
      'data-mode-choice': 'system',
      'data-mode': 'dark',
    });
    expect(runModeScript(null, false, 'system').attributes['data-mode']).toBe('light');
  });

  it('falls back to the theme mode when nothing valid is stored', () => {
    expect(runModeScript('purple', true, 'light').attributes['data-mode']).toBe('light');
    expect(runModeScript(null, false, 'dark').attributes['data-mode']).toBe('dark');
  });

  it('marks the document as scripted', () => {
    expect(runModeScript(null, false, 'system').classes.has('js')).toBe(true);
  });
});

describe('enhanceArticleHtml', () => {
  it('frames tables and code blocks', () => {
    expect(enhanceArticleHtml('<table><tr><td>a</td></tr></table>')).toBe(
      '<div class="kit-table-wrap" tabindex="0"><table><tr><td>a</td></tr></table></div>',
    );
    expect(enhanceArticleHtml('<pre class="shiki" tabindex="0"><code>&lt;table&gt;</code></pre>')).toBe(
      '<div class="kit-code"><pre class="shiki" tabindex="0"><code>&lt;table&gt;</code></pre></div>',
    );
  });

  it('makes plain code blocks keyboard-scrollable like highlighted ones', () => {
    expect(enhanceArticleHtml('<pre><code>x</code></pre><pre class="language-zz"><code>y</code></pre>')).toBe(
      '<div class="kit-code"><pre tabindex="0"><code>x</code></pre></div>' +
        '<div class="kit-code"><pre class="language-zz" tabindex="0"><code>y</code></pre></div>',
    );
  });

  it('keeps the frame, language label and title the renderer gave a block, adding only the tab stop', () => {
    const framed =
      '<figure class="kit-code-figure"><figcaption class="kit-code-title"><span dir="ltr">a.php</span></figcaption>' +
      '<div class="kit-code"><span class="kit-code-lang">php</span><pre><code>x</code></pre></div></figure>';
    expect(enhanceArticleHtml(framed)).toBe(framed.replace('<pre>', '<pre tabindex="0">'));
    expect(enhanceArticleHtml('<div class="kit-code"><pre><code>y</code></pre></div>')).toBe(
      '<div class="kit-code"><pre tabindex="0"><code>y</code></pre></div>',
    );
  });

  it('names each table region by its caption, else the heading before it, numbering repeats', () => {
    const html =
      '<h2 id="a">Drivers &amp; stores</h2><table><tr><td>1</td></tr></table><table><tr><td>2</td></tr></table>' +
      '<h3 id="b">Limits</h3><table><caption>Rate <em>limits</em></caption><tr><td>3</td></tr></table>';
    const regions = [...enhanceArticleHtml(html).matchAll(/<div class="kit-table-wrap"([^>]*)>/g)].map((m) => m[1]);
    expect(regions).toEqual([
      ' role="region" aria-label="Drivers &amp; stores" tabindex="0"',
      ' role="region" aria-label="Drivers &amp; stores (2)" tabindex="0"',
      ' role="region" aria-label="Rate limits" tabindex="0"',
    ]);
  });

  it('adds an anchor link to headings with an id, labelled with the heading text', () => {
    expect(enhanceArticleHtml('<h3 id="a-b">A <code>&lt;b&gt;</code></h3>')).toBe(
      '<h3 id="a-b">A <code>&lt;b&gt;</code><a class="kit-anchor" href="#a-b" aria-label="Link to “A &lt;b&gt;”"></a></h3>',
    );
  });

  it('escapes the label once when the heading holds numeric character references', () => {
    expect(enhanceArticleHtml('<h2 id="c">Conditional Classes &#x26; Styles &#x3C;x> &#38; &#39;q&#39;</h2>')).toBe(
      '<h2 id="c">Conditional Classes &#x26; Styles &#x3C;x> &#38; &#39;q&#39;<a class="kit-anchor" href="#c" aria-label="Link to “Conditional Classes &amp; Styles &lt;x&gt; &amp; &#39;q&#39;”"></a></h2>',
    );
  });

  it('leaves headings without an id, h1 and headings that already link to themselves alone', () => {
    const html = '<h1 id="t">T</h1><h2>No id</h2><h2 id="x"><a href="#x">X</a></h2>';
    expect(enhanceArticleHtml(html)).toBe(html);
  });
});

/** WCAG 2 contrast ratio of two #rrggbb colors. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** `color` mixed into `base` at `share` (sRGB, close enough to oklab for these light tints). */
function mix(color: string, base: string, share: number): string {
  return `#${[1, 3, 5]
    .map((i) => {
      const value =
        Number.parseInt(color.slice(i, i + 2), 16) * share + Number.parseInt(base.slice(i, i + 2), 16) * (1 - share);
      return Math.round(value).toString(16).padStart(2, '0');
    })
    .join('')}`;
}

describe('light-mode contrast', () => {
  const css = readFileSync(new URL('../../client/styles.css', import.meta.url), 'utf8');
  const light = css.slice(css.indexOf(':root'), css.indexOf('}', css.indexOf(':root')));
  const token = (name: string) => new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(light)![1]!;

  it('keeps the warning badge at 4.5:1 on its tint, also over a muted row', () => {
    const warning = token('kit-warning');
    expect(contrast(warning, mix(warning, token('kit-bg'), 0.14))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(warning, mix(warning, token('kit-bg-muted'), 0.14))).toBeGreaterThanOrEqual(4.5);
  });

  it('gives every light code token 4.5:1 on the code background', async () => {
    const pre = await highlightCode('function area(width = 10) { return width * 2; }', 'js');
    const colors = [...highlightedHtml(pre!).matchAll(/(?:^|[;"])color:(#[0-9a-f]{6})/gi)].map((m) => m[1]!);
    expect(colors.length).toBeGreaterThan(2);
    expect(colors.map((color) => color.toLowerCase())).toContain('#a84c00');
    expect(colors.filter((color) => contrast(color, token('kit-code-bg')) < 4.5)).toEqual([]);
  });
});
