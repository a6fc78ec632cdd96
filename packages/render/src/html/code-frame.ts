import type { Element, ElementContent } from 'hast';

/** Languages whose name tells a reader nothing about the block: written without a label. */
const UNLABELLED = new Set(['text', 'txt', 'plain', 'plaintext', 'ansi']);

/** The language label a code block shows, or null for none. */
export function codeLanguageLabel(language: string | null | undefined): string | null {
  const name = language?.trim();
  return name && !UNLABELLED.has(name.toLowerCase()) ? name : null;
}

/**
 * Text escaped as hast-util-to-html escapes it (`<` and `&` as hexadecimal references), so the
 * frame written here is byte for byte the one {@link codeFrameHast} gives once serialized.
 */
function escapeMarkup(value: string): string {
  return value.replace(/[<&]/g, (character) => `&#x${character.charCodeAt(0).toString(16).toUpperCase()};`);
}

/**
 * A code block's `<pre>` in its frame: `<div class="kit-code">` (where the reader puts the copy
 * button) holding the language label, then the block. The label is ordinary text before the code,
 * so a screen reader says it once, and it is outside `<code>`, so copying the code leaves it out.
 * With a file title the frame sits in a `<figure>` whose `<figcaption>` is the title: the figure
 * is named by the file alone. The title is isolated left-to-right (`dir="ltr"`): a path reads the
 * same on a right-to-left page.
 *
 * @example
 * codeFrameHtml('<pre>…</pre>', 'php', 'routes/web.php');
 * // '<figure class="kit-code-figure"><figcaption class="kit-code-title"><span dir="ltr">routes/web.php</span></figcaption><div class="kit-code"><span class="kit-code-lang">php</span><pre>…</pre></div></figure>'
 */
export function codeFrameHtml(pre: string, language: string | null | undefined, title?: string): string {
  const label = codeLanguageLabel(language);
  const frame = `<div class="kit-code">${label ? `<span class="kit-code-lang">${escapeMarkup(label)}</span>` : ''}${pre}</div>`;
  if (!title) return frame;
  return `<figure class="kit-code-figure"><figcaption class="kit-code-title"><span dir="ltr">${escapeMarkup(title)}</span></figcaption>${frame}</figure>`;
}

/** {@link codeFrameHtml} as a hast element, for pages rendered through hast (sanitized ones). */
export function codeFrameHast(pre: ElementContent, language: string | null | undefined, title?: string): Element {
  const label = codeLanguageLabel(language);
  const frame: Element = {
    type: 'element',
    tagName: 'div',
    properties: { className: ['kit-code'] },
    children: [
      ...(label
        ? [
            {
              type: 'element',
              tagName: 'span',
              properties: { className: ['kit-code-lang'] },
              children: [{ type: 'text', value: label }],
            } satisfies Element,
          ]
        : []),
      pre,
    ],
  };
  if (!title) return frame;
  return {
    type: 'element',
    tagName: 'figure',
    properties: { className: ['kit-code-figure'] },
    children: [
      {
        type: 'element',
        tagName: 'figcaption',
        properties: { className: ['kit-code-title'] },
        children: [
          { type: 'element', tagName: 'span', properties: { dir: 'ltr' }, children: [{ type: 'text', value: title }] },
        ],
      },
      frame,
    ],
  };
}
