import { describe, expect, it } from 'vitest';
import { termOf } from './analyze.js';
import { relatedTerms } from './related.js';

describe('relatedTerms', () => {
  it('adds the docs wording for an everyday phrase, as index terms', () => {
    expect(relatedTerms('throttle my API')).toEqual([termOf('rate'), termOf('limit')]);
  });

  it('matches a phrase only when its words are adjacent, stop words included', () => {
    expect(relatedTerms('how do I log in with GitHub')).toContain(termOf('authentication'));
    expect(relatedTerms('in the log file')).toEqual([]);
  });

  it('leaves out terms the query already has', () => {
    expect(relatedTerms('rate limit endpoints')).toEqual([termOf('throttle'), termOf('route')]);
  });

  it('reads excessive traffic as rate limiting and testing without side effects as fakes', () => {
    expect(relatedTerms('stop users from hammering my endpoints')).toEqual(
      expect.arrayContaining([termOf('rate'), termOf('limit')]),
    );
    expect(relatedTerms('test that an email was sent without sending it')).toEqual([termOf('fake'), termOf('mock')]);
  });

  it('finds nothing for a query in the docs own words', () => {
    expect(relatedTerms('eager load relationships')).toEqual([]);
  });
});
