import { loadKit } from '@kit/node';
import { describe, expect, it } from 'vitest';
import { runKitHere } from '../__fixtures__/in-process.js';
import { tempProjects } from '../__fixtures__/kit-binary.js';
import { validateKit } from './validate.js';

const project = tempProjects('kit-validate-ask-');

const files = (ask: Record<string, unknown>) => ({
  'kit.config.json': JSON.stringify({ ai: { ask }, sets: { docs: { source: { path: 'docs' } } } }),
  'docs/kit.json': '{ "name": "Docs", "description": "Docs." }',
  'docs/index.md': '---\ntitle: Home\n---\n\n# Home\n',
});

describe('kit validate and Ask AI', () => {
  it('warns that ai.ask has no effect without the optional package, naming the install command', async () => {
    const dir = await project(files({ enabled: true }));
    const kit = await loadKit({ cwd: dir, env: {} });
    try {
      const report = await validateKit(kit, {
        configWarnings: true,
        loadAsk: () =>
          Promise.reject(Object.assign(new Error("Cannot find package '@kit/ai'"), { code: 'ERR_MODULE_NOT_FOUND' })),
      });
      expect(report.issues.filter((issue) => issue.rule === 'ai.ask.setup')).toEqual([
        {
          rule: 'ai.ask.setup',
          severity: 'warning',
          file: 'kit.config.json',
          message:
            'Ask AI is on for the set "docs" (ai.ask.enabled), but the optional package @kit/ai is not installed, so ai.ask has no effect.',
          fix: 'Install it with its default provider: npm install @kit/ai ai @ai-sdk/openai. Or turn ai.ask.enabled off.',
        },
      ]);
      expect(report.ok).toBe(true);
    } finally {
      await kit.close();
    }
  });

  it('says nothing about Ask AI when it is off, and names a provider setting that cannot work', async () => {
    const off = await runKitHere(['validate', '--json', '--jobs', '1'], {
      cwd: await project(files({ enabled: false })),
    });
    expect(JSON.parse(off.stdout).issues.filter((issue: { rule: string }) => issue.rule === 'ai.ask.setup')).toEqual(
      [],
    );
    const local = await runKitHere(['validate', '--json', '--jobs', '1'], {
      cwd: await project(files({ enabled: true, provider: 'openai-compatible' })),
    });
    const issues = JSON.parse(local.stdout).issues.filter((issue: { rule: string }) => issue.rule === 'ai.ask.setup');
    expect(issues.map((issue: { message: string }) => issue.message)).toEqual([
      'Ask AI on the set "docs" cannot answer as configured: openai-compatible: no model is configured. Set ai.ask.model (or KIT_AI_MODEL), or name the model in a provider map.',
    ]);
    const unknown = await runKitHere(['validate', '--json', '--jobs', '1'], {
      cwd: await project(files({ enabled: true, provider: 'openia' })),
    });
    expect(
      JSON.parse(unknown.stdout).issues.find((issue: { rule: string }) => issue.rule === 'ai.ask.setup').message,
    ).toContain(
      'ai.ask.provider names "openia", which Ask AI does not know. Use one of: openai, anthropic, openai-compatible.',
    );
  });
});
