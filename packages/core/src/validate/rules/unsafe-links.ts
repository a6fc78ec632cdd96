import type { SourceProblem } from '../../model/types.js';
import type { RawHtml } from '../run.js';

/**
 * `links.unsafe` for a page link, saying what readers get: a Markdown link with such a scheme is
 * always left out, but an `<a href>` tag is served as written where raw HTML is allowed.
 */
export function unsafeLink(href: string, scheme: string, rawHtml: RawHtml | null): SourceProblem {
  const protocolRelative = scheme === '//';
  const head = protocolRelative
    ? `The link ${JSON.stringify(href)} is protocol-relative (//host): it leaves the site for that host, which pages may not link to`
    : `The link ${JSON.stringify(href)} uses the ${scheme}: scheme, which pages may not link to`;
  const live = protocolRelative ? 'protocol-relative' : `${scheme}:`;
  const retarget = 'an https:// URL, a mailto: address or a page path';
  if (rawHtml === 'allow') {
    return {
      rule: 'links.unsafe',
      severity: 'error',
      message: `${head}. It is written in an <a> tag and html_input is 'allow', so the page serves it as written: readers get a live ${live} link.`,
      fix: `Fix it now: point the tag at ${retarget}, or remove the tag.`,
    };
  }
  if (rawHtml === 'escape') {
    return {
      rule: 'links.unsafe',
      severity: 'error',
      message: `${head}. It is written in an <a> tag and html_input is 'escape', so the page shows the tag as text and links nowhere.`,
      fix: `Point the tag at ${retarget}, or remove it: with html_input 'allow' it would be served as a live link.`,
    };
  }
  if (rawHtml === 'database') {
    return {
      rule: 'links.unsafe',
      severity: 'error',
      message: `${head}. It is written in an <a> tag, which a database set escapes, so the page shows the tag as text and links nowhere.`,
      fix: `Point the tag at ${retarget}, or remove it.`,
    };
  }
  return {
    rule: 'links.unsafe',
    severity: 'error',
    message: `${head}; it is left out of the page.`,
    fix: `Link to ${retarget}.`,
  };
}
