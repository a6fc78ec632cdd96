import { seededRandom } from './random.js';
import type { EngineIndex } from './types.js';

/**
 * Latent semantic analysis of one index: a truncated SVD of its section × term matrix, computed
 * from the postings alone. Terms that occur in the same sections, and terms that occur beside the
 * same other terms, get nearby vectors, so a question worded differently from a page still lands
 * near it. Everything is derived deterministically from the index, so a client index rebuilt in
 * the browser gets exactly the model the server built.
 */
export interface SemanticModel {
  dims: number;
  /** Per term: `dims` coordinates (all zero for terms the model leaves out). */
  termVectors: Float32Array;
  /** Per term: its global weight in a query vector (0 for terms the model leaves out). */
  termWeights: Float32Array;
  /** Per page: the unit-length mean direction of its sections. */
  pageVectors: Float32Array;
}

/** Latent dimensions kept. */
export const SEMANTIC_DIMS = 48;
/** Extra random directions that make the randomized SVD's leading `SEMANTIC_DIMS` accurate. */
const OVERSAMPLE = 12;
/** Power iterations of the randomized SVD: sharpen the leading directions against the tail. */
const POWER_ITERATIONS = 1;
/**
 * Most sections the SVD is computed from (evenly spaced when an index has more); every section
 * still gets a vector. Bounds the build time of a very large index.
 */
const MAX_MODEL_SECTIONS = 8192;
/**
 * Fewest sections a model is built from: co-occurrence needs text to learn from, and below this a
 * handful of sections would only add noise to the word ranking, which then ranks alone.
 */
export const MIN_MODEL_SECTIONS = 100;
/** A heading word says more about a section than a body word. */
const HEAD_WEIGHT = 2;
/** Seed of the random start, fixed so that server and browser compute the same model. */
const SEED = 0x5eed;

/** A sparse matrix in compressed rows; columns are compact term numbers. */
interface Rows {
  rows: number;
  cols: number;
  start: Uint32Array;
  col: Uint32Array;
  value: Float64Array;
}

/** `out = A × X` for a dense `X` of `A.cols` rows and `width` columns (row-major). */
function times(a: Rows, x: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.rows * width);
  for (let r = 0; r < a.rows; r++) {
    const base = r * width;
    for (let j = a.start[r]!; j < a.start[r + 1]!; j++) {
      const value = a.value[j]!;
      const from = a.col[j]! * width;
      for (let c = 0; c < width; c++) out[base + c]! += value * x[from + c]!;
    }
  }
  return out;
}

/** `out = Aᵀ × Y` for a dense `Y` of `A.rows` rows and `width` columns (row-major). */
function timesTransposed(a: Rows, y: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.cols * width);
  for (let r = 0; r < a.rows; r++) {
    const from = r * width;
    for (let j = a.start[r]!; j < a.start[r + 1]!; j++) {
      const value = a.value[j]!;
      const base = a.col[j]! * width;
      for (let c = 0; c < width; c++) out[base + c]! += value * y[from + c]!;
    }
  }
  return out;
}

/** `Xᵀ × X` of a dense `n × width` matrix. */
function gram(x: Float64Array, n: number, width: number): Float64Array {
  const out = new Float64Array(width * width);
  for (let r = 0; r < n; r++) {
    const base = r * width;
    for (let i = 0; i < width; i++) {
      const value = x[base + i]!;
      if (value === 0) continue;
      const row = i * width;
      for (let j = i; j < width; j++) out[row + j]! += value * x[base + j]!;
    }
  }
  for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) out[i * width + j] = out[j * width + i]!;
  return out;
}

/**
 * Orthonormalizes the columns of a dense `n × width` matrix in place (Cholesky QR, repeated
 * `passes` times: once suffices for a well-conditioned matrix, twice restores accuracy after a
 * power step). A column that is (numerically) dependent on earlier ones becomes zero.
 */
function orthonormalize(x: Float64Array, n: number, width: number, passes: number): void {
  const r = new Float64Array(width * width);
  const inverse = new Float64Array(width * width);
  const row = new Float64Array(width);
  for (let pass = 0; pass < passes; pass++) {
    const g = gram(x, n, width);
    // Cholesky factor R (upper) of G = RᵀR, skipping dependent columns.
    r.fill(0);
    for (let i = 0; i < width; i++) {
      let diagonal = g[i * width + i]!;
      for (let k = 0; k < i; k++) diagonal -= r[k * width + i]! ** 2;
      if (!(diagonal > 1e-12 * (g[i * width + i]! || 1))) continue;
      const pivot = Math.sqrt(diagonal);
      r[i * width + i] = pivot;
      for (let j = i + 1; j < width; j++) {
        let value = g[i * width + j]!;
        for (let k = 0; k < i; k++) value -= r[k * width + i]! * r[k * width + j]!;
        r[i * width + j] = value / pivot;
      }
    }
    // R⁻¹ (upper triangular; rows of skipped columns stay zero), column by column.
    inverse.fill(0);
    for (let j = 0; j < width; j++) {
      if (r[j * width + j] === 0) continue;
      inverse[j * width + j] = 1 / r[j * width + j]!;
      for (let i = j - 1; i >= 0; i--) {
        if (r[i * width + i] === 0) continue;
        let value = 0;
        for (let k = i + 1; k <= j; k++) value += r[i * width + k]! * inverse[k * width + j]!;
        inverse[i * width + j] = -value / r[i * width + i]!;
      }
    }
    // X ← X R⁻¹, one row at a time with contiguous reads of R⁻¹'s rows.
    for (let at = 0; at < n; at++) {
      const base = at * width;
      row.fill(0);
      for (let k = 0; k < width; k++) {
        const value = x[base + k]!;
        if (value === 0) continue;
        const from = k * width;
        for (let j = k; j < width; j++) row[j]! += value * inverse[from + j]!;
      }
      x.set(row, base);
    }
  }
}

/** Eigenvalues (descending) and unit eigenvectors (columns, row-major) of a symmetric matrix (cyclic Jacobi). */
function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let scale = 0;
    for (let i = 0; i < n; i++) {
      scale += a[i * n + i]! ** 2;
      for (let j = i + 1; j < n; j++) off += a[i * n + j]! ** 2;
    }
    if (off <= 1e-24 * scale) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (apq === 0) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j]! - a[i * n + i]! || i - j);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((from, to) => {
    values[to] = a[from * n + from]!;
    for (let k = 0; k < n; k++) vectors[k * n + to] = v[k * n + from]!;
  });
  return { values, vectors };
}

/** Term counts of one section: body counts plus heading counts at `HEAD_WEIGHT`. */
function sectionCounts(index: EngineIndex): { start: Uint32Array; term: Uint32Array; count: Float64Array } {
  const sectionCount = index.sections.length;
  const termCount = index.terms.length;
  const sizes = new Uint32Array(sectionCount + 1);
  for (let term = 0; term < termCount; term++) {
    for (const section of index.body.ids[term]!) sizes[section + 1]!++;
    for (const section of index.head.ids[term]!) sizes[section + 1]!++;
  }
  for (let s = 0; s < sectionCount; s++) sizes[s + 1]! += sizes[s]!;
  const start = sizes.slice();
  const fill = sizes.slice(0, sectionCount);
  const terms = new Uint32Array(start[sectionCount]!);
  const counts = new Float64Array(start[sectionCount]!);
  // Terms ascend, so each section's entries come out sorted; a term in body and heading of one
  // section appears twice and is merged below.
  for (let term = 0; term < termCount; term++) {
    const bodyIds = index.body.ids[term]!;
    const bodyTfs = index.body.tfs[term]!;
    const headIds = index.head.ids[term]!;
    const headTfs = index.head.tfs[term]!;
    for (let i = 0; i < bodyIds.length; i++) {
      const at = fill[bodyIds[i]!]!++;
      terms[at] = term;
      counts[at] = bodyTfs[i]!;
    }
    for (let i = 0; i < headIds.length; i++) {
      const section = headIds[i]!;
      const previous = fill[section]! - 1;
      if (previous >= start[section]! && terms[previous] === term) {
        counts[previous]! += HEAD_WEIGHT * headTfs[i]!;
        continue;
      }
      const at = fill[section]!++;
      terms[at] = term;
      counts[at] = HEAD_WEIGHT * headTfs[i]!;
    }
  }
  // Compact away the slots that merging left unused.
  let write = 0;
  const compactStart = new Uint32Array(sectionCount + 1);
  for (let s = 0; s < sectionCount; s++) {
    compactStart[s] = write;
    for (let at = start[s]!; at < fill[s]!; at++) {
      terms[write] = terms[at]!;
      counts[write] = counts[at]!;
      write++;
    }
  }
  compactStart[sectionCount] = write;
  return { start: compactStart, term: terms.subarray(0, write), count: counts.subarray(0, write) };
}

/**
 * Builds the semantic model of an index. Cost: a few sparse products of the (sampled) section ×
 * term matrix with a `dims + 12`-column dense matrix, then one pass over all sections.
 */
export function buildSemanticModel(index: EngineIndex, dims = SEMANTIC_DIMS): SemanticModel {
  const termCount = index.terms.length;
  const pageCount = index.pages.length;
  const sectionCount = index.sections.length;
  const termVectors = new Float32Array(termCount * dims);
  const termWeights = new Float32Array(termCount);
  const pageVectors = new Float32Array(pageCount * dims);
  const empty = { dims, termVectors, termWeights, pageVectors };
  if (sectionCount < MIN_MODEL_SECTIONS || termCount === 0) return empty;
  const counts = sectionCounts(index);

  // The sections the SVD sees: all of them, or an even spread of them.
  const stride = Math.max(1, sectionCount / MAX_MODEL_SECTIONS);
  const sample: number[] = [];
  for (let at = 0; Math.floor(at) < sectionCount; at += stride) sample.push(Math.floor(at));
  const df = new Uint32Array(termCount);
  for (const s of sample) for (let j = counts.start[s]!; j < counts.start[s + 1]!; j++) df[counts.term[j]!]!++;
  // A term in one sampled section relates to nothing; a term in most of them separates nothing.
  const column = new Int32Array(termCount).fill(-1);
  let cols = 0;
  for (let term = 0; term < termCount; term++) {
    if (df[term]! >= 2 && df[term]! < sample.length) {
      column[term] = cols++;
      termWeights[term] = Math.log(sample.length / df[term]!);
    }
  }
  if (cols === 0) return empty;

  // Counts are small whole numbers: their logarithms are looked up, not recomputed per posting.
  const logTable = Float64Array.from({ length: 256 }, (_, count) => Math.log1p(count));
  /** log(1 + tf) × idf of one entry of `counts` (0 for a term the model leaves out). */
  const weightOf = (j: number): number => {
    const term = counts.term[j]!;
    if (column[term]! < 0) return 0;
    const count = counts.count[j]!;
    return (count < 256 && Number.isInteger(count) ? logTable[count]! : Math.log1p(count)) * termWeights[term]!;
  };
  // Rows of the sampled sections at unit length: each section's direction, not its size.
  const rowStart = new Uint32Array(sample.length + 1);
  const rowCol: number[] = [];
  const rowValue: number[] = [];
  sample.forEach((s, row) => {
    const first = rowValue.length;
    let norm = 0;
    for (let j = counts.start[s]!; j < counts.start[s + 1]!; j++) {
      const value = weightOf(j);
      if (value === 0) continue;
      rowCol.push(column[counts.term[j]!]!);
      rowValue.push(value);
      norm += value * value;
    }
    norm = Math.sqrt(norm);
    for (let i = first; i < rowValue.length; i++) rowValue[i]! /= norm;
    rowStart[row + 1] = rowCol.length;
  });
  const a: Rows = {
    rows: sample.length,
    cols,
    start: rowStart,
    col: Uint32Array.from(rowCol),
    value: Float64Array.from(rowValue),
  };

  // Randomized SVD (Halko, Martinsson and Tropp): a basis Q of A's range, then the SVD of QᵀA.
  const k = Math.min(dims, a.rows - 1, cols - 1);
  if (k < 1) return empty;
  const width = Math.min(k + OVERSAMPLE, a.rows, cols);
  const uniform = seededRandom(SEED);
  const next = () => uniform() - 0.5;
  const omega = new Float64Array(cols * width);
  for (let i = 0; i < omega.length; i++) omega[i] = next();
  let y = times(a, omega, width);
  // A random projection is well conditioned: one pass.
  orthonormalize(y, a.rows, width, 1);
  // Subspace iteration; orthonormalizing Y alone keeps the basis well conditioned for so few steps.
  for (let iteration = 0; iteration < POWER_ITERATIONS; iteration++) {
    y = times(a, timesTransposed(a, y, width), width);
    orthonormalize(y, a.rows, width, 2);
  }
  // Bᵀ = AᵀQ (cols × width); B Bᵀ = U Σ² Uᵀ; V = Bᵀ U Σ⁻¹.
  const bt = timesTransposed(a, y, width);
  const { values, vectors } = symmetricEigen(gram(bt, cols, width), width);
  const termOfColumn = new Uint32Array(cols);
  for (let term = 0; term < termCount; term++) if (column[term]! >= 0) termOfColumn[column[term]!] = term;
  const sigmaInverse = new Float64Array(k);
  for (let c = 0; c < k; c++) sigmaInverse[c] = values[c]! > 1e-12 ? 1 / Math.sqrt(values[c]!) : 0;
  for (let col = 0; col < cols; col++) {
    const base = col * width;
    const target = termOfColumn[col]! * dims;
    for (let c = 0; c < k; c++) {
      let value = 0;
      for (let i = 0; i < width; i++) value += bt[base + i]! * vectors[i * width + c]!;
      termVectors[target + c] = value * sigmaInverse[c]!;
    }
  }

  // Every section projected (its weighted terms times their vectors, unit length), averaged per page.
  const section = new Float64Array(dims);
  const page = new Float64Array(dims);
  let currentPage = 0;
  const flushPage = () => {
    let norm = 0;
    for (let c = 0; c < dims; c++) norm += page[c]! * page[c]!;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let c = 0; c < dims; c++) pageVectors[currentPage * dims + c] = page[c]! / norm;
    page.fill(0);
  };
  for (let s = 0; s < sectionCount; s++) {
    const owner = index.sectionPage[s]!;
    if (owner !== currentPage) {
      flushPage();
      currentPage = owner;
    }
    // The section's direction: its weighted terms times their vectors (scaled to unit length below).
    section.fill(0);
    for (let j = counts.start[s]!; j < counts.start[s + 1]!; j++) {
      const value = weightOf(j);
      if (value === 0) continue;
      const base = counts.term[j]! * dims;
      for (let c = 0; c < dims; c++) section[c]! += value * termVectors[base + c]!;
    }
    let norm = 0;
    for (let c = 0; c < dims; c++) norm += section[c]! * section[c]!;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let c = 0; c < dims; c++) page[c]! += section[c]! / norm;
  }
  flushPage();
  return { dims, termVectors, termWeights, pageVectors };
}

const models = new WeakMap<EngineIndex, SemanticModel>();

/** The semantic model of an index, built on first use and kept with the index. */
export function semanticModelOf(index: EngineIndex): SemanticModel {
  let model = models.get(index);
  if (!model) {
    model = buildSemanticModel(index);
    models.set(index, model);
  }
  return model;
}

/** The semantic model already built for an index, or null when none was (it is built on first use). */
export function semanticModelBuilt(index: EngineIndex): SemanticModel | null {
  return models.get(index) ?? null;
}

/** Makes `model` the semantic model of `index` (one read back from an index cache, built for this very index). */
export function adoptSemanticModel(index: EngineIndex, model: SemanticModel): void {
  models.set(index, model);
}
