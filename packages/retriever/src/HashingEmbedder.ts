import { hash } from 'node:crypto';
import type { Embedder } from '@multihop/core';
import { STOP_WORDS, stem } from '@multihop/lexical';

export interface HashingEmbedderOptions {
  /** Vector size (default 512). */
  dimensions?: number;
  /** Also hash adjacent word pairs (default false: on HotpotQA dev they added collisions and cost recall). */
  bigrams?: boolean;
}


// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The words `hashing-v1` hashes: `@multihop/lexical`'s tokens as they were when its vectors were
 * fixed (every combining mark dropped, no word segmentation of scripts written without spaces).
 * The lexical tokens have since learnt those scripts; this embedder keeps its own copy so that a
 * corpus or experience store embedded with `hashing-v1` keeps matching the queries embedded now.
 */
function v1Tokens(text: string): string[] {
  if (!NON_ASCII.test(text)) return text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Entries each cache keeps at most (a long-running process embeds an open vocabulary). */
const CACHE_LIMIT = 200_000;

/**
 * Deterministic feature hashing (the "hashing trick"): each stemmed token and bigram adds ±1 to one
 * dimension chosen by a hash, then the vector is L2-normalised. No model, no network, identical on
 * every machine, so vector and hybrid search run offline and in tests; quality is lexical, not semantic.
 *
 * The vectors are those of `hashing-v1` bit for bit (tests hold golden hashes over every shared dev
 * passage); speed comes from caching each word's term, slot and sign, and from `embedFloat32`,
 * which writes a batch into one Float32Array that the corpus store hands LanceDB as an Arrow column.
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly bigrams: boolean;
  /** Word → its term's slot × 2 + (1 for a + sign), or -1 for a stop word. */
  private readonly words = new Map<string, number>();
  /** Word → its term (stem), for bigrams only. */
  private readonly terms = new Map<string, string>();
  private readonly slots = new Map<string, [number, number]>();
  private readonly counts: Float64Array;

  constructor(options: HashingEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 512;
    this.bigrams = options.bigrams ?? false;
    this.id = `hashing-v1:${this.dimensions}${this.bigrams ? ':bigrams' : ''}`;
    this.counts = new Float64Array(this.dimensions);
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): number[] {
    const norm = this.count(text);
    const out = new Array<number>(this.dimensions);
    for (let i = 0; i < this.dimensions; i++) out[i] = norm === 0 ? 0 : this.counts[i]! / norm;
    return out;
  }

  /**
   * The vectors of `texts`, row after row, in one Float32Array of `texts.length × dimensions`: each
   * value is `embed`'s rounded to float32, which is what a LanceDB vector column stores anyway.
   */
  embedFloat32(texts: readonly string[]): Float32Array {
    const dims = this.dimensions;
    const out = new Float32Array(texts.length * dims);
    for (let t = 0; t < texts.length; t++) {
      const norm = this.count(texts[t]!);
      if (norm === 0) continue;
      const base = t * dims;
      for (let i = 0; i < dims; i++) out[base + i] = this.counts[i]! / norm;
    }
    return out;
  }

  /** Fills `counts` with the text's signed feature counts and returns their L2 norm (as `Math.hypot` computes it). */
  private count(text: string): number {
    const counts = this.counts;
    counts.fill(0);
    let previous: string | undefined;
    for (const token of v1Tokens(text)) {
      let code = this.words.get(token);
      if (code === undefined) code = this.learn(token);
      if (code < 0) continue;
      counts[code >> 1]! += code & 1 ? 1 : -1;
      if (this.bigrams) {
        const term = this.terms.get(token) ?? stem(token);
        if (previous !== undefined) {
          const [slot, sign] = this.slot(`${previous}_${term}`);
          counts[slot]! += sign;
        }
        previous = term;
      }
    }
    return hypot(counts);
  }

  /** Stems and hashes a word not seen yet (cached up to CACHE_LIMIT words); returns its code. */
  private learn(token: string): number {
    let code = -1;
    if (!STOP_WORDS.has(token)) {
      const term = stem(token);
      const [slot, sign] = this.slot(term);
      code = slot * 2 + (sign > 0 ? 1 : 0);
      if (this.bigrams && this.terms.size < CACHE_LIMIT) this.terms.set(token, term);
    }
    if (this.words.size < CACHE_LIMIT) this.words.set(token, code);
    return code;
  }

  private slot(feature: string): [number, number] {
    let hit = this.slots.get(feature);
    if (!hit) {
      const digest = hash('md5', feature, 'buffer');
      hit = [digest.readUInt32LE(0) % this.dimensions, (digest[4] ?? 0) & 1 ? 1 : -1];
      if (this.slots.size < CACHE_LIMIT) this.slots.set(feature, hit);
    }
    return hit;
  }
}

/**
 * `Math.hypot(...values)` for finite values, the way V8 computes it (scaled by the largest value,
 * Kahan-compensated sum, in index order), so the norms — and so the vectors — stay those of the
 * first implementation, which spread the vector into `Math.hypot`, to the last bit.
 */
function hypot(values: Float64Array): number {
  // No Math.abs: in a vm context (jest's) every call to it crosses realms and costs ~60×.
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const a = v < 0 ? -v : v;
    if (a > max) max = a;
  }
  if (max === 0) return 0;
  let sum = 0;
  let compensation = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const n = (v < 0 ? -v : v) / max;
    const summand = n * n - compensation;
    const preliminary = sum + summand;
    compensation = preliminary - sum - summand;
    sum = preliminary;
  }
  return Math.sqrt(sum) * max;
}
