import { adoptSemanticModel, type SemanticModel, semanticModelBuilt } from './semantic.js';
import type { EngineIndex, FieldPostings } from './types.js';

/**
 * Identifies the layout of a {@link StoredIndex}; bump it whenever `EngineIndex` or `SemanticModel`
 * changes shape or meaning, so an index kept by an older release is refused and built again.
 */
export const STORED_INDEX_FORMAT = 'kit-server-index/1';

/**
 * A built server index as a structured-clone value (plain objects, arrays, strings and typed
 * arrays): what an index cache keeps between runs. The term map is left out (it is the sorted
 * term list, numbered), the semantic model is kept when it was built (it is the costly part).
 */
export interface StoredIndex {
  format: typeof STORED_INDEX_FORMAT;
  index: Omit<EngineIndex, 'termId'>;
  model: SemanticModel | null;
}

/** The value an index cache keeps for `index`. */
export function storedIndexOf(index: EngineIndex): StoredIndex {
  const { termId: _termId, ...rest } = index;
  return { format: STORED_INDEX_FORMAT, index: rest, model: semanticModelBuilt(index) };
}

/**
 * The index a {@link StoredIndex} holds, with its semantic model adopted, or a sentence saying
 * why the value is not one (another format, a missing field, lengths that do not agree): a cache
 * file that decodes but is not a whole index is refused rather than searched.
 */
export function indexFromStored(value: unknown): EngineIndex | string {
  if (value === null || typeof value !== 'object') return 'not an object';
  const stored = value as Partial<StoredIndex>;
  if (stored.format !== STORED_INDEX_FORMAT)
    return `format ${JSON.stringify(stored.format)}, expected ${STORED_INDEX_FORMAT}`;
  const index = stored.index;
  if (index === null || typeof index !== 'object') return 'no index';
  const { pages, sections, terms, surfaces } = index;
  if (!Array.isArray(pages) || !Array.isArray(sections) || !Array.isArray(terms) || !Array.isArray(surfaces))
    return 'pages, sections, terms or surfaces missing';
  const sized: Array<[string, unknown, number]> = [
    ['pageStart', index.pageStart, pages.length + 1],
    ['sectionPage', index.sectionPage, sections.length],
    ['bodyLen', index.bodyLen, sections.length],
    ['headLen', index.headLen, sections.length],
    ['titleLen', index.titleLen, pages.length],
    ['descLen', index.descLen, pages.length],
    ['surfaceTerm', index.surfaceTerm, surfaces.length],
  ];
  for (const [name, array, length] of sized) {
    if (!(array instanceof Uint32Array) || array.length !== length) return `${name} is not ${length} numbers`;
  }
  for (const name of ['body', 'head', 'title', 'desc'] as const) {
    const postings = index[name] as FieldPostings | undefined;
    if (
      !postings ||
      !Array.isArray(postings.ids) ||
      !Array.isArray(postings.tfs) ||
      postings.ids.length !== terms.length ||
      postings.tfs.length !== terms.length ||
      !postings.ids.every((ids, term) => ids instanceof Uint32Array && postings.tfs[term] instanceof Uint16Array)
    )
      return `${name} postings do not match the ${terms.length} terms`;
  }
  const termId = new Map<string, number>();
  for (const [id, term] of terms.entries()) termId.set(term, id);
  const engine: EngineIndex = { ...index, termId } as EngineIndex;
  const model = stored.model;
  if (model !== null && model !== undefined) {
    if (
      typeof model.dims !== 'number' ||
      !(model.termVectors instanceof Float32Array) ||
      model.termVectors.length !== terms.length * model.dims ||
      !(model.termWeights instanceof Float32Array) ||
      model.termWeights.length !== terms.length ||
      !(model.pageVectors instanceof Float32Array) ||
      model.pageVectors.length !== pages.length * model.dims
    )
      return 'the semantic model does not match the index';
    adoptSemanticModel(engine, model);
  }
  return engine;
}
