import { bootstrapMean, comparePaired, mean, percentile } from '@multihop/metrics';
import type { ResultRow } from './ResultsLog';

export interface WorkflowSummary {
  n: number;
  em: number;
  f1: number;
  acc: number;
  recall_at_5: number | null;
  ndcg_at_5: number | null;
  all_pass: number | null;
  /** Model calls per question (mean). */
  llm_calls: number;
  /** Prompt + completion tokens per question (mean). */
  tokens: number;
  /** True when any token count came from an estimate, not the provider. */
  tokens_estimated: boolean;
  retrieval_calls: number;
  latency_ms_p50: number;
  latency_ms_p95: number;
  /** Seeded percentile-bootstrap 95% interval of the mean EM. */
  em_ci95: [number, number];
  status: { ok: number; partial: number; error: number };
}

/** The first workflow against another on the questions both answered: paired, so question difficulty cancels. */
export interface PairedEmComparison {
  a: string;
  b: string;
  n: number;
  /** mean EM(a) − mean EM(b). */
  em_diff: number;
  /** Seeded paired-bootstrap 95% interval of the difference. */
  em_diff_ci95: [number, number];
  /** Paired sign-flip permutation test, two-sided. */
  p_value: number;
}

export interface Summary {
  dataset: string;
  setting: string;
  model: string;
  offline: boolean;
  n: number;
  created: string;
  workflows: Record<string, WorkflowSummary>;
  /** The first workflow against each other one, on EM. */
  comparisons: PairedEmComparison[];
}

const meanOrNull = (values: Array<number | null>): number | null => {
  const present = values.filter((v): v is number => v !== null);
  return present.length ? mean(present) : null;
};

/** Aggregates the rows of the given workflows over the given questions (all rows from a real run). */
export function summarize(
  rows: readonly ResultRow[],
  context: { dataset: string; setting: string; model: string; offline: boolean; workflows: string[]; questionIds: string[] },
): Summary {
  const wanted = new Set(context.questionIds);
  const workflows: Record<string, WorkflowSummary> = {};
  for (const id of context.workflows) {
    const mine = rows.filter((r) => r.workflow === id && wanted.has(r.questionId));
    if (mine.length === 0) continue;
    const em = mine.map((r) => r.metrics.em);
    const ci = bootstrapMean(em, { seed: 7, resamples: 2000 });
    const latencies = mine.map((r) => r.latencyMs);
    workflows[id] = {
      n: mine.length,
      em: mean(em),
      f1: mean(mine.map((r) => r.metrics.f1)),
      acc: mean(mine.map((r) => r.metrics.acc)),
      recall_at_5: meanOrNull(mine.map((r) => r.metrics.recall_at_5)),
      ndcg_at_5: meanOrNull(mine.map((r) => r.metrics.ndcg_at_5)),
      all_pass: meanOrNull(mine.map((r) => r.metrics.all_pass)),
      llm_calls: mean(mine.map((r) => r.usage.llmCalls)),
      tokens: mean(mine.map((r) => r.usage.promptTokens + r.usage.completionTokens)),
      tokens_estimated: mine.some((r) => r.usage.estimated),
      retrieval_calls: mean(mine.map((r) => r.usage.retrievalCalls)),
      latency_ms_p50: percentile(latencies, 50),
      latency_ms_p95: percentile(latencies, 95),
      em_ci95: [ci.lower, ci.upper],
      status: {
        ok: mine.filter((r) => r.status === 'ok').length,
        partial: mine.filter((r) => r.status === 'partial').length,
        error: mine.filter((r) => r.status === 'error').length,
      },
    };
  }
  return {
    dataset: context.dataset,
    setting: context.setting,
    model: context.model,
    offline: context.offline,
    n: context.questionIds.length,
    created: new Date().toISOString(),
    workflows,
    comparisons: compareToFirst(rows, context.workflows.filter((id) => workflows[id]), wanted),
  };
}

function compareToFirst(rows: readonly ResultRow[], ids: string[], wanted: Set<string>): PairedEmComparison[] {
  const [first, ...others] = ids;
  if (!first) return [];
  const em = (id: string) => new Map(rows.filter((r) => r.workflow === id && wanted.has(r.questionId)).map((r) => [r.questionId, r.metrics.em]));
  const base = em(first);
  return others.flatMap((id) => {
    const other = em(id);
    const shared = [...base.keys()].filter((q) => other.has(q));
    if (shared.length === 0) return [];
    const c = comparePaired(shared.map((q) => base.get(q)!), shared.map((q) => other.get(q)!), { seed: 7, resamples: 2000, permutations: 5000 });
    return [{ a: first, b: id, n: shared.length, em_diff: c.meanDifference, em_diff_ci95: [c.lower, c.upper] as [number, number], p_value: c.pValue }];
  });
}

const f3 = (v: number | null) => (v === null ? '—' : v.toFixed(3));

/** The summary as a Markdown table, headed by the model that produced it. */
export function renderSummary(summary: Summary): string {
  const lines = [
    `# ${summary.dataset} (${summary.setting} setting), ${summary.n} questions`,
    '',
    `Model: **${summary.model}**${summary.offline ? ' — these are the offline model’s figures, not a language model’s.' : ''}`,
    '',
    '| workflow | n | EM | EM 95% CI | F1 | Acc | Recall@5 | NDCG@5 | All-Pass | LLM calls/q | tokens/q | latency p50 ms | ok/partial/error |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [id, w] of Object.entries(summary.workflows)) {
    lines.push(
      `| ${id} | ${w.n} | ${f3(w.em)} | [${f3(w.em_ci95[0])}, ${f3(w.em_ci95[1])}] | ${f3(w.f1)} | ${f3(w.acc)} | ${f3(w.recall_at_5)} | ${f3(w.ndcg_at_5)} | ${f3(w.all_pass)} | ${w.llm_calls.toFixed(1)} | ${Math.round(w.tokens)}${w.tokens_estimated ? '*' : ''} | ${w.latency_ms_p50} | ${w.status.ok}/${w.status.partial}/${w.status.error} |`,
    );
  }
  if (summary.comparisons.length) {
    lines.push('', `Paired comparison on EM (same questions; seeded paired bootstrap, sign-flip permutation test):`, '', '| a | b | n | EM(a) − EM(b) | 95% CI | p |', '|---|---|---|---|---|---|');
    for (const c of summary.comparisons) {
      lines.push(`| ${c.a} | ${c.b} | ${c.n} | ${c.em_diff >= 0 ? '+' : ''}${c.em_diff.toFixed(3)} | [${f3(c.em_diff_ci95[0])}, ${f3(c.em_diff_ci95[1])}] | ${c.p_value.toFixed(3)} |`);
    }
  }
  if (Object.values(summary.workflows).some((w) => w.tokens_estimated)) {
    lines.push('', '\\* estimated token counts: the provider reported no usage (≈4 characters per token).');
  }
  lines.push('', 'EM/F1/Acc: official HotpotQA normalisation, max over gold aliases. Recall@5 (any gold passage in the first five of the run’s evidence), NDCG@5, All-Pass (every gold passage anywhere in the evidence). EM interval: seeded percentile bootstrap, 2000 resamples.');
  return `${lines.join('\n')}\n`;
}
