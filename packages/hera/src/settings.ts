import { z } from 'zod';

/**
 * HERA's settings. From the paper (hera.md §4): top-5 passages per retrieval step. From the
 * issue: one repair round for an invalid topology. The paper leaves the rest open; this
 * package's choices: a topology of at most 12 steps, at most 4 sub-questions, at most 5
 * insights per query, an insight redundant with a kept one when they share 60% of their
 * content words, the 20 entries with the most similar embedded profiles competing by utility.
 * `state` and `experienceLibrary` are empty by default: an empty library.
 */
export const HERA_DEFAULTS = { topK: 5, maxRepairs: 1, maxSteps: 12, maxSubQuestions: 4, maxExperiences: 5, experienceRedundancy: 0.6, experienceCandidates: 20, state: '', experienceLibrary: '' };

const common = {
  topK: z.number().int().min(1).default(HERA_DEFAULTS.topK).describe('passages per retrieval step (the paper: top-5)'),
  maxRepairs: z.number().int().min(0).default(HERA_DEFAULTS.maxRepairs).describe('repair rounds for an invalid topology before the fallback runs'),
  maxSteps: z.number().int().min(1).default(HERA_DEFAULTS.maxSteps).describe('most steps a topology may have'),
  maxSubQuestions: z.number().int().min(1).default(HERA_DEFAULTS.maxSubQuestions).describe('most sub-questions the Query Decomposer keeps'),
  state: z.string().default(HERA_DEFAULTS.state).describe('a HERA state directory written by the learning loop (the library table db/experience_library, or an older experience-library.json; prompts.json); "" = none'),
};

const library = {
  maxExperiences: z.number().int().min(0).default(HERA_DEFAULTS.maxExperiences).describe('most insights retrieved from the experience library per query'),
  experienceRedundancy: z.number().min(0).max(1).default(HERA_DEFAULTS.experienceRedundancy).describe('content-word overlap (Jaccard) at which an insight is redundant with a kept one'),
  experienceCandidates: z.number().int().min(1).default(HERA_DEFAULTS.experienceCandidates).describe('the entries (query type, complexity within one level) with the most similar embedded profiles that compete by utility'),
  experienceLibrary: z.string().default(HERA_DEFAULTS.experienceLibrary).describe('an experience library JSON file; "" = the state directory\'s, or an empty library'),
};

/** `hera` and `hera-no-rope`: every setting. */
export const heraSettingsSchema = z.object({ ...common, ...library });

/** `hera-no-library`: no experience retrieval, so no library settings. */
export const heraNoLibrarySettingsSchema = z.object(common);
