// Martin Porter's stemmer as lunr 2.3.9 ships it (MIT, Oliver Nightingale), ported so the browser
// bundle of `@kit/search/client` does not pull the whole of lunr for one function and so index
// and query stem identically to a lunr index.

const step2list: Record<string, string> = {
  ational: 'ate',
  tional: 'tion',
  enci: 'ence',
  anci: 'ance',
  izer: 'ize',
  bli: 'ble',
  alli: 'al',
  entli: 'ent',
  eli: 'e',
  ousli: 'ous',
  ization: 'ize',
  ation: 'ate',
  ator: 'ate',
  alism: 'al',
  iveness: 'ive',
  fulness: 'ful',
  ousness: 'ous',
  aliti: 'al',
  iviti: 'ive',
  biliti: 'ble',
  logi: 'log',
};

const step3list: Record<string, string> = {
  icate: 'ic',
  ative: '',
  alize: 'al',
  iciti: 'ic',
  ical: 'ic',
  ful: '',
  ness: '',
};

const c = '[^aeiou]';
const v = '[aeiouy]';
const C = c + '[^aeiouy]*';
const V = v + '[aeiou]*';

const reMgr0 = new RegExp('^(' + C + ')?' + V + C);
const reMeq1 = new RegExp('^(' + C + ')?' + V + C + '(' + V + ')?$');
const reMgr1 = new RegExp('^(' + C + ')?' + V + C + V + C);
const reSv = new RegExp('^(' + C + ')?' + v);

const re1a = /^(.+?)(ss|i)es$/;
const re21a = /^(.+?)([^s])s$/;
const re1b = /^(.+?)eed$/;
const re21b = /^(.+?)(ed|ing)$/;
const re1b2 = /.$/;
const re21b2 = /(at|bl|iz)$/;
const re31b2 = /([^aeiouylsz])\1$/;
const re41b2 = new RegExp('^' + C + v + '[^aeiouwxy]$');
const re1c = /^(.+?[^aeiou])y$/;
const re2 =
  /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const re3 = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const re4 = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const re24 = /^(.+?)(s|t)(ion)$/;
const re5 = /^(.+?)e$/;
const re51 = /ll$/;
const re35 = new RegExp('^' + C + v + '[^aeiouwxy]$');

/**
 * Porter-stems one lowercase English word exactly as lunr does, so `@kit/search` indexes agree
 * with lunr's pipeline.
 *
 * @example
 * porterStem('relationships'); // 'relationship'
 */
export function porterStem(word: string): string {
  let w = word;
  if (w.length < 3) return w;
  const firstch = w.slice(0, 1);
  if (firstch === 'y') w = firstch.toUpperCase() + w.slice(1);

  if (re1a.test(w)) w = w.replace(re1a, '$1$2');
  else if (re21a.test(w)) w = w.replace(re21a, '$1$2');

  let fp = re1b.exec(w);
  if (fp) {
    if (reMgr0.test(fp[1]!)) w = w.replace(re1b2, '');
  } else {
    fp = re21b.exec(w);
    if (fp && reSv.test(fp[1]!)) {
      w = fp[1]!;
      if (re21b2.test(w)) w = w + 'e';
      else if (re31b2.test(w)) w = w.replace(re1b2, '');
      else if (re41b2.test(w)) w = w + 'e';
    }
  }

  fp = re1c.exec(w);
  if (fp) w = fp[1]! + 'i';

  fp = re2.exec(w);
  if (fp && reMgr0.test(fp[1]!)) w = fp[1]! + step2list[fp[2]!];

  fp = re3.exec(w);
  if (fp && reMgr0.test(fp[1]!)) w = fp[1]! + step3list[fp[2]!];

  fp = re4.exec(w);
  if (fp) {
    if (reMgr1.test(fp[1]!)) w = fp[1]!;
  } else {
    fp = re24.exec(w);
    if (fp && reMgr1.test(fp[1]! + fp[2]!)) w = fp[1]! + fp[2]!;
  }

  fp = re5.exec(w);
  if (fp) {
    const stem = fp[1]!;
    if (reMgr1.test(stem) || (reMeq1.test(stem) && !re35.test(stem))) w = stem;
  }

  if (re51.test(w) && reMgr1.test(w)) w = w.replace(re1b2, '');

  if (firstch === 'y') w = firstch.toLowerCase() + w.slice(1);
  return w;
}
