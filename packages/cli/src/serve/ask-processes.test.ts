import { randomUUID } from 'node:crypto';
import { type ScriptedProvider, startScriptedProvider } from '@kit/ai/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KitProcess, startKit, tempProject, writeFiles } from '../__fixtures__/kit-binary.js';

const redisUrl = process.env.KIT_TEST_REDIS_URL;

function ask(site: string, question: string): Promise<Response> {
  return fetch(`${site}/_kit/ask`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
  });
}

describe.skipIf(!redisUrl)('Ask AI in two kit serve processes sharing Redis', () => {
  const limit = 4;
  let project: Awaited<ReturnType<typeof tempProject>>;
  let provider: ScriptedProvider;
  const servers: KitProcess[] = [];
  const sites: string[] = [];

  beforeAll(async () => {
    provider = await startScriptedProvider(
      'openai',
      Array.from({ length: limit }, (_, i) => ({ text: [`Scripted reply ${i + 1}.`] })),
    );
    project = await tempProject('kit-serve-ask-');
    await writeFiles(project.dir, {
      'kit.config.mjs': `export default { ai: { ask: { enabled: true, provider: 'openai', rate_limit: '${limit},1' } }, sets: { docs: { source: { path: 'docs' } } } };\n`,
      'docs/kit.json': '{ "name": "Docs" }\n',
      'docs/index.md': '# Home\n\nQueues retry jobs.\n',
    });
    const env = {
      KIT_REDIS_URL: redisUrl!,
      KIT_REDIS_PREFIX: `kit:test:serve-ask:${randomUUID()}:`,
      OPENAI_API_KEY: 'sk-process-test',
      OPENAI_BASE_URL: provider.url,
    };
    for (let i = 0; i < 2; i++) {
      servers.push(startKit(['serve', '--port', '0', '--no-watch'], { cwd: project.dir, env, fromSource: true }));
    }
    for (const server of servers) {
      const printed = await server.waitFor(/Press Ctrl\+C to stop\./);
      sites.push(/site\s+(http:\/\/\S+?)\/?\s/.exec(printed)![1]!);
    }
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
    await project?.cleanup();
    await provider?.close();
  });

  it('refuses a reader with 429 and Retry-After once ai.ask.rate_limit is used up across both', async () => {
    const answers: string[] = [];
    for (let i = 0; i < limit; i++) {
      const response = await ask(sites[i % 2]!, `question ${i}`);
      expect(response.status).toBe(200);
      answers.push(await response.text());
    }
    expect(answers.join('')).toContain('Scripted reply 4.');
    for (const site of sites) {
      const refused = await ask(site, 'one more');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({ error: 'rate_limited' });
    }
    // The refused questions never reached the provider.
    expect(provider.requests).toHaveLength(limit);
  });
});
