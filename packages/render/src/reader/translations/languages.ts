import type { ReaderStrings } from '../types.js';
import { ar } from './ar.js';
import { ca } from './ca.js';
import { ckb } from './ckb.js';
import { cs } from './cs.js';
import { da } from './da.js';
import { de } from './de.js';
import { dv } from './dv.js';
import { el } from './el.js';
import { es } from './es.js';
import { fa } from './fa.js';
import { fi } from './fi.js';
import { fr } from './fr.js';
import { gl } from './gl.js';
import { he } from './he.js';
import { hi } from './hi.js';
import { hu } from './hu.js';
import { id } from './id.js';
import { it } from './it.js';
import { ja } from './ja.js';
import { ko } from './ko.js';
import { lv } from './lv.js';
import { nb } from './nb.js';
import { nl } from './nl.js';
import { pl } from './pl.js';
import { ps } from './ps.js';
import { pt } from './pt.js';
import { ro } from './ro.js';
import { ru } from './ru.js';
import { sd } from './sd.js';
import { sk } from './sk.js';
import { sv } from './sv.js';
import { th } from './th.js';
import { tr } from './tr.js';
import { ug } from './ug.js';
import { uk } from './uk.js';
import { ur } from './ur.js';
import { vi } from './vi.js';
import { yi } from './yi.js';
import { zhCN } from './zh-CN.js';
import { zhTW } from './zh-TW.js';

/**
 * Kit's translations of the reader interface, by language code: the languages Starlight ships and
 * every right-to-left language Kit recognises (`localeDirection`). A new language is a file
 * beside this one, imported and listed here (see README.md).
 */
export const READER_TRANSLATIONS: Readonly<Record<string, ReaderStrings>> = {
  ar,
  ca,
  cs,
  da,
  de,
  el,
  es,
  fa,
  fi,
  fr,
  gl,
  he,
  hi,
  hu,
  id,
  it,
  ja,
  ko,
  lv,
  nb,
  nl,
  pl,
  pt,
  ro,
  ru,
  sk,
  sv,
  th,
  tr,
  uk,
  vi,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  // Right-to-left languages Kit recognises beyond Arabic, Hebrew and Persian.
  ur,
  yi,
  ps,
  sd,
  ug,
  ckb,
  dv,
};

/** Codes that name the same language as one of {@link READER_TRANSLATIONS}. */
export const LANGUAGE_ALIASES: Readonly<Record<string, string>> = {
  iw: 'he',
  ji: 'yi',
  no: 'nb',
  nn: 'nb',
  zh: 'zh-CN',
  'zh-hans': 'zh-CN',
  'zh-sg': 'zh-CN',
  'zh-hant': 'zh-TW',
  'zh-hk': 'zh-TW',
  'zh-mo': 'zh-TW',
};
