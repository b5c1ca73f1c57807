import type { ChatMessage, Workflow } from '@multihop/core';
import { defineGraphWorkflow } from '@multihop/engine-langgraph';
import type { Prompt } from '@multihop/prompts';
import { loadExperienceLibrary, loadHeraState, type EvolvedPrompt, type ExperienceEntry } from './experience';
import { buildHeraGraph, type HeraSettings } from './graph';
import { HERA_DEFAULTS } from './settings';
import { HERA_PAPER, variantId, variantTitle, type HeraVariant } from './variants';

export { HERA_DEFAULTS };

export interface HeraOptions extends Partial<HeraSettings> {
  /** A state directory written by the learning loop: its library and evolved prompts. */
  state?: string;
  /** An experience library file; overrides the state directory's library. */
  experienceLibrary?: string;
  /** An experience library in memory; overrides both files. */
  library?: readonly ExperienceEntry[];
  /** Evolved prompts in memory; override the state directory's. */
  evolvedPrompts?: readonly EvolvedPrompt[];
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
  };
  const state = options.state ? loadHeraState(options.state) : { library: [], prompts: [] };
  const withLibrary = variant !== 'no-library';
  const library: readonly ExperienceEntry[] = !withLibrary ? [] : (options.library ?? (options.experienceLibrary ? loadExperienceLibrary(options.experienceLibrary) : state.library));
  const evolved = variant === 'no-rope' ? [] : (options.evolvedPrompts ?? state.prompts);
  const byId = new Map(evolved.map((e) => [e.promptId, e]));
  const promptFor = <P extends Prompt<unknown>>(prompt: P): P => {
    const e = byId.get(prompt.id);
    return e ? applyEvolvedPrompt(prompt, e) : prompt;
  };
  return defineGraphWorkflow({
    id: variantId(variant),
    title: variantTitle(variant),
    paper: HERA_PAPER,
    graph: buildHeraGraph(settings, { withLibrary }),
    // profile, experience, orchestrate, validate, (repair, validate)×maxRepairs, fallback, then
    // per layer dispatch, layer, agents; the topology's step bound ends the run, this guards a bug.
    recursionLimit: 12 + 2 * settings.maxRepairs + 3 * (settings.maxSteps + 1),
    runtime: () => ({ promptFor, library }),
    input: (query) => ({ question: query.text, maxRepairs: settings.maxRepairs }),
    output: (final) => ({
      answer: final.answer,
      data: {
        profile: final.queryProfile,
        topology: final.topology,
        topologySource: final.source,
        attempts: final.attempts,
        layers: final.layers,
        experiences: final.experiences.map((e) => ({ id: e.id, utility: e.utility })),
        evolvedPrompts: [...byId.values()].map((e) => ({ promptId: e.promptId, generation: e.generation })),
        settings: { ...settings, state: options.state ?? '', experienceLibrary: options.experienceLibrary ?? '', library: library.length },
      },
    }),
  });
}
