/**
 * A generated set of a few hundred pages for the agent-file equivalence tests: two versions, two
 * locales, a tabbed navigation with groups of very different sizes (one larger than a whole file
 * at the test limits), labels that slug alike or not at all (Arabic), pages without a title line,
 * pages larger than a file, a private page and pages the navigation leaves out. The same arguments
 * always give the same files.
 */
import { seededRandom } from '@kit/search/testing';

const random = seededRandom;

const WORDS = ['queue', 'worker', 'retry', 'backoff', 'job', 'batch', 'schedule', 'timeout', 'café', 'naïve', 'طابور'];

function paragraph(next: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
}

/** One page's Markdown: some open with a title line, some do not; a few are larger than a file. */
function pageText(next: () => number, title: string, index: number): string {
  const front = `---\ntitle: ${title}\n${index % 5 === 0 ? '' : `description: About ${title.toLowerCase()}.\n`}---\n`;
  const heading = index % 7 === 3 ? '' : `# ${title}\n\n`;
  const size = index % 41 === 7 ? 120 : 2 + Math.floor(next() * 10);
  const sections = Array.from(
    { length: size },
    (_, n) => `## Part ${n + 1}\n\n${paragraph(next, 20 + Math.floor(next() * 60))}\n\n\`\`\`js\nrun(${n});\n\`\`\`\n`,
  );
  return `${front}${heading}${sections.join('\n')}`;
}

/** Group labels: alike ones (two `Guides`), one with no Latin letters, one holding many pages. */
const GROUPS: Array<{ tab: string; label: string; pages: number }> = [
  { tab: 'Learn', label: 'Getting Started', pages: 6 },
  { tab: 'Learn', label: 'Guides', pages: 40 },
  { tab: 'Learn', label: 'The Basics', pages: 25 },
  { tab: 'Reference', label: 'Guides', pages: 12 },
  { tab: 'Reference', label: 'البداية', pages: 9 },
  { tab: 'Reference', label: 'API', pages: 120 },
  { tab: 'Reference', label: 'Tiny', pages: 1 },
];

/**
 * The files of the set under `folder/`: versions `2.x` (default) and `1.x`, locales `en` and `fr`
 * (`fr` translating every third page of `2.x`).
 */
export function generatedSetFiles(folder: string): Record<string, string> {
  const next = random(34);
  const files: Record<string, string> = {
    [`${folder}/kit.json`]: JSON.stringify({
      name: 'Generated Docs',
      description: 'A generated set large enough to split into many files.',
      versions: ['2.x', { id: '1.x', status: 'deprecated' }],
      locales: ['en', 'fr'],
      agents: { llmsTxt: { instructions: 'Read the guides first.' } },
    }),
  };
  for (const version of ['2.x', '1.x']) {
    const tabs = new Map<string, Array<{ label: string; pages: string[] }>>();
    let index = 0;
    for (const group of GROUPS) {
      const count = version === '2.x' ? group.pages : Math.ceil(group.pages / 3);
      const pages: string[] = [];
      for (let n = 0; n < count; n++, index++) {
        const path = `${group.tab.toLowerCase()}/g${GROUPS.indexOf(group)}/page-${n + 1}`;
        pages.push(path);
        const title = `${group.label} ${n + 1}`;
        files[`${folder}/${version}/${path}.md`] = pageText(next, title, index);
        if (version === '2.x' && index % 3 === 0) files[`${folder}/${version}/fr/${path}.md`] = pageText(next, title, index);
      }
      const list = tabs.get(group.tab) ?? [];
      list.push({ label: group.label, pages });
      tabs.set(group.tab, list);
    }
    for (let n = 1; n <= 8; n++) files[`${folder}/${version}/extra/unlisted-${n}.md`] = pageText(next, `Unlisted ${n}`, n);
    files[`${folder}/${version}/extra/secret.md`] = '---\ntitle: Secret\nvisibility: private\n---\n# Secret\n\nHidden.\n';
    files[`${folder}/${version}/navigation.json`] = JSON.stringify({
      tabs: [...tabs].map(([label, groups]) => ({ label, groups })),
    });
  }
  return files;
}
