import { readdirSync, readFileSync } from 'node:fs';
import type { SearchSection } from '@kit/core';

/** The Laravel 12.x pages of the test corpus cut at their `##` headings: real text, several hundred sections. */
export function laravelSections(): SearchSection[] {
  const corpus = `${process.env.KIT_SHARED_DIR}/corpora/laravel/12.x`;
  return readdirSync(corpus)
    .filter((name) => name.endsWith('.md'))
    .flatMap((file) => {
      const path = file.replace(/\.md$/, '');
      const parts = readFileSync(`${corpus}/${file}`, 'utf8').split(/^## /m);
      const title = /^# (.+)$/m.exec(parts[0] ?? '')?.[1] ?? path;
      return parts.map((text, index) => {
        const heading = index === 0 ? '' : (text.split('\n')[0] ?? '');
        return {
          id: `${path}#${index}`,
          path,
          title,
          heading,
          headingPath: heading ? [heading] : [],
          ...(index > 0 ? { anchor: `s${index}` } : {}),
          text,
          url: `/docs/12.x/${path}${index > 0 ? `#s${index}` : ''}`,
          markdownUrl: `/docs/12.x/${path}.md`,
        };
      });
    });
}
