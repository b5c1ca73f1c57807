import { ConfigError, fileSha1, withDefaults, type ChatMessage, type Embedder, type Workflow } from '@multihop/core';
import { AGENT_PROMPTS } from './evolve/rope';
import { defineGraphWorkflow } from '@multihop/engine-langgraph';
import type { Prompt } from '@multihop/prompts';
import { loadExperienceLibrary, loadHeraState, stateDigest, type EvolvedPrompt, type ExperienceEntry } from './experience';
import { EMPTY_EXPERIENCES, ExperienceStore, lazyStoreSource, MemoryExperienceSource, type ExperienceSource } from './experienceStore';
import { buildHeraGraph, type HeraSettings } from './graph';
import type { RawTopology, TopologyStep } from './topology';
import type { Blackboard } from './agents/Blackboard';
import { HERA_DEFAULTS, heraNoLibrarySettingsSchema, heraSettingsSchema } from './settings';
import { HERA_PAPER, variantId, variantTitle, type HeraVariant } from './variants';

export { HERA_DEFAULTS };

/** HERA's options that are not settings (what a library caller or the learning loop passes). */
const HERA_OPTIONS = ['state', 'embedder', 'experienceSource', 'experienceLibrary', 'library', 'evolvedPrompts', 'sample', 'topology'] as const satisfies readonly Exclude<keyof HeraOptions, keyof HeraSettings>[];

/** Fails to compile when an option is added to HeraOptions and not to HERA_OPTIONS (it would be refused at run time). */
type AllListed<Unlisted extends never> = Unlisted;
type HeraOptionsListed = AllListed<Exclude<Exclude<keyof HeraOptions, keyof HeraSettings>, (typeof HERA_OPTIONS)[number]>>;

export interface HeraOptions extends Partial<HeraSettings> {
  /** A state directory written by the learning loop: its library (the LanceDB table's latest round, or an older directory's JSON) and evolved prompts. */
  state?: string;
  /** Embeds library and query profiles for experience retrieval (default: @multihop/retriever's HashingEmbedder); must be the one a state directory's table was written with. */
  embedder?: Embedder;
  /** The library as a search source (the learning loop passes its LanceDB table); overrides `library` and the files. */
  experienceSource?: ExperienceSource;
  /** An experience library file; overrides the state directory's library. */
  experienceLibrary?: string;
  /** An experience library in memory; overrides both files. */
  library?: readonly ExperienceEntry[];
  /** Evolved prompts in memory; override the state directory's. */
  evolvedPrompts?: readonly EvolvedPrompt[];
  /** The learning loop's group rollouts: the orchestrator's sample index (0 = greedy). */
  sample?: number;
  /** The learning loop: run this topology instead of the orchestrator's (mutation candidates, RoPE replays). */
  topology?: RawTopology;
}

/** A prompt whose system message is RoPE's evolved role prompt (the version says which generation). */
export function applyEvolvedPrompt<P extends Prompt<unknown>>(prompt: P, evolved: EvolvedPrompt): P {
  return {
    ...prompt,
    version: `${prompt.version}+rope.${evolved.generation}`,
    system: evolved.system,
    render(vars: Record<string, unknown>): ChatMessage[] {
      const messages = prompt.render(vars).filter((m) => m.role !== 'system');
      return [{ role: 'system', content: evolved.system }, ...messages];
    },
  };
}

/** Each executed step's agent and a one-line account of its work, for the Reflect Agent and the blame (the learning loop). */
function stepSummaries(order: readonly TopologyStep[], outputs: Record<string, Blackboard>): Array<{ step: string; agent: string; output: string }> {
  return order.flatMap((s) => {
    const board = outputs[s.step];
    if (!board) return [];
    let output: string;
    if (s.agent === 'Query Decomposer') output = `sub-questions: ${board.subQuestions.join(' | ')}`;
    else if (s.agent === 'Retriever' || s.agent === 'Evidence Selector') output = `passages: ${board.passages.map((p) => p.title).join(' | ')}`;
    else if (s.agent === 'Query Rewriter') output = `search: ${board.searchQuery ?? ''}`;
    else if (s.agent === 'Context Validator') output = board.sufficient ? 'sufficient' : `missing: ${board.followUps.join(' | ')}`;
    else if (s.agent === 'Conclude Agent') output = `answer: ${board.conclusion ?? ''}`;
    else output = `answers: ${[...Object.entries(board.subAnswers).map(([k, v]) => `${k}=${v}`), ...board.answers].join(' | ')}`;
    return [{ step: s.step, agent: s.agent, output }];
  });
}

/**
 * A HERA workflow on LangGraph. `hera` retrieves experience and applies evolved prompts;
 * `hera-no-library` retrieves none; `hera-no-rope` applies none. With no state directory and
 * no library (the defaults) the library is empty and no prompt is evolved, so today the three
 * differ only in `hera-no-library`'s missing `retrieve_experience` node.
 */
export function createHeraWorkflow(variant: HeraVariant = 'full', options: HeraOptions = {}): Workflow {
  const pick = <K extends keyof HeraSettings>(key: K): HeraSettings[K] => (options[key] ?? HERA_DEFAULTS[key]) as HeraSettings[K];
  const settings: HeraSettings = {
    topK: pick('topK'),
    maxRepairs: pick('maxRepairs'),
    maxSteps: pick('maxSteps'),
    maxSubQuestions: pick('maxSubQuestions'),
    maxExperiences: pick('maxExperiences'),
    experienceRedundancy: pick('experienceRedundancy'),
    experienceCandidates: pick('experienceCandidates'),
  };
  // Every setting given is held to the schema `--set` is checked by, so a library caller's hera({ topK: 0 }) is refused here.
  withDefaults(HERA_DEFAULTS, options, { workflow: variantId(variant), schema: variant === 'no-library' ? heraNoLibrarySettingsSchema : heraSettingsSchema, options: HERA_OPTIONS });
  // A state directory with the LanceDB library is searched there (opened at the first query);
  // an older one's experience-library.json, a library file or an in-memory library, in memory.
  const state = options.state ? loadHeraState(options.state) : undefined;
  const withLibrary = variant !== 'no-library';
  const experiences = (): ExperienceSource => {
    if (!withLibrary) return EMPTY_EXPERIENCES;
    if (options.experienceSource) return options.experienceSource;
    const inMemory = options.library ?? (options.experienceLibrary ? loadExperienceLibrary(options.experienceLibrary) : undefined);
    if (inMemory) return new MemoryExperienceSource(inMemory, options.embedder);
    if (!options.state || !state) return EMPTY_EXPERIENCES;
    return ExperienceStore.exists(options.state) ? lazyStoreSource(options.state, options.embedder) : new MemoryExperienceSource(state.library, options.embedder);
  };
  const source = experiences();
  const evolved = variant === 'no-rope' ? [] : (options.evolvedPrompts ?? state?.prompts ?? []);
  // An evolved prompt for an id no agent calls would be listed as applied and used by none (hera-answerer for hera.answer, say).
  const agentPrompts = Object.values(AGENT_PROMPTS).map((p) => p.id);
  const unknown = evolved.find((e) => !agentPrompts.includes(e.promptId));
  if (unknown) {
    throw new ConfigError(`HERA evolved prompt "${unknown.promptId}"${options.state ? ` (${options.state}/prompts.json)` : ''} is no agent's prompt; the agents' prompt ids: ${agentPrompts.join(', ')}`);
  }
  const byId = new Map(evolved.map((e) => [e.promptId, e]));
  const promptFor = <P extends Prompt<unknown>>(prompt: P): P => {
    const e = byId.get(prompt.id);
    return e ? applyEvolvedPrompt(prompt, e) : prompt;
  };
  const workflow = defineGraphWorkflow({
    id: variantId(variant),
    title: variantTitle(variant),
    paper: HERA_PAPER,
    graph: buildHeraGraph(settings, { withLibrary }),
    // profile, experience, orchestrate, validate, (repair, validate)×maxRepairs, fallback, then
    // per layer dispatch, layer, agents; the topology's step bound ends the run, this guards a bug.
    recursionLimit: 12 + 2 * settings.maxRepairs + 3 * (settings.maxSteps + 1),
    runtime: () => ({ promptFor, experiences: source, ...(options.sample ? { sample: options.sample } : {}), ...(options.topology ? { forcedTopology: options.topology } : {}) }),
    input: (query) => ({ question: query.text, maxRepairs: settings.maxRepairs }),
    output: (final) => ({
      answer: final.answer,
      data: {
        profile: final.queryProfile,
        topology: final.topology,
        topologySource: final.source,
        attempts: final.attempts,
        layers: final.layers,
        steps: stepSummaries(final.topology?.execution_order ?? [], final.outputs),
        experiences: final.experiences.map((e) => ({ id: e.id, utility: e.utility })),
        evolvedPrompts: [...byId.values()].map((e) => ({ promptId: e.promptId, generation: e.generation })),
        settings: { ...settings, state: options.state ?? '', experienceLibrary: options.experienceLibrary ?? '', library: final.librarySize },
      },
    }),
  });
  // What it reads besides its settings: an eval refuses to resume after a state directory was
  // evolved again, or a library file rewritten, in place.
  const artifacts = {
    ...(options.state ? { [options.state]: stateDigest(options.state) } : {}),
    ...(options.experienceLibrary && !options.library && !options.experienceSource ? { [options.experienceLibrary]: fileSha1(options.experienceLibrary) } : {}),
  };
  return Object.keys(artifacts).length ? { ...workflow, artifacts } : workflow;
}

/** `hera`: experience retrieved from the library, evolved prompts applied. */
export const hera = (options?: HeraOptions) => createHeraWorkflow('full', options);
/** `hera-no-library`: no experience retrieved (the ablation without the library). */
export const heraNoLibrary = (options?: HeraOptions) => createHeraWorkflow('no-library', options);
/** `hera-no-rope`: no evolved prompt applied (the ablation without RoPE). */
export const heraNoRope = (options?: HeraOptions) => createHeraWorkflow('no-rope', options);
