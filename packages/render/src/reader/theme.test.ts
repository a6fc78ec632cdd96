import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { enhanceArticleHtml } from './article.js';
import { colorModeScript, safeCssValue, themeCss } from './theme.js';

describe('themeCss', () => {
  it('places the Arabic font right after the sans font', () => {
    const css = themeCss({ radius: 'sharp', fonts: { sans: 'Inter', arabic: 'Noto Kufi Arabic' }, mode: 'system' });
    expect(css).toMatch(/--kit-font-sans:Inter, "Noto Kufi Arabic", ui-sans-serif/);
  });

  it('uses the bundled Arabic stack when no Arabic font is named', () => {
    expect(themeCss({ radius: 'sharp', fonts: { sans: '"IBM Plex Sans"' }, mode: 'system' })).toMatch(
      /--kit-font-sans:"IBM Plex Sans", "Noto Sans Arabic"/,
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
      '<div class="kit-table-wrap" role="region" aria-label="Table" tabindex="0"><table><tr><td>a</td></tr></table></div>',
    );
    expect(enhanceArticleHtml('<pre class="shiki"><code>&lt;table&gt;</code></pre>')).toBe(
      '<div class="kit-code"><pre class="shiki"><code>&lt;table&gt;</code></pre></div>',
    );
  });

  it('adds an anchor link to headings with an id, labelled with the heading text', () => {
    expect(enhanceArticleHtml('<h3 id="a-b">A <code>&lt;b&gt;</code></h3>')).toBe(
      '<h3 id="a-b">A <code>&lt;b&gt;</code><a class="kit-anchor" href="#a-b" aria-label="Link to “A &lt;b&gt;”">#</a></h3>',
    );
  });

  it('escapes the label once when the heading holds numeric character references', () => {
    expect(enhanceArticleHtml('<h2 id="c">Conditional Classes &#x26; Styles &#x3C;x> &#38; &#39;q&#39;</h2>')).toBe(
      '<h2 id="c">Conditional Classes &#x26; Styles &#x3C;x> &#38; &#39;q&#39;<a class="kit-anchor" href="#c" aria-label="Link to “Conditional Classes &amp; Styles &lt;x&gt; &amp; &#39;q&#39;”">#</a></h2>',
    );
  });

  it('leaves headings without an id, h1 and headings that already link to themselves alone', () => {
    const html = '<h1 id="t">T</h1><h2>No id</h2><h2 id="x"><a href="#x">X</a></h2>';
    expect(enhanceArticleHtml(html)).toBe(html);
  });
});
