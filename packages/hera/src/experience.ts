import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, readJsonFile } from '@multihop/core';
import { tokens, STOP_WORDS } from '@multihop/lexical';
import { z } from 'zod';

/**
 * Query types of hera.md Appendix D.1. The paper says seven and lists six; `single-hop` is the
 * seventh here, for questions that need one fact (HotpotQA and 2Wiki hold some).
 */
export const QUERY_TYPES = ['bridge', 'intersection', 'comparison', 'temporal', 'causal', 'ambiguous', 'single-hop'] as const;
export type QueryType = (typeof QUERY_TYPES)[number];
/** Complexity as the paper annotates training queries (§4): easy, medium, hard. */
export const COMPLEXITIES = ['easy', 'medium', 'hard'] as const;
export type Complexity = (typeof COMPLEXITIES)[number];

/** c of the library's (c, z, u): the query's characteristics (CHARACTERIZEQUERY). */
export interface QueryProfile {
  query_type: QueryType;
  complexity: Complexity;
  /** One sentence characterising the query. */
  profile: string;
}

export const queryProfileSchema = z.object({
  query_type: z.enum(QUERY_TYPES).describe('The reasoning type the query needs.'),
  complexity: z.enum(COMPLEXITIES).describe('How hard the query is.'),
  profile: z.string().describe('One sentence characterising the query.'),
});

/**
 * One entry (c, z, u) of the experience library (§3.2). `uses` counts how often the insight was
 * given to the orchestrator (retrieval prefers less-used insights among equals, §3.2's
 * diversity); the learning loop (ADD/MERGE/PRUNE/KEEP, Algorithm 3) writes `utility` and `uses`.
 */
export interface ExperienceEntry {
  id: string;
  profile: { query_type: QueryType; complexity?: Complexity; text?: string };
  insight: string;
  utility: number;
  uses: number;
}

export const experienceEntrySchema = z.object({
  id: z.string().min(1),
  profile: z.object({ query_type: z.enum(QUERY_TYPES), complexity: z.enum(COMPLEXITIES).optional(), text: z.string().optional() }),
  insight: z.string().min(1),
  utility: z.number().default(0),
  uses: z.number().int().min(0).default(0),
});

/** The library file: `{ "format": "hera-experience-library/1", "entries": [...] }` or a bare array of entries. */
export const experienceLibraryFileSchema = z.union([
  z.object({ format: z.literal('hera-experience-library/1'), entries: z.array(experienceEntrySchema) }),
  z.array(experienceEntrySchema),
]);
export const EXPERIENCE_LIBRARY_FORMAT = 'hera-experience-library/1';

/** An insight as the orchestrator sees it (Algorithm 4's E_rel: (z, u) with the type it came from). */
export interface RetrievedExperience {
  id: string;
  query_type: QueryType;
  insight: string;
  utility: number;
}

export interface ExperienceRetrieval {
  /** At most this many insights reach the orchestrator. */
  limit: number;
  /** Two insights sharing at least this share of content words (Jaccard) are redundant. */
  redundancy: number;
  /** SIMILAR by vector: only the entries whose embedded profiles are this many nearest the query's compete (ExperienceSource; default all). */
  candidates?: number;
}

/** SIMILAR(c', c): same reasoning type, and complexity (when both are known) at most one level apart. */
export function similarProfiles(a: ExperienceEntry['profile'], b: Pick<QueryProfile, 'query_type' | 'complexity'>): boolean {
  if (a.query_type !== b.query_type) return false;
  if (a.complexity === undefined) return true;
  return Math.abs(COMPLEXITIES.indexOf(a.complexity) - COMPLEXITIES.indexOf(b.complexity)) <= 1;
}

const contentWords = (text: string) => new Set(tokens(text).filter((t) => !STOP_WORDS.has(t)));

/** Jaccard overlap of two insights' content words. */
export function insightOverlap(a: string, b: string): number {
  const x = contentWords(a);
  const y = contentWords(b);
  if (x.size === 0 && y.size === 0) return 1;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  return shared / (x.size + y.size - shared);
}

/**
 * Algorithm 4, lines 1–7 without vectors (the workflows use an ExperienceSource, which adds the
 * profiles' cosine similarity: experienceStore.ts): entries sorted by utility (descending; among equal utilities the less
 * used first, §3.2's "lower prior usage frequency"), kept when their profile is similar to the
 * query's and their insight is not redundant with one already kept, up to `limit`.
 */
export function retrieveExperiences(library: readonly ExperienceEntry[], profile: Pick<QueryProfile, 'query_type' | 'complexity'>, options: ExperienceRetrieval): RetrievedExperience[] {
  const sorted = [...library].sort((a, b) => b.utility - a.utility || a.uses - b.uses || a.id.localeCompare(b.id));
  const kept: RetrievedExperience[] = [];
  for (const entry of sorted) {
    if (kept.length >= options.limit) break;
    if (!similarProfiles(entry.profile, profile)) continue;
    if (kept.some((k) => insightOverlap(k.insight, entry.insight) >= options.redundancy)) continue;
    kept.push({ id: entry.id, query_type: entry.profile.query_type, insight: entry.insight, utility: entry.utility });
  }
  return kept;
}

/** Reads an experience library file (see experienceLibraryFileSchema); errors name the file and the entry. */
export function loadExperienceLibrary(file: string): ExperienceEntry[] {
  let json: unknown;
  try {
    json = readJsonFile(file);
  } catch (error) {
    throw new InputError(`cannot read the experience library ${file}: ${(error as Error).message}`, { file }, { cause: error });
  }
  // Each form parsed by its own schema, so an error names the entry (not the union's bare "Invalid input" at the root).
  const parsed = Array.isArray(json) ? z.array(experienceEntrySchema).safeParse(json) : experienceLibraryFileSchema.options[0].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(`experience library ${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`, { file, field: issue.path.join('.') });
  }
  return (Array.isArray(parsed.data) ? parsed.data : parsed.data.entries) as ExperienceEntry[];
}

/**
 * A RoPE-evolved prompt (§3.4, Algorithm 5's ρ_i^{t+1}): the role prompt that replaces the
 * system message of `promptId`, with the generation that wrote it (the prompt's version becomes
 * `<version>+rope.<generation>`, so cached replies of the base prompt are not reused).
 */
export interface EvolvedPrompt {
  promptId: string;
  system: string;
  generation: number;
}

export const evolvedPromptsFileSchema = z.object({
  format: z.literal('hera-prompts/1'),
  prompts: z.array(z.object({ promptId: z.string().min(1), system: z.string().min(1), generation: z.number().int().min(1), rules: z.array(z.string()).optional(), principles: z.array(z.string()).optional() })),
});

/**
 * What the learning loop (`multihop train hera-evolve`, src/evolve/) leaves in a state directory, and what
 * a run loads from it: the library in the LanceDB table `db/experience_library` (experienceStore.ts;
 * read by readHeraState) or, in a directory written before it, `experience-library.json`
 * (experienceLibraryFileSchema); and `prompts.json` (evolvedPromptsFileSchema). Any may be absent.
 */
export interface HeraState {
  library: ExperienceEntry[];
  prompts: EvolvedPrompt[];
}

export const STATE_FILES = { library: 'experience-library.json', prompts: 'prompts.json' } as const;

/**
 * A digest of what a hera workflow reads from a state directory (prompts.json, an older
 * directory's experience-library.json, and the LanceDB library under db/, by each file's path and
 * size): a directory evolved again in place digests otherwise, so an eval's resume is refused
 * rather than mixing runs of the old state with the new (Workflow.artifacts).
 */
export function stateDigest(dir: string): string {
  const hash = createHash('sha1');
  for (const name of [STATE_FILES.prompts, STATE_FILES.library]) {
    const file = join(dir, name);
    hash.update(`${name}\u0000${existsSync(file) ? readFileSync(file) : ''}\u0000`);
  }
  const walk = (rel: string): void => {
    const abs = join(dir, rel);
    if (!existsSync(abs)) return;
    for (const entry of readdirSync(abs, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(rel, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(`${path}\u0000${statSync(join(dir, path)).size}\u0000`);
    }
  };
  walk('db');
  return hash.digest('hex');
}

/** A state directory's JSON files: `experience-library.json` (absent in a directory with the LanceDB library: see readHeraState) and `prompts.json`. */
export function loadHeraState(dir: string): HeraState {
  if (!existsSync(dir)) throw new InputError(`HERA state directory ${dir} does not exist`, { file: dir });
  const libraryFile = join(dir, STATE_FILES.library);
  const library = existsSync(libraryFile) ? loadExperienceLibrary(libraryFile) : [];
  return { library, prompts: loadEvolvedPrompts(dir) };
}

/** A state directory's `prompts.json`, or none. */
export function loadEvolvedPrompts(dir: string): EvolvedPrompt[] {
  const promptsFile = join(dir, STATE_FILES.prompts);
  let prompts: EvolvedPrompt[] = [];
  if (existsSync(promptsFile)) {
    const parsed = evolvedPromptsFileSchema.safeParse(readJsonFile(promptsFile));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.join('.');
      throw new InputError(`evolved prompts ${promptsFile}: ${field ? `${field}: ` : ''}${issue.message}`, { file: promptsFile, ...(field ? { field } : {}) });
    }
    prompts = parsed.data.prompts;
  }
  return prompts;
}
