/**
 * The hashing embedder as it was before issue 14 (terms() with NFKD on every text, md5 per term
 * through createHash, `Math.hypot(...vector)`, `number[]` out), kept only so bench:retrieval can
 * print the speed-up in one run. Its vectors are the golden ones the retriever's tests hold.
 */
import { createHash } from 'node:crypto';
import { STOP_WORDS, stem } from '@multihop/lexical';

const tokensBefore = (text: string): string[] => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

export class HashingEmbedderBefore {
  private readonly cache = new Map<string, [number, number]>();
  constructor(readonly dimensions = 512) {}

  embed(texts: string[]): number[][] {
    return texts.map((text) => this.embedOne(text));
  }

  private embedOne(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    const features: string[] = [];
    for (const token of tokensBefore(text)) if (!STOP_WORDS.has(token)) features.push(stem(token));
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
