import { ConfigError, type Embedder } from '@multihop/core';
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';

/**
 * Features from the question's embedding: its first principal components. An embedding has
 * hundreds or thousands of dimensions and the router learns from a few hundred to a few thousand
 * questions, so each candidate's regressions see the embedding through the k directions in which
 * the training questions vary most (PCA on those questions; no label is used), beside the
 * wording features. The router file keeps the mean and the directions, the embedder's id and
 * the spec that rebuilds it; the router embeds each question it routes with that embedder.
 */
export interface EmbeddingProjection {
  /** What the caller resolves to the embedder (`hashing`, `openai:<model>:<dimensions>`). */
  spec: string;
  /** The embedder's id when it was trained: a router refuses an embedder with another id. */
  embedder: string;
  dimensions: number;
  /** The training questions' mean embedding. */
  mean: number[];
  /** k unit directions, largest variance first. */
  components: number[][];
}

/** The feature names of k components, after the wording features. */
export const componentNames = (k: number): string[] => Array.from({ length: k }, (_, i) => `question embedding: principal component ${i + 1}`);

/**
 * The first k principal directions of `vectors`. Eigenvectors of the smaller Gram matrix (d×d
 * when there are more questions than dimensions, else n×n mapped back through the data), each
 * signed so that its largest entry is positive: the same vectors give the same file.
 */
export function fitProjection(vectors: readonly number[][], k: number, identity: { spec: string; embedder: string }): EmbeddingProjection {
  const n = vectors.length;
  const d = vectors[0]?.length ?? 0;
  if (k < 1 || k >= Math.min(n, d)) throw new ConfigError(`router.embedding: ${k} components need more than ${k} questions and dimensions (have ${n} questions of ${d} dimensions)`);
  const mean = Array.from({ length: d }, (_, j) => vectors.reduce((s, v) => s + v[j]!, 0) / n);
  const X = new Matrix(vectors.map((v) => v.map((x, j) => x - mean[j]!)));
  const Xt = X.transpose();
  const evd = new EigenvalueDecomposition(d <= n ? Xt.mmul(X) : X.mmul(Xt), { assumeSymmetric: true });
  const order = evd.realEigenvalues.map((value, i) => ({ value, i })).sort((a, b) => b.value - a.value || a.i - b.i);
  // A direction of (numerically) no variance is no feature: noise, or the same vector k times.
  const rank = order.filter((e) => e.value > 1e-10 * Math.max(order[0]!.value, 1e-300)).length;
  if (rank < k) throw new ConfigError(`router.embedding: the ${n} training questions' embeddings vary in only ${rank} direction${rank === 1 ? '' : 's'}; ask for at most ${rank} components`);
  const chosen = order.slice(0, k).map((e) => evd.eigenvectorMatrix.getColumn(e.i));
  const directions = d <= n ? chosen : chosen.map((u) => Xt.mmul(Matrix.columnVector(u)).getColumn(0));
  const components = directions.map((u) => {
    const norm = Math.hypot(...u) || 1;
    const largest = u.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a), 0);
    const sign = largest < 0 ? -1 : 1;
    return u.map((x) => (sign * x) / norm);
  });
  return { ...identity, dimensions: d, mean, components };
}

/** A question's embedding as its k component scores. */
export function project(projection: EmbeddingProjection, vector: readonly number[]): number[] {
  if (vector.length !== projection.dimensions) throw new ConfigError(`embedder ${projection.embedder} returned ${vector.length} dimensions; the router file was trained on ${projection.dimensions}`);
  return projection.components.map((u) => u.reduce((s, x, j) => s + x * (vector[j]! - projection.mean[j]!), 0));
}

/** The questions' embeddings, in batches (an endpoint's request stays small), keyed by question text. */
export async function embedQuestions(embedder: Embedder, questions: readonly string[], signal?: AbortSignal, batch = 128): Promise<Map<string, number[]>> {
  const unique = [...new Set(questions)];
  const out = new Map<string, number[]>();
  for (let i = 0; i < unique.length; i += batch) {
    const texts = unique.slice(i, i + batch);
    const vectors = await embedder.embed(texts, signal);
    if (vectors.length !== texts.length) throw new ConfigError(`embedder ${embedder.id} returned ${vectors.length} vectors for ${texts.length} questions`);
    texts.forEach((t, j) => out.set(t, vectors[j]!));
  }
  return out;
}
