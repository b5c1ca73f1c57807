import { appendFileSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError, makeDirectory } from '@multihop/core';
import { inPart, parsePart } from '@multihop/datasets';
import type { RolloutRecord } from '@multihop/core';
import { methodCatalog } from '../methods';
import { openCorpus, type Setting } from '../corpus';
import { resolveModel } from '../model';
import { checkJsonlLog } from '../eval/jsonl';
import { onPath, sayOnInterrupt, type Io } from '../io';

export interface RolloutsCommandOptions {
  workflow: string;
  dataset: string;
  group?: number;
  /** The sampling temperature of candidates 1…G−1 (core's ROLLOUT_TEMPERATURE when not given). */
  temperature?: number;
  /** Skip the first questions of the file; then `limit`; then keep part K of N by id (`--part`). */
  offset?: number;
  limit?: number;
  part?: string;
  out?: string;
  /** Append to an existing --out, skipping the questions already in it. */
  resume?: boolean;
  /** Overwrite an existing --out (and the --sft files). */
  force?: boolean;
  setting: Setting;
  model?: string;
  db?: string;
  /** A directory for supervised warm-start data: `<role>.jsonl` of chat examples from successful episodes (methods whose trainer offers it). */
  sft?: string;
}

/**
 * Training rollouts of a method whose manifest has a trainer (OPERA's MAPGRPO, MAO-ARAG's PPO, MMOA-RAG's MAPPO): for each
 * question and role, G sampled candidates with the role's prompt, the completion, reward
 * components, total reward and group-relative advantage, one JSONL line each, for a trainer
 * (TRL, verl) to consume. No weights are updated here.
 */
export async function rolloutsCommand(io: Io, options: RolloutsCommandOptions): Promise<number> {
  const catalog = methodCatalog();
  const trainable = catalog.trainable;
  // A method is named by its id or by its full workflow's id (they coincide for OPERA).
  const method = trainable.find((m) => m.id === options.workflow || catalog.find(options.workflow)?.method === m);
  if (!method?.trainer) {
    const names = trainable.map((m) => `${m.id} (${m.trainer!.algorithm})`).join(', ') || 'none installed';
    throw new ConfigError(`rollouts are defined for methods that train their agents: ${names}; got "${options.workflow}"`);
  }
  const trainer = method.trainer;
  if (options.group === undefined || !Number.isInteger(options.group) || options.group < 2) {
    throw new ConfigError(`--group must be an integer of at least 2 (GRPO compares candidates within a group), got ${options.group ?? 'nothing'}`);
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 1)) throw new ConfigError(`--limit must be a positive integer, got ${options.limit}`);
  if (options.offset !== undefined && (!Number.isInteger(options.offset) || options.offset < 0)) throw new ConfigError(`--offset must be a non-negative integer, got ${options.offset}`);
  const part = options.part !== undefined ? parsePart(options.part) : undefined;
  if (options.temperature !== undefined && !(options.temperature >= 0 && options.temperature <= 2)) throw new ConfigError(`--temperature must be a number from 0 to 2, got ${options.temperature}`);
  if (!options.out) throw new ConfigError('rollouts needs --out FILE.jsonl');
  if (options.sft && !trainer.sftExamples) throw new ConfigError(`--sft: ${method.id}'s trainer offers no warm-start export`);
  // Before any corpus is opened or model called: what --out already holds is never lost by accident.
  const out = resolve(options.out);
  const held = existingRollouts(out, options, trainer.stages.map((s) => s.role));
  const done = new Set(held.map((r) => r.question_id));
  const model = resolveModel(options.model);
  const corpus = await openCorpus({ dataset: options.dataset, setting: options.setting, db: options.db });
  // Still before any model call: a file of another dataset's questions is not added to.
  const otherSource = held.find((r) => r.data_source !== corpus.dataset.name);
  if (otherSource) {
    corpus.close();
    throw new ConfigError(`--out ${out} holds rollouts of ${otherSource.data_source} (question ${otherSource.question_id}), not of ${corpus.dataset.name}: --resume adds to a file of the same dataset; give another --out`);
  }
  let finished = 0;
  const quiet = sayOnInterrupt(io, () => `rollouts: interrupted; ${out} keeps the ${done.size + finished} question${done.size + finished === 1 ? '' : 's'} finished: the same command with --resume adds the rest`);
  try {
    const offset = options.offset ?? 0;
    const all = corpus.dataset.questions.slice(offset, offset + (options.limit ?? corpus.dataset.questions.length)).filter((q) => inPart(q.id, part));
    if (all.length === 0) throw new ConfigError(`no questions in ${corpus.dataset.name} from --offset ${offset}${part ? ` in part ${part.part}/${part.of}` : ''} (it has ${corpus.dataset.questions.length})`);
    const questions = all.filter((q) => !done.has(q.id));
    io.err(`rollouts: ${method.id} (${trainer.algorithm} stages ${trainer.stages.map((s) => s.role).join(' → ')}), G = ${options.group}, ${questions.length} ${corpus.dataset.name} questions, model: ${model.label}`);
    if (done.size) io.err(`rollouts: resuming ${out}: ${all.length - questions.length} of ${all.length} questions already in it`);
    if (model.offline) io.err('rollouts: the offline model samples by a seeded perturbation; these rollouts exercise the pipeline, they are not a policy');
    makeDirectory(dirname(out));
    // Each question's groups are appended as soon as they are sampled: a failure later loses nothing before it.
    if (!options.resume) onPath(out, () => writeFileSync(out, ''));
    const sftDir = options.sft ? resolve(options.sft) : undefined;
    if (sftDir) {
      makeDirectory(sftDir);
      for (const stage of trainer.stages) {
        const file = join(sftDir, `${stage.role}.jsonl`);
        if (!options.resume || !existsSync(file)) onPath(file, () => writeFileSync(file, ''));
      }
    }
    const sftCounts = new Map<string, number>();
    let written = 0;
    const groups = new Map<string, number>();
    for (const question of questions) {
      const records: RolloutRecord[] = await trainer.collectRollouts(question, {
        model: model.port,
        retriever: corpus.retrieverFor(question),
        group: options.group,
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        dataset: corpus.dataset.name,
      });
      if (records.length) onPath(out, () => appendFileSync(out, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`));
      if (sftDir && trainer.sftExamples) {
        for (const example of trainer.sftExamples(records)) {
          const file = join(sftDir, `${example.role}.jsonl`);
          onPath(file, () => appendFileSync(file, `${JSON.stringify({ messages: example.messages })}\n`));
          sftCounts.set(example.role, (sftCounts.get(example.role) ?? 0) + 1);
        }
      }
      written += records.length;
      finished += 1;
      // A group is a question's G candidates for a role; MAO-ARAG's later planning turns of one sample are records, not groups.
      for (const r of records) if (r.sample === 0 && isTopGroup(r)) groups.set(r.role, (groups.get(r.role) ?? 0) + 1);
    }
    io.out(
      `wrote ${written} candidates to ${out}: ${trainer.stages.map((s) => `stage ${s.stage} ${s.role} ${groups.get(s.role) ?? 0} groups`).join(', ')}`,
    );
    if (sftDir) io.out(`wrote warm-start examples to ${sftDir}: ${trainer.stages.map((s) => `${s.role}.jsonl ${sftCounts.get(s.role) ?? 0}`).join(', ')}`);
    return 0;
  } finally {
    quiet();
    corpus.close();
  }
}

/** A question's group for a role (`<question>/<role>`), not one sample's later turn (`…/sample-0/turn-2`). */
function isTopGroup(record: Pick<RolloutRecord, 'group_id'>): boolean {
  return !/\/sample-\d+\//.test(record.group_id);
}

/**
 * What an existing --out holds: refused unless --resume (its questions are skipped) or --force (it
 * is overwritten). A directory, or a path through a file, is refused with the errno a write would
 * have met. On --resume, a file of another method's roles or another --group is refused, and a
 * question whose lines a kill tore (its write cut short: the torn line, or a group with fewer than
 * G candidates) is taken out of the file, so it runs again whole.
 */
function existingRollouts(out: string, options: RolloutsCommandOptions, roles: readonly string[]): RolloutRecord[] {
  if (options.resume && options.force) throw new ConfigError('give --resume (append to --out) or --force (overwrite it), not both');
  let stat;
  try {
    stat = statSync(out);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') throw new ConfigError(`--out ${out}: a part of the path is a file, not a directory (ENOTDIR)`);
    throw error;
  }
  if (stat.isDirectory()) throw new ConfigError(`--out ${out} is a directory (EISDIR); rollouts writes one JSONL file, e.g. --out ${join(out, 'rollouts.jsonl')}`);
  if (options.force || stat.size === 0 || !stat.isFile()) return [];
  const log = checkJsonlLog<RolloutRecord>(out, ['question_id', 'group_id', 'role', 'sample', 'data_source']);
  const rows = log.rows;
  if (!options.resume) {
    const questions = new Set(rows.map((r) => r.question_id)).size;
    throw new ConfigError(
      `--out ${out} already holds ${rows.length} rollouts of ${questions} questions; give --resume to add the questions not yet in it, or --force to overwrite it (or another --out)`,
    );
  }
  const foreign = rows.find((r) => !roles.includes(r.role));
  if (foreign) throw new ConfigError(`--out ${out} holds rollouts of the role ${foreign.role} (question ${foreign.question_id}), which this method's trainer has not (${roles.join(', ')}): --resume adds to a file of the same method; give another --out`);
  const samples = new Map<string, { question: string; seen: Set<number> }>();
  for (const r of rows.filter(isTopGroup)) {
    const group = samples.get(r.group_id) ?? { question: r.question_id, seen: new Set<number>() };
    group.seen.add(r.sample);
    samples.set(r.group_id, group);
  }
  const largest = Math.max(0, ...[...samples.values()].map((g) => Math.max(...g.seen) + 1));
  if (largest !== options.group) throw new ConfigError(`--out ${out} holds groups of ${largest} candidates, and this run asks --group ${options.group}: --resume adds groups of the same size; give --group ${largest}, or another --out`);
  // A write a kill cut short: the question named in the torn line, and any with a group short of G candidates.
  const torn = new Set<string>();
  const named = /"question_id":"((?:[^"\\]|\\.)*)"/.exec(log.torn)?.[1] ?? /^\{"group_id":"((?:[^"\\/]|\\.)*)\//.exec(log.torn)?.[1];
  if (named !== undefined) torn.add(JSON.parse(`"${named}"`) as string);
  for (const group of samples.values()) if (group.seen.size < options.group) torn.add(group.question);
  if (torn.size === 0) {
    log.repair();
    return rows;
  }
  const kept = rows.filter((r) => !torn.has(r.question_id));
  onPath(out, () => writeFileSync(out, kept.map((r) => `${JSON.stringify(r)}\n`).join('')));
  return kept;
}
