import { describe, expect, it } from 'vitest';
import { contentHash } from '../hash/content-hash.js';
import {
  applied,
  authorOutcomes,
  checkBasedOn,
  outcomeForChange,
  rejected,
  summarizeValidation,
  unchanged,
} from './outcomes.js';

const keys = ['outcome', 'message', 'revision', 'validation', 'docs_migration'];

describe('author tool outcomes', () => {
  it('lists the five outcomes of the specification', () => {
    expect(authorOutcomes).toEqual(['published', 'drafted', 'conflicted', 'unchanged', 'rejected']);
  });

  it('drafts an agent change outside a pull request when review is required', () => {
    expect(outcomeForChange({ review: 'required', outsidePullRequest: true })).toBe('drafted');
    expect(outcomeForChange({ review: 'required', outsidePullRequest: false })).toBe('published');
    expect(outcomeForChange({ review: 'auto', outsidePullRequest: true })).toBe('published');
  });

  it('lets a change without based_on or with the current hash go ahead', () => {
    const current = contentHash('# Routing\n');
    expect(checkBasedOn(undefined, current, 'page "routing"')).toBeNull();
    expect(checkBasedOn(current, current, 'page "routing"')).toBeNull();
  });

  it('refuses a write whose based_on is stale, returning the current hash', () => {
    const old = contentHash('# Routing\n');
    const current = contentHash('# Routing v2\n');
    const result = checkBasedOn(old, current, 'page "routing"');
    expect(result?.outcome).toBe('conflicted');
    expect(result?.revision).toEqual({ content_hash: current });
    expect(result?.message).toContain('Read it again');
    expect(Object.keys(result!)).toEqual(keys);
  });

  it('refuses a based_on for content that was removed since', () => {
    const result = checkBasedOn(contentHash('x'), null, 'page "gone"');
    expect(result).toMatchObject({ outcome: 'conflicted', revision: null });
    expect(result?.message).toContain('no longer exists');
  });

  it('gives every result the same five fields', () => {
    const hash = contentHash('a');
    for (const result of [
      rejected('The path "b" is taken.'),
      unchanged('Nothing to change.', hash),
      applied({ outcome: 'published', message: 'Wrote routing.', revision: { content_hash: hash } }),
    ]) {
      expect(Object.keys(result)).toEqual(keys);
    }
  });

  it('counts validation errors and warnings', () => {
    const summary = summarizeValidation([
      { rule: 'links.broken', severity: 'error', message: 'x' },
      { rule: 'markdown.size', severity: 'warning', message: 'y' },
      { rule: 'links.broken', severity: 'error', message: 'z' },
    ]);
    expect(summary).toMatchObject({ errors: 2, warnings: 1 });
    expect(summary.issues).toHaveLength(3);
  });
});
