import { tokenize } from './analyze.js';

/**
 * How developers ask versus how software documentation is written: general pairs of phrasings
 * found across framework and API docs, never answers for one doc set. A query phrase on the left
 * also searches the words on the right, at a reduced share, so a question in everyday words still
 * reaches the page written in the docs' vocabulary while exact words keep ranking first.
 */
const RELATED: ReadonlyArray<readonly [triggers: string, related: string]> = [
  [
    'throttle, throttling, too many requests, per minute, hammer, hammering, flood, flooding, spam, spamming, abuse, brute force',
    'rate limit',
  ],
  ['rate limit', 'throttle'],
  ['env, environment variable, secrets, secret, api key, api keys, credentials', 'environment configuration'],
  ['config, settings', 'configuration'],
  ['log in, sign in, signin, sign on, login with', 'authentication login'],
  ['log out, sign out, signout', 'logout'],
  ['sign up, signup', 'registration register'],
  ['endpoint, endpoints', 'route'],
  ['url, urls', 'route'],
  ['fake data, dummy data, sample data, test data, fill the database, populate', 'seed factory'],
  ['bring back, brought back, undelete, undo delete, recover', 'restore'],
  ['what changed, changelog, newest release, latest release, new version', 'release upgrade'],
  ['cron, every minute, every five minutes, periodically, recurring', 'schedule'],
  ['background, async, asynchronously, later', 'queue'],
  ['upload, uploaded', 'file storage'],
  ['permission, permissions, allowed to, access control', 'authorization'],
  ['translate, translation, multilingual, i18n', 'localization'],
  ['websocket, websockets, realtime, real time, live updates', 'broadcasting'],
  ['stub, fake, fakes', 'mock'],
  ['without sending, without actually, without calling, without hitting, without touching, in isolation', 'fake mock'],
  ['terminal, cli, console command', 'command'],
  ['n 1, n+1', 'eager'],
  ['deploy, production server, go live', 'deployment'],
];

interface Entry {
  /** Each trigger as its sequence of terms. */
  triggers: string[][];
  related: string[];
}

let entries: Entry[] | undefined;

function termsOf(text: string): string[] {
  return tokenize(text, { keepStopWords: true }).map((token) => token.term);
}

function loadEntries(): Entry[] {
  entries ??= RELATED.map(([triggers, related]) => ({
    triggers: triggers.split(',').map((trigger) => termsOf(trigger.trim())),
    related: termsOf(related),
  }));
  return entries;
}

/** One phrasing of the table a query used: the terms of its words that said it, and what the docs call it. */
export interface RelatedWording {
  said: string[];
  related: string[];
}

/**
 * The entries of the related-wording table (see {@link RELATED}) a query triggers: the query's
 * terms that matched a trigger, and the entry's related terms.
 *
 * @example
 * relatedWordings('what changed in the newest release');
 * // [{ said: ['what', 'chang'], related: ['releas', 'upgrad'] }, { said: ['newest', 'releas'], ... }]
 */
export function relatedWordings(query: string): RelatedWording[] {
  const said = termsOf(query);
  const found: RelatedWording[] = [];
  for (const entry of loadEntries()) {
    const terms = new Set<string>();
    for (const trigger of entry.triggers) {
      if (trigger.length === 0) continue;
      for (let at = 0; at + trigger.length <= said.length; at++) {
        if (trigger.every((term, i) => said[at + i] === term)) for (const term of trigger) terms.add(term);
      }
    }
    if (terms.size > 0) found.push({ said: [...terms], related: entry.related });
  }
  return found;
}

/**
 * Terms related to what a query says in other words (see {@link RELATED}), each once, without
 * the terms the query already has.
 *
 * @example
 * relatedTerms('stop clients from hammering my endpoints'); // ['rate', 'limit', 'rout']
 */
export function relatedTerms(query: string): string[] {
  const present = new Set(termsOf(query));
  const found: string[] = [];
  for (const wording of relatedWordings(query)) {
    for (const term of wording.related) {
      if (!present.has(term)) {
        present.add(term);
        found.push(term);
      }
    }
  }
  return found;
}
