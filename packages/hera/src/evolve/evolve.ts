import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { candidateModel, makeDirectory, MultihopError, readJsonFile, totalTokens, writeFileWhole, type Embedder, type ModelPort, type Question, type RetrieverPort, type RunResult } from '@multihop/core';
import { f1Score, mulberry32 } from '@multihop/metrics';
import { reflectOnGroup, type GroupRun } from '../agents/ReflectAgent';
import { EXPERIENCE_LIBRARY_FORMAT, STATE_FILES, type ExperienceEntry, type QueryProfile } from '../experience';
import { agentNamed, EXECUTION_AGENTS, type ExecutionAgent, type RawTopology, type Topology } from '../topology';
import { ExperienceStore, LIBRARY_DB, LIBRARY_TABLE } from '../experienceStore';
import { createHeraWorkflow, type HeraOptions } from '../workflows';
import { applyLibraryOperations, chooseLibraryOperations, creditUtility, type LibraryOperation } from './library';
import { mutateTopology } from './mutation';
import { heraOrchestratePrompt } from '../prompts';
import { heraBlamePrompt } from './prompts';
import { AGENT_PROMPTS, consolidate, contrastVariants, currentSystem, generateVariant, ROPE_AXIS_NAMES, type FailureRecord, type PromptDiff, type RopeAxis, type RopePrompt, type VariantResult } from './rope';

export interface EvolveSettings {
  /** Rounds over the training questions (Algorithm 1's T = rounds × questions). */
  rounds: number;
  seed: number;
  /** G: topologies per question (Algorithm 2). */
  groupSize: number;
  /** Sampling temperature of the orchestrator's topology call in samples 1…G−1 (the paper: 0.9); sample 0 stays greedy. */
  temperature: number;
  /** A run succeeds at F1 ≥ this (mixed groups, utility credit, blame). */
  successF1: number;
  /** RoPE's axes (Algorithm 5 line 3). */
  axes: RopeAxis[];
  /** K: most rules and principles in an evolved prompt. */
  maxRules: number;
  /** Most failures an agent's buffer keeps. */
  bufferSize: number;
  /** Greedy runs at F1 = 0 in a row on one query profile before TopologyMutation. */
  mutationPatience: number;
  /** A conflicting entry is pruned only at utility ≤ this. */
  pruneUtility: number;
  /** Most library entries. */
  maxLibrary: number;
  /** RoPE on (off: the library alone evolves). */
  rope: boolean;
  /** Mutation on. */
  mutation: boolean;
}

export const EVOLVE_DEFAULTS: EvolveSettings = {
  rounds: 3,
  seed: 1,
  groupSize: 4,
  temperature: 0.9,
  successF1: 0.5,
  axes: [...ROPE_AXIS_NAMES],
  maxRules: 4,
  bufferSize: 5,
  mutationPatience: 2,
  pruneUtility: 0,
  maxLibrary: 100,
  rope: true,
  mutation: true,
};

export interface RoundProgress {
  round: number;
  rounds: number;
  /** Mean F1 of the greedy runs (sample 0, Algorithm 1's τ). */
  f1: number;
  /** Mean F1 of every run of every group. */
  groupF1: number;
  /** Mean tokens per run. */
  tokens: number;
  library: number;
  mixedGroups: number;
  skippedGroups: number;
  add: number;
  merge: number;
  prune: number;
  keep: number;
  promptChanges: number;
  ropeCycles: number;
  mutations: number;
}

/** Everything the loop needs to continue: written after every question, atomically. */
interface Checkpoint {
  format: typeof CHECKPOINT_FORMAT;
  seed: number;
  questionIds: string[];
  settings: EvolveSettings;
  round: number;
  /** Questions of `round` done. */
  done: number;
  library: ExperienceEntry[];
  prompts: RopePrompt[];
  diffs: PromptDiff[];
  buffers: Record<string, FailureRecord[]>;
  zeroStreak: Record<string, number>;
  pending: Record<string, RawTopology[]>;
  nextId: number;
  acc: Omit<RoundProgress, 'round' | 'rounds' | 'library'> & { runs: number; questions: number; f1Sum: number; groupF1Sum: number; tokenSum: number };
  history: RoundProgress[];
}

export interface EvolveOptions {
  model: ModelPort;
  retrieverFor(question: Question): RetrieverPort;
  /** Training questions, with gold. Train splits only. */
  questions: readonly Question[];
  /** The state directory to write (and resume from). */
  out: string;
  settings?: Partial<EvolveSettings>;
  /** HERA's workflow settings for every run (topK, maxSteps, ...). */
  workflow?: Omit<HeraOptions, 'state' | 'library' | 'evolvedPrompts' | 'sample' | 'topology' | 'experienceLibrary' | 'experienceSource' | 'embedder'>;
  /** Embeds the library's profiles in its LanceDB table and the queries' for retrieval (default: @multihop/retriever's HashingEmbedder). */
  embedder?: Embedder;
  modelId?: string;
  dataset?: string;
  onRound?(progress: RoundProgress): void;
  /** Called after each question's checkpoint (tests interrupt here). */
  onCheckpoint?(at: { round: number; done: number }): void;
  signal?: AbortSignal;
}

const emptyAcc = (): Checkpoint['acc'] => ({ f1: 0, groupF1: 0, tokens: 0, mixedGroups: 0, skippedGroups: 0, add: 0, merge: 0, prune: 0, keep: 0, promptChanges: 0, ropeCycles: 0, mutations: 0, runs: 0, questions: 0, f1Sum: 0, groupF1Sum: 0, tokenSum: 0 });
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
const CHECKPOINT = 'checkpoint.json';
const CHECKPOINT_FORMAT = 'hera-evolve-checkpoint/1';
const PROMPTS_FORMAT = 'hera-prompts/1';
const PROMPT_DIFFS = 'prompt-diffs.jsonl';

function writeJson(file: string, value: unknown) {
  writeFileWhole(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The JSON state files in `dir`: prompts.json (which the `hera` workflow loads), prompt-diffs.jsonl,
 * and with `libraryJson` the library as experience-library.json (rounds/<n>/ only: the state
 * directory's library is its LanceDB table).
 */
function writeState(dir: string, cp: Pick<Checkpoint, 'library' | 'prompts' | 'diffs'>, libraryJson: boolean) {
  makeDirectory(dir);
  if (libraryJson) writeJson(join(dir, STATE_FILES.library), { format: EXPERIENCE_LIBRARY_FORMAT, entries: cp.library });
  // A directory written before the library moved to LanceDB: its JSON library is superseded by the table.
  else rmSync(join(dir, STATE_FILES.library), { force: true });
  writeJson(join(dir, STATE_FILES.prompts), { format: PROMPTS_FORMAT, prompts: cp.prompts });
  writeFileWhole(join(dir, PROMPT_DIFFS), cp.diffs.map((d) => JSON.stringify(d)).join('\n') + (cp.diffs.length ? '\n' : ''));
}

/**
 * The loop writes checkpoint.json, prompts.json, prompt-diffs.jsonl, db/ and rounds/ into `dir`,
 * replacing files of those names: so `dir` must be new, empty, a state directory this loop wrote
 * (it has checkpoint.json, and is resumed), or one it began and was stopped in before its first
 * checkpoint (only its own entries: db/, and prompts.json in its format). Anything else, an
 * eval's directory or a project folder given by mistake, is refused before anything is written.
 */
function checkStateDirectory(dir: string) {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new MultihopError('HERA_EVOLVE', `${dir} is a file, not a directory: give the state directory to write (a new or empty one, or one this loop wrote, to resume it)`);
  if (existsSync(join(dir, CHECKPOINT))) return;
  // Hidden files (.DS_Store, .gitkeep) say nothing about whose directory it is.
  const foreign = readdirSync(dir).sort().filter((entry) => !entry.startsWith('.') && !writtenBeforeFirstCheckpoint(dir, entry));
  if (foreign.length === 0) return;
  const shown = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? `, … (${foreign.length} entries)` : '');
  throw new MultihopError('HERA_EVOLVE', `${dir} holds files the learning loop did not write (${shown}) and is not a HERA state directory (it has no ${CHECKPOINT}): the loop would write its state files among them; give a new or empty directory, or one this loop wrote, to resume it`);
}

/** Whether `entry` of `dir` is one the loop writes before its first checkpoint (so a run stopped then can start again). */
function writtenBeforeFirstCheckpoint(dir: string, entry: string): boolean {
  const path = join(dir, entry);
  if (entry === LIBRARY_DB) return statSync(path).isDirectory() && readdirSync(path).every((e) => e === `${LIBRARY_TABLE}.lance`);
  if (entry === STATE_FILES.prompts) {
    try {
      return (readJsonFile(path) as { format?: unknown } | null)?.format === PROMPTS_FORMAT;
    } catch {
      return false;
    }
  }
  // prompt-diffs.jsonl, and the temporary files writeFileWhole leaves when a kill cuts it short.
  return entry === PROMPT_DIFFS || [CHECKPOINT, STATE_FILES.prompts, PROMPT_DIFFS].some((f) => entry === `${f}.tmp`);
}

/** The checkpoint of a state directory, refused naming the file when it is not one. */
function readCheckpoint(file: string): Checkpoint {
  let parsed: unknown;
  try {
    parsed = readJsonFile(file);
  } catch (error) {
    throw new MultihopError('HERA_EVOLVE', `cannot resume from ${file}: ${(error as Error).message}`, { cause: error });
  }
  const cp = parsed as Partial<Checkpoint> | null;
  const format = cp?.format;
  if (format !== CHECKPOINT_FORMAT) {
    throw new MultihopError('HERA_EVOLVE', `cannot resume from ${file}: its format is ${typeof format === 'string' ? `"${format}"` : 'missing'}, not "${CHECKPOINT_FORMAT}"`);
  }
  const missing: string[] = [
    ...(typeof cp?.settings === 'object' && cp.settings !== null ? [] : ['settings']),
    ...(['questionIds', 'library', 'prompts', 'diffs', 'history'] as const).filter((k) => !Array.isArray(cp?.[k])),
  ];
  if (missing.length > 0) throw new MultihopError('HERA_EVOLVE', `cannot resume from ${file}: it lacks ${missing.join(', ')} (a damaged checkpoint): give another --out, or move this directory away`);
  return parsed as Checkpoint;
}

/** The round's visiting order: a seeded shuffle, fixed by (seed, round), so a resumed round visits the same order. */
function orderOf(n: number, seed: number, round: number): number[] {
  const rng = mulberry32((seed * 1000003 + round * 7919) >>> 0);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

interface Run extends GroupRun {
  profile: QueryProfile;
  experiences: string[];
  evidence: Array<{ title: string; text: string }>;
  forced: boolean;
}

const f1Of = (result: RunResult, q: Question) => f1Score(result.answer, [q.answer, ...(q.aliases ?? [])]).f1;
const tokensOf = (r: RunResult) => totalTokens(r.usage);

/**
 * HERA's learning loop (Algorithm 1 with Algorithms 2, 3, 5 and 6): per round, every training
 * question in a seeded order gets a group of G topologies (sample 0 the orchestrator's greedy
 * one, Algorithm 1's τ, the orchestrator call with no temperature; samples 1…G−1 drawn at
 * `temperature` (0.9, the paper's), the offline model, which ignores it, from the seeded `sample`; pending mutation candidates take the last places), each executed and
 * scored by F1 and tokens. A mixed group is reflected on (ranked F1 ↓, tokens ↑) and its insights
 * update the library (ADD/MERGE/PRUNE/KEEP); every insight used gains a use, and utility for a
 * success. When τ failed, the orchestrator blames an agent, which gets the failure in its buffer
 * and a RoPE cycle; after `mutationPatience` greedy runs at F1 = 0 on a query profile, the
 * failing topology's mutations join the profile's next group. The state directory is rewritten
 * (with a checkpoint) after every question: the library as the current round's rows of the
 * LanceDB table `db/experience_library` (which the runs retrieve from), prompts.json,
 * prompt-diffs.jsonl; after every round a JSON copy goes to rounds/<n>/.
 */
export async function evolveHera(options: EvolveOptions): Promise<{ dir: string; history: RoundProgress[]; library: ExperienceEntry[]; prompts: RopePrompt[]; diffs: PromptDiff[] }> {
  if (options.questions.length === 0) throw new MultihopError('HERA_EVOLVE', 'the learning loop needs at least one training question');
  const s: EvolveSettings = { ...EVOLVE_DEFAULTS, ...Object.fromEntries(Object.entries(options.settings ?? {}).filter(([, v]) => v !== undefined)) };
  const questionIds = options.questions.map((q) => q.id);
  const dir = options.out;
  checkStateDirectory(dir);
  makeDirectory(dir);
  const cpFile = join(dir, CHECKPOINT);
  let cp: Checkpoint;
  if (existsSync(cpFile)) {
    cp = readCheckpoint(cpFile);
    const mismatch = [cp.seed !== s.seed ? `seed ${cp.seed} ≠ ${s.seed}` : '', cp.questionIds.join('|') !== questionIds.join('|') ? 'other training questions' : '', cp.settings.groupSize !== s.groupSize ? 'another group size' : ''].filter(Boolean);
    if (mismatch.length > 0) throw new MultihopError('HERA_EVOLVE', `cannot resume ${dir}: ${mismatch.join(', ')}`);
    cp.settings = { ...cp.settings, rounds: s.rounds };
  } else {
    cp = { format: CHECKPOINT_FORMAT, seed: s.seed, questionIds, settings: s, round: 1, done: 0, library: [], prompts: [], diffs: [], buffers: {}, zeroStreak: {}, pending: {}, nextId: 1, acc: emptyAcc(), history: [] };
  }
  // The library's LanceDB table (<dir>/db): rows of round n are the library after round n's
  // questions done so far; round 0 is the start. Runs retrieve from the table at that round.
  const store = await ExperienceStore.open(dir, options.embedder ? { embedder: options.embedder } : {});
  const libraryRound = () => (cp.done > 0 ? cp.round : cp.round - 1);
  try {
    // Resuming: rows past the checkpoint (a save whose checkpoint was not written) are redone;
    // the checkpoint's library is the table's current round (also for a directory written as JSON).
    await store.dropAfter(libraryRound());
    await store.write(libraryRound(), cp.library);
    return await loop();
  } finally {
    store.close();
  }

  async function save() {
    await store.write(libraryRound(), cp.library);
    writeState(dir, cp, false);
    writeJson(cpFile, { ...cp, model: options.modelId ?? options.model.modelFor('hera-orchestrator'), dataset: options.dataset ?? '' });
  }

  async function runOne(q: Question, extra: { sample?: number; topology?: RawTopology; prompts?: RopePrompt[] }): Promise<{ result: RunResult; run: Run } | undefined> {
    const workflow = createHeraWorkflow('full', {
      ...options.workflow,
      experienceSource: store.source(libraryRound()),
      evolvedPrompts: extra.prompts ?? cp.prompts,
      ...(extra.sample ? { sample: extra.sample } : {}),
      ...(extra.topology ? { topology: extra.topology } : {}),
    });
    // Samples 1…G−1 ask the orchestrator for a topology at the sampling temperature; every other call
    // (its repair round among them) keeps its role's.
    const model = extra.sample ? candidateModel(options.model, extra.sample, { temperature: s.temperature, roles: [heraOrchestratePrompt.role], prompts: [heraOrchestratePrompt.id] }) : options.model;
    const result = await workflow.run(q, { model, retriever: options.retrieverFor(q), ...(options.signal ? { signal: options.signal } : {}) });
    const topology = result.data?.['topology'] as Topology | null | undefined;
    if (result.status === 'error' || !topology) return undefined;
    return {
      result,
      run: {
        topology,
        answer: result.answer,
        f1: f1Of(result, q),
        tokens: tokensOf(result),
        steps: (result.data?.['steps'] as GroupRun['steps']) ?? [],
        profile: result.data?.['profile'] as QueryProfile,
        experiences: ((result.data?.['experiences'] as Array<{ id: string }>) ?? []).map((e) => e.id),
        evidence: result.evidence.map((e) => ({ title: e.title, text: e.text })),
        forced: extra.topology !== undefined,
      },
    };
  }

  async function loop() {
    const profileKey = (p: QueryProfile) => `${p.query_type}/${p.complexity}`;

    for (; cp.round <= s.rounds; cp.round++, cp.done = 0, cp.acc = emptyAcc()) {
      const order = orderOf(options.questions.length, s.seed, cp.round);
      for (; cp.done < order.length; ) {
        if (options.signal?.aborted) return finish(false);
        const q = options.questions[order[cp.done]!]!;
        // Algorithm 2 lines 2–8: G topologies, sample 0 greedy; pending mutation candidates of the
        // question's profile (known after the greedy run) replace the last samples.
        const first = await runOne(q, {});
        const runs: Run[] = first ? [first.run] : [];
        const key = first ? profileKey(first.run.profile) : '';
        const candidates = (cp.pending[key] ?? []).slice(0, Math.max(0, s.groupSize - 1));
        if (candidates.length > 0) delete cp.pending[key];
        for (let i = 1; i < s.groupSize; i++) {
          const forced = candidates[s.groupSize - 1 - i];
          const sample = (cp.round - 1) * s.groupSize + i;
          const r = await runOne(q, forced ? { topology: forced } : { sample });
          if (r) runs.push(r.run);
        }
        const success = (r: Run) => r.f1 >= s.successF1;
        // Algorithm 2 lines 9–14 and Algorithm 3.
        const reflection = first ? await reflectOnGroup(options.model, q.text, runs.map(({ topology, answer, f1, tokens, steps }) => ({ topology, answer, f1, tokens, steps: steps ?? [] })), s.successF1, first.run.profile) : null;
        if (reflection && first) {
          cp.acc.mixedGroups++;
          const ops = await chooseLibraryOperations(options.model, cp.library, reflection, first.run.profile);
          const updated = applyLibraryOperations(cp.library, reflection, first.run.profile, ops, { pruneUtility: s.pruneUtility, maxEntries: s.maxLibrary, nextId: cp.nextId });
          cp.library = updated.library;
          cp.nextId = updated.nextId;
          for (const c of updated.changes) cp.acc[c.operation.toLowerCase() as Lowercase<LibraryOperation>]++;
          // Algorithm 3 lines 15–19, part of the update a mixed group gets: each insight the
          // orchestrator was shown earns a use, and a success when its run succeeded. A run with a
          // forced (mutation) topology never asked the orchestrator, so its insights were not used.
          cp.library = creditUtility(cp.library, runs.filter((r) => !r.forced).map((r) => ({ experiences: r.experiences, success: success(r) })));
        } else cp.acc.skippedGroups++;

        // Algorithm 1 lines 8–11 (RoPE) and Algorithm 6 (mutation) on τ, the greedy run.
        if (first && !success(first.run)) {
          const tau = first.run;
          const blamed = await blame(options.model, q, tau);
          const buffer = (cp.buffers[blamed] ??= []);
          buffer.push({ questionId: q.id, question: q.text, answer: tau.answer, f1: tau.f1, reason: blamed, steps: tau.steps ?? [] });
          if (buffer.length > s.bufferSize) buffer.splice(0, buffer.length - s.bufferSize);
          if (s.rope) {
            cp.acc.ropeCycles++;
            if (await rope(q, blamed, tau, buffer)) cp.acc.promptChanges++;
          }
          if (s.mutation) {
            cp.zeroStreak[key] = tau.f1 === 0 ? (cp.zeroStreak[key] ?? 0) + 1 : 0;
            if (cp.zeroStreak[key]! >= s.mutationPatience) {
              const mutated = mutateTopology(tau.topology, blamed, options.workflow?.maxSteps ?? 12);
              if (mutated.length > 0) {
                cp.pending[key] = mutated.map((m) => m.topology);
                cp.acc.mutations++;
              }
              cp.zeroStreak[key] = 0;
            }
          }
        } else if (first) cp.zeroStreak[key] = 0;

        cp.acc.questions++;
        cp.acc.f1Sum += first?.run.f1 ?? 0;
        cp.acc.runs += runs.length;
        cp.acc.groupF1Sum += runs.reduce((a, r) => a + r.f1, 0);
        cp.acc.tokenSum += runs.reduce((a, r) => a + r.tokens, 0);
        cp.done++;
        await save();
        options.onCheckpoint?.({ round: cp.round, done: cp.done });
      }
      const a = cp.acc;
      const progress: RoundProgress = {
        round: cp.round,
        rounds: s.rounds,
        f1: round4(a.f1Sum / Math.max(1, a.questions)),
        groupF1: round4(a.groupF1Sum / Math.max(1, a.runs)),
        tokens: Math.round(a.tokenSum / Math.max(1, a.runs)),
        library: cp.library.length,
        mixedGroups: a.mixedGroups,
        skippedGroups: a.skippedGroups,
        add: a.add,
        merge: a.merge,
        prune: a.prune,
        keep: a.keep,
        promptChanges: a.promptChanges,
        ropeCycles: a.ropeCycles,
        mutations: a.mutations,
      };
      cp.history.push(progress);
      writeState(join(dir, 'rounds', String(cp.round)), cp, true);
      await store.compact();
      // The round is complete: the checkpoint says so before anyone hears of it.
      const next = { ...cp, round: cp.round + 1, done: 0, acc: emptyAcc() };
      writeJson(cpFile, { ...next, model: options.modelId ?? options.model.modelFor('hera-orchestrator'), dataset: options.dataset ?? '' });
      options.onRound?.(progress);
    }
    return finish(true);
  }

  async function finish(_complete: boolean) {
    await save();
    return { dir, history: cp.history, library: cp.library, prompts: cp.prompts, diffs: cp.diffs };
  }

  /** Algorithm 5 for agent `agent` on τ: variants along the axes, τ replayed with each, contrast, Π_C. True when the prompt changed. */
  async function rope(q: Question, agent: ExecutionAgent, tau: Run, buffer: FailureRecord[]): Promise<boolean> {
    const base = AGENT_PROMPTS[agent];
    const prompts = new Map(cp.prompts.map((p) => [p.promptId, p]));
    const original = currentSystem(agent, prompts);
    const results: VariantResult[] = [];
    for (const axis of s.axes) {
      const system = generateVariant(original, axis);
      const previous = prompts.get(base.id);
      const variant: RopePrompt = { promptId: base.id, system, generation: (previous?.generation ?? 0) + 1, rules: [], principles: [] };
      const replay = await runOne(q, { topology: tau.topology, prompts: [...cp.prompts.filter((p) => p.promptId !== base.id), variant] });
      if (replay) results.push({ axis, system, answer: replay.run.answer, f1: replay.run.f1, tokens: replay.run.tokens, steps: replay.run.steps ?? [] });
    }
    const best = [...results].sort((a, b) => b.f1 - a.f1 || a.tokens - b.tokens)[0];
    // Accepted only with evidence: some variant's replay beat τ's F1.
    if (!best || best.f1 <= tau.f1) return false;
    const contrast = await contrastVariants(options.model, agent, original, tau.f1, buffer, results);
    const previous = prompts.get(base.id);
    const next = consolidate(base.system ?? '', previous, { rules: contrast.operational_rules.map((r) => r.rule), principles: contrast.behavioral_principles.map((p) => p.principle) }, s.maxRules);
    const before = [...(previous?.rules ?? []), ...(previous?.principles ?? [])];
    const after = [...next.rules, ...next.principles];
    const added = after.filter((x) => !before.includes(x));
    if (added.length === 0 || next.system === original) return false;
    const generation = (previous?.generation ?? 0) + 1;
    cp.prompts = [...cp.prompts.filter((p) => p.promptId !== base.id), { promptId: base.id, system: next.system, generation, rules: next.rules, principles: next.principles }].sort((a, b) => a.promptId.localeCompare(b.promptId));
    cp.diffs.push({
      promptId: base.id,
      agent,
      generation,
      round: cp.round,
      questionId: q.id,
      added,
      removed: before.filter((x) => !after.includes(x)),
      before: original,
      after: next.system,
      evidence: { baselineF1: round4(tau.f1), variants: results.map((r) => ({ axis: r.axis, f1: round4(r.f1), tokens: r.tokens })), failures: buffer.map((f) => f.questionId) },
    });
    return true;
  }
}

/** IDENTIFYFAILEDAGENTS: the agent the orchestrator blames; an answer naming no agent of τ blames τ's answering agent. */
async function blame(model: ModelPort, q: Question, tau: Run): Promise<ExecutionAgent> {
  const { output } = await model.call({
    prompt: heraBlamePrompt,
    vars: { question: q.text, gold: q.answer, prediction: tau.answer, analysis: `F1 ${round4(tau.f1)}`, plan: tau.topology, steps: (tau.steps ?? []).map((s) => `${s.step} ${s.agent}: ${s.output}`), passages: tau.evidence.slice(0, 10) },
  });
  const named = agentNamed(output.agent);
  if (named && (EXECUTION_AGENTS as readonly string[]).includes(named) && tau.topology.selected_agents.includes(named as ExecutionAgent)) return named as ExecutionAgent;
  return tau.topology.selected_agents.includes('Conclude Agent') ? 'Conclude Agent' : 'Answer Generator';
}
