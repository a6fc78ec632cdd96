import { describe, expect, it } from 'vitest';
import { llmsTxtDirectiveMarkdown, withLlmsTxtDirective } from './directive.js';

const URL = 'https://example.com/docs/llms.txt';

describe('withLlmsTxtDirective', () => {
  it('puts the directive under the page title', () => {
    expect(withLlmsTxtDirective('# Queues\n\nJobs run in the background.\n', URL)).toBe(
      `# Queues\n\n${llmsTxtDirectiveMarkdown(URL)}\n\nJobs run in the background.\n`,
    );
  });

  it('puts it first on a page without a leading title, and keeps the rest byte for byte', () => {
    const body = 'Intro text.\n\n## Setup\n\ncontent_hash: sha256:abc\n';
    const out = withLlmsTxtDirective(body, URL);
    expect(out).toBe(
      `> For AI agents: the index of these docs is at [llms.txt](${URL}); every page is also served as Markdown at its URL with .md added.\n\n${body}`,
    );
  });
});
