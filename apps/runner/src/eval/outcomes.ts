import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, InputError, type EvalOutcome, type EvalSource } from '@multihop/core';
import { inPart, type QuestionPart } from '@multihop/datasets';
import { readJsonlLog } from './jsonl';
import { legacyJudgeKey, verdictIndex, type Judgement } from './judging';
import { latestRows, rowTokens, scoredAsWrong, scoredMetrics, type ResultRow, type RunConfig } from './ResultsLog';
import type { Summary } from './summarize';

/**
 * A finished eval directory (`multihop eval --out DIR`) as training data: one outcome per
 * question × workflow, with the judge's verdict where there is one. Read-only: a torn last line
 * (an eval still running) is left out, not repaired.
 */
export function readEvalOutcomes(dir: string, part?: QuestionPart): { outcomes: EvalOutcome[]; source: EvalSource } {
  const root = resolve(dir);
  if (!existsSync(root)) throw new ConfigError(`--from ${dir}: does not exist (give the --out directory of a finished multihop eval)`);
  if (!statSync(root).isDirectory()) throw new ConfigError(`--from ${dir}: not a directory (give the --out directory of a finished multihop eval)`);
  const runFile = join(root, 'run.json');
  const resultsFile = join(root, 'results.jsonl');
  if (!existsSync(runFile) || !existsSync(resultsFile)) throw new ConfigError(`--from ${dir}: no run.json and results.jsonl here; is it the --out directory of a multihop eval?`);
  let config: RunConfig;
  try {
    config = JSON.parse(readFileSync(runFile, 'utf8')) as RunConfig;
  } catch (error) {
    throw new InputError(`${runFile}: not valid JSON (${(error as Error).message})`, { file: runFile });
  }
  // The question's text too: a trainer reads its features from it.
  const rows = readJsonlLog<ResultRow>(resultsFile, ['workflow', 'questionId', 'question', 'status', 'metrics', 'usage'], { repair: false });
  if (rows.length === 0) throw new ConfigError(`--from ${dir}: results.jsonl holds no results yet`);
  // The latest line of each pair wins, as in the eval itself (a retried pair supersedes its failure).
  const latest = latestRows(rows);
  const summaryFile = join(root, 'summary.json');
  let summary: Partial<Summary> | undefined;
  try {
    summary = existsSync(summaryFile) ? (JSON.parse(readFileSync(summaryFile, 'utf8')) as Partial<Summary>) : undefined;
  } catch (error) {
    throw new InputError(`${summaryFile}: not valid JSON (${(error as Error).message})`, { file: summaryFile });
  }
  // The verdicts the eval's own summary counted: its judge's, on each row's current answer (as JudgeLog matches them).
  const judgements = readJsonlLog<Judgement>(join(root, 'judgements.jsonl'), ['workflow', 'questionId', 'judge', 'key'], { repair: false });
  // Its judge's key, and its bare model id, under which an eval written before keys were told apart by set-up kept them (newest wins).
  const judge = summary?.judge?.model ?? judgements.at(-1)?.judge;
  const judges = [...new Set([summary?.judge?.key, judge].filter((j): j is string => j !== undefined))];
  const judgementsFile = join(root, 'judgements.jsonl');
  for (const j of judgements) {
    if (judges.includes(j.judge) && j.correct !== 0 && j.correct !== 1 && j.correct !== null) {
      throw new InputError(`${judgementsFile}: field \`correct\` of the verdict on ${j.workflow}, question ${j.questionId}: ${JSON.stringify(j.correct)}, expected 0, 1 or null`, { file: judgementsFile, field: 'correct' });
    }
  }
  // Verdicts of an earlier judge prompt are not this one's (judgeKey): an eval judged before version 4
  // is judged again by re-running it, not trained on as if it had no verdicts (the trainer would fall back to F1).
  const verdictOn = verdictIndex(judgements, judges);
  const judged = new Map(latest.map((row) => [row, verdictOn(row)]));
  const current = [...judged.values()].filter((v) => v !== undefined).length;
  const older = latest.filter((row) => verdictOn(row, legacyJudgeKey(row)) !== undefined).length;
  if (older > current) {
    throw new ConfigError(
      `--from ${dir}: ${older} of its answers were judged with an earlier version of the judge prompt (before judge.correctness version 4, which shows a gold answer's aliases as alternatives); re-run the eval that wrote it with the same --out to judge them again (no pair runs again), then train`,
    );
  }
  const outcomes: EvalOutcome[] = latest.filter((row) => inPart(row.questionId, part)).map((row) => {
    // A failure of the workflow's own is a wrong answer to learn from; any other says nothing about the question.
    const own = scoredAsWrong(row);
    const { em, f1 } = scoredMetrics(row).metrics;
    const tokens = rowTokens(row);
    const bad = !(typeof f1 === 'number' && f1 >= 0 && f1 <= 1) ? `field \`metrics.f1\`: ${JSON.stringify(f1)}, expected a number in [0, 1]` : !(Number.isFinite(tokens) && tokens >= 0) ? `field \`usage\`: ${tokens} tokens, expected a count ≥ 0` : undefined;
    if (bad) throw new InputError(`${resultsFile}: ${row.workflow}, question ${row.questionId}: ${bad}`, { file: resultsFile });
    return {
      dataset: config.dataset,
      questionId: row.questionId,
      question: row.question,
      workflow: row.workflow,
      correct: own ? 0 : (judged.get(row)?.correct ?? null),
      em,
      f1,
      tokens,
      llmCalls: row.usage.llmCalls,
      latencyMs: row.latencyMs,
      status: row.status,
      ...(own ? { ownFailure: true as const } : {}),
    };
  });
  const questionIds = [...new Set(outcomes.map((o) => o.questionId))];
  return {
    outcomes,
    source: {
      dir,
      dataset: config.dataset,
      setting: config.setting,
      model: config.model,
      ...(judge ? { judge } : {}),
      offset: summary?.offset ?? 0,
      ...(part ?? summary?.part ? { part: part ?? summary!.part! } : {}),
      questions: questionIds.length,
      questionIds,
      workflows: [...new Set(outcomes.map((o) => o.workflow))],
      ...(config.settings ? { workflowSettings: config.settings } : {}),
      ...(config.budget ? { budget: config.budget as Record<string, number> } : {}),
    },
  };
}
