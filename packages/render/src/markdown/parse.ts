import type { Root } from 'mdast';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { frontmatter } from 'micromark-extension-frontmatter';
import { gfm } from 'micromark-extension-gfm';

// Built once: constructing the extension objects is measurable when a whole corpus is rendered.
const parseOptions = {
  extensions: [gfm(), frontmatter(['yaml'])],
  mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
};

/** Parses Markdown (GFM + YAML frontmatter) to mdast once; every output is derived from this tree. */
export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, parseOptions);
}
