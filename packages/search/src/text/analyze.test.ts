import lunr from 'lunr';
import { describe, expect, it } from 'vitest';
import { analyzeQuery, MAX_QUERY_TERMS, termOf, tokenize } from './analyze.js';
import { porterStem } from './porter-stemmer.js';

describe('porterStem', () => {
  it('stems every word exactly as lunr does', () => {
    const words =
      'relationships routing routes validation generalization hopeful happiness queued queues caching authorization sensational eagerly hashing agreed plastered motoring conditional controllers'.split(
        ' ',
      );
    for (const word of words) expect(porterStem(word)).toBe(lunr.stemmer(new lunr.Token(word, {})).toString());
  });
});

describe('tokenize', () => {
  it('drops stop words, stems Latin words and keeps offsets into the text', () => {
    const text = 'How do I retry the failed Jobs?';
    const tokens = tokenize(text);
    expect(tokens.map((token) => token.term)).toEqual(['retri', 'fail', 'job']);
    expect(tokens.map((token) => text.slice(token.start, token.end))).toEqual(['retry', 'failed', 'Jobs']);
  });

  it('indexes camelCase identifiers whole and by part', () => {
    expect(tokenize('hasMany').map((token) => token.surface)).toEqual(['hasmany', 'many']);
  });

  it('keeps Arabic words whole and drops their diacritics', () => {
    expect(tokenize('التَّوجيه').map((token) => token.term)).toEqual(['التوجيه']);
  });

  it('makes queue and queued the same term', () => {
    expect(termOf('queue')).toBe(termOf('queued'));
  });
});

describe('analyzeQuery', () => {
  it('treats query syntax characters of other engines as punctuation', () => {
    expect(analyzeQuery('title:foo^2 +-~*:').map((word) => word.surface)).toEqual(['title', 'foo']);
  });

  it('keeps stop words when a query has nothing else', () => {
    expect(analyzeQuery('how do I').map((word) => word.surface)).toEqual(['how', 'do', 'i']);
  });

  it('marks only the last word of an unfinished query as partial', () => {
    expect(analyzeQuery('queue retr').map((word) => word.partial)).toEqual([false, true]);
    expect(analyzeQuery('queue retr ').map((word) => word.partial)).toEqual([false, false]);
  });

  it('bounds a 10 KB query to a fixed number of distinct words', () => {
    const words = Array.from({ length: 2000 }, (_, i) => `word${i.toString(36)}x`).join(' ');
    expect(analyzeQuery(words).length).toBe(MAX_QUERY_TERMS);
  });

  it('keeps the parts of a camelCase word as alternatives of that word, not words of their own', () => {
    expect(analyzeQuery('GitHub login').map((word) => [word.term, word.parts])).toEqual([
      ['github', ['git', 'hub']],
      ['login', []],
    ]);
  });

  it('finds nothing to search in an empty query', () => {
    expect(analyzeQuery('')).toEqual([]);
  });
});
