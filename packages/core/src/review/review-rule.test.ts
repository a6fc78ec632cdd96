import { describe, expect, it } from 'vitest';
import { canReviewChanges } from '../access/access.js';
import type { Viewer } from '../ports/docset.js';
import { reviewerIdentity, type SelfPublishQuestion, selfPublishRefusal, userIdentity } from './review-rule.js';

const web = (user: unknown) => ({ viewer: { user } as Viewer, channel: 'web' as const });
const local = (operator?: string) => ({
  viewer: { user: null, local: true, ...(operator ? { operator } : {}) } as Viewer,
  channel: 'local' as const,
});
const ask = (author: string | null, call: SelfPublishQuestion['call'], extra: Partial<SelfPublishQuestion> = {}) =>
  selfPublishRefusal({ draft: { id: '7', author }, decision: 'publish', call, selfPublish: false, ...extra });

describe('who a caller is', () => {
  it('names a user by their id (a number as text), else their e-mail, and nobody else', () => {
    expect(userIdentity({ id: 'ada', email: 'ada@example.com' })).toBe('ada');
    expect(userIdentity({ id: 42 })).toBe('42');
    expect(userIdentity({ email: ' grace@example.com ' })).toBe('grace@example.com');
    for (const user of [null, undefined, true, 'ada', { name: 'Ada' }, { id: '  ' }, { id: Number.NaN }, { id: {} }]) {
      expect(userIdentity(user)).toBeNull();
    }
  });

  it('takes the local operator for their account name, and never reads it from a web viewer', () => {
    expect(reviewerIdentity(local('ada'))).toBe('ada');
    expect(reviewerIdentity(local())).toBeNull();
    // `operator` on a viewer that is not the local one is nobody's name.
    expect(reviewerIdentity({ viewer: { user: null, operator: 'ada' }, channel: 'local' })).toBeNull();
    expect(reviewerIdentity({ viewer: { user: { id: 'grace' }, local: true, operator: 'ada' }, channel: 'web' })).toBe(
      'grace',
    );
  });
});

describe('the review rule (review.self_publish)', () => {
  it('refuses the author, on the web and locally, ignoring case and spaces', () => {
    expect(ask('ada', web({ id: 'ada' }))).toContain('it was written by "ada", which is you.');
    expect(ask('Ada@Example.com', web({ email: 'ada@example.com' }))).toContain('which is you');
    expect(ask('ada', local('ADA '))).toContain('which is you');
    expect(ask('42', web({ id: 42 }))).toContain('which is you');
  });

  it('names the rule, who may decide instead and the opt-in, for publishing and discarding alike', () => {
    const published = ask('ada', web({ id: 'ada' }))!;
    expect(published).toMatch(/^Draft 7 was not published: /);
    expect(published).toContain('The review rule (review.self_publish)');
    expect(published).toContain('Someone else must publish it');
    expect(published).toContain('reviewKit');
    expect(published).toContain('`kit drafts publish 7`');
    expect(published).toContain('review_self_publish: true');
    const discarded = ask('ada', web({ id: 'ada' }), { decision: 'discard' })!;
    expect(discarded).toMatch(/^Draft 7 was not discarded: /);
    expect(discarded).toContain('`kit drafts discard 7`');
  });

  it('lets anyone else decide', () => {
    expect(ask('ada', web({ id: 'grace' }))).toBeNull();
    expect(ask('ada', local('grace'))).toBeNull();
    // The label a caller without an identity leaves is nobody's: whoever is named may decide.
    expect(ask('agent:claude', web({ id: 'grace' }))).toBeNull();
  });

  it('refuses a draft that records no author, everywhere', () => {
    for (const call of [web({ id: 'grace' }), local('grace'), local()]) {
      expect(ask(null, call)).toContain('it records no author');
      expect(ask('  ', call)).toContain('it records no author');
    }
  });

  it('refuses a web caller it cannot name, who could be the author', () => {
    const refusal = ask('ada', web({ name: 'Someone' }));
    expect(refusal).toContain('Kit cannot tell who you are');
    expect(refusal).toContain('Return an `id` for every user and token from resolveUser');
  });

  it('lets a local operator without an account name decide a draft with an author', () => {
    expect(ask('ada', local())).toBeNull();
  });

  it('allows every decision where the set sets review_self_publish', () => {
    for (const [author, call] of [
      ['ada', web({ id: 'ada' })],
      [null, web({ id: 'ada' })],
      ['ada', web({ name: 'Someone' })],
      ['ada', local('ada')],
    ] as const) {
      expect(ask(author, call, { selfPublish: true })).toBeNull();
    }
  });
});

describe('the reviewKit gate', () => {
  it('is the only gate for review on the web: manageKit never stands in for it', async () => {
    const member = { id: 'ada' };
    expect(await canReviewChanges(member, {}, { set: 'docs' })).toBe(false);
    expect(await canReviewChanges(member, { manageKit: () => true }, { set: 'docs' })).toBe(false);
    expect(await canReviewChanges(member, { reviewKit: (user) => user === member }, { set: 'docs' })).toBe(true);
    expect(
      await canReviewChanges(member, { reviewKit: async () => false, manageKit: () => true }, { set: 'docs' }),
    ).toBe(false);
  });
});
