import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '@multihop/core';
import type { RolloutRecord } from '@multihop/core';
import type { Io } from '../io';
import { methodCatalog } from '../methods';
import { openCorpus, type Setting } from '../corpus';
import { resolveModel } from '../model';

export interface RolloutsCommandOptions {
  workflow: string;
  dataset: string;
  group?: number;
  limit?: number;
  out?: string;
  setting: Setting;
  model?: string;
  db?: string;
  /** A directory for supervised warm-start data: `<role>.jsonl` of chat examples from successful episodes (methods whose trainer offers it). */
  sft?: string;
}

/**
 * Training rollouts of a method whose manifest has a trainer (OPERA's MAPGRPO today): for each
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
  if (!options.out) throw new ConfigError('rollouts needs --out FILE.jsonl');
  const model = resolveModel(options.model);
  const corpus = await openCorpus({ dataset: options.dataset, setting: options.setting, db: options.db });
  try {
    const questions = corpus.dataset.questions.slice(0, options.limit ?? corpus.dataset.questions.length);
    io.err(`rollouts: ${method.id} (${trainer.algorithm} stages ${trainer.stages.map((s) => s.role).join(' → ')}), G = ${options.group}, ${questions.length} ${corpus.dataset.name} questions, model: ${model.label}`);
    if (model.offline) io.err('rollouts: the offline model samples by a seeded perturbation; these rollouts exercise the pipeline, they are not a policy');
    const out = resolve(options.out);
    mkdirSync(dirname(out), { recursive: true });
    // Each question's groups are appended as soon as they are sampled: a failure later loses nothing before it.
    writeFileSync(out, '');
    if (options.sft && !trainer.sftExamples) throw new ConfigError(`--sft: ${method.id}'s trainer offers no warm-start export`);
    const sftDir = options.sft ? resolve(options.sft) : undefined;
    if (sftDir) {
      mkdirSync(sftDir, { recursive: true });
      for (const stage of trainer.stages) writeFileSync(join(sftDir, `${stage.role}.jsonl`), '');
    }
    const sftCounts = new Map<string, number>();
    let written = 0;
    const groups = new Map<string, number>();
    for (const question of questions) {
      const records: RolloutRecord[] = await trainer.collectRollouts(question, {
        model: model.port,
        retriever: corpus.retrieverFor(question),
        group: options.group,
        dataset: corpus.dataset.name,
      });
      if (records.length) appendFileSync(out, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
      if (sftDir && trainer.sftExamples) {
        for (const example of trainer.sftExamples(records)) {
          appendFileSync(join(sftDir, `${example.role}.jsonl`), `${JSON.stringify({ messages: example.messages })}\n`);
          sftCounts.set(example.role, (sftCounts.get(example.role) ?? 0) + 1);
        }
      }
      written += records.length;
      for (const r of records) groups.set(r.role, (groups.get(r.role) ?? 0) + (r.sample === 0 ? 1 : 0));
    }
    io.out(
      `wrote ${written} candidates to ${out}: ${trainer.stages.map((s) => `stage ${s.stage} ${s.role} ${groups.get(s.role) ?? 0} groups`).join(', ')}`,
    );
    if (sftDir) io.out(`wrote warm-start examples to ${sftDir}: ${trainer.stages.map((s) => `${s.role}.jsonl ${sftCounts.get(s.role) ?? 0}`).join(', ')}`);
    return 0;
  } finally {
    corpus.close();
  }
}
