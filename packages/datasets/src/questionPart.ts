import { createHash } from 'node:crypto';
import { ConfigError } from '@multihop/core';

/** One part of a question file split into `of` parts: `--part 2/2` is {part: 2, of: 2}. */
export interface QuestionPart {
  part: number;
  of: number;
}

/**
 * The part (1..of) a question id falls in: the first four bytes of SHA-256 of the id, modulo
 * `of`. A split by id, not by position, so it holds however a file is ordered or sliced (HotpotQA's
 * dev file lists its bridge questions before its comparison ones: a split by position gives two
 * halves of different kinds), and an eval and a trainer given the same part see the same questions.
 */
export function questionPart(id: string, of: number): number {
  return (createHash('sha256').update(id).digest().readUInt32BE(0) % of) + 1;
}

/** Whether a question id is in the given part (always, without one). */
export function inPart(id: string, part: QuestionPart | undefined): boolean {
  return part === undefined || questionPart(id, part.of) === part.part;
}

/** Reads `K/N` (1 ≤ K ≤ N, 2 ≤ N ≤ 100), naming `where` in its error. */
export function parsePart(text: string, where = '--part'): QuestionPart {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const part = match ? Number(match[1]) : NaN;
  const of = match ? Number(match[2]) : NaN;
  if (!match || of < 2 || of > 100 || part < 1 || part > of) {
    throw new ConfigError(`${where} must be K/N with 1 ≤ K ≤ N and 2 ≤ N ≤ 100 (e.g. 1/2 for the first of two parts), got "${text}"`);
  }
  return { part, of };
}
