import { createHash } from 'node:crypto';
import type { Embedder } from '@multihop/core';
import { terms } from '@multihop/lexical';

export interface HashingEmbedderOptions {
  /** Vector size (default 512). */
  dimensions?: number;
  /** Also hash adjacent word pairs (default false: on HotpotQA dev they added collisions and cost recall). */
  bigrams?: boolean;
}

/**
 * Deterministic feature hashing (the "hashing trick"): each stemmed token and bigram adds ±1 to one
 * dimension chosen by a hash, then the vector is L2-normalised. No model, no network, identical on
 * every machine, so vector and hybrid search run offline and in tests; quality is lexical, not semantic.
 */
export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly bigrams: boolean;
  private readonly cache = new Map<string, [number, number]>();

  constructor(options: HashingEmbedderOptions = {}) {
    this.dimensions = options.dimensions ?? 512;
    this.bigrams = options.bigrams ?? false;
    this.id = `hashing-v1:${this.dimensions}${this.bigrams ? ':bigrams' : ''}`;
  }

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    const tokens = terms(text);
    const features = this.bigrams ? [...tokens, ...tokens.slice(1).map((t, i) => `${tokens[i]}_${t}`)] : tokens;
    for (const feature of features) {
      const [slot, sign] = this.slot(feature);
      vector[slot] = (vector[slot] ?? 0) + sign;
    }
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((v) => v / norm);
  }

  private slot(feature: string): [number, number] {
    let hit = this.cache.get(feature);
    if (!hit) {
      const digest = createHash('md5').update(feature).digest();
      hit = [digest.readUInt32LE(0) % this.dimensions, (digest[4] ?? 0) & 1 ? 1 : -1];
      if (this.cache.size < 200_000) this.cache.set(feature, hit);
    }
    return hit;
  }
}
