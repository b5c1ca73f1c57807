/** Formatting shared by the eval page's tables and plots. */
import { summaryOffline } from '../offline';

const DASH = '—';

/** A rate in [0, 1] with three decimals (as summary.md prints it); missing: a dash. */
export const rate = (value: number | null | undefined): string => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(3) : DASH);

/** A mean count (LLM calls, retrieval calls per question) with one decimal. */
export const count1 = (value: number | null | undefined): string => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(1) : DASH);

/** A whole number with thousands separators. */
export const whole = (value: number | null | undefined): string => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : DASH);

/** Tokens per question, marked ≈ when any count was estimated rather than reported by the provider. */
export const tokens = (value: number | null | undefined, estimated: boolean | undefined): string => (estimated && typeof value === 'number' ? `≈${whole(value)}` : whole(value));

/** A 95% interval as [lo, hi]. */
export const interval = (ci: readonly [number, number] | null | undefined, digits = 3): string => (ci ? `[${ci[0].toFixed(digits)}, ${ci[1].toFixed(digits)}]` : DASH);

/** A signed difference. */
export const signed = (value: number, digits = 3): string => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`;

/** Decimals a comparison's figures are shown with: whole tokens, rates to three places. */
export const digitsOf = (metric: string): number => (metric === 'tokens' ? 0 : 3);

/** A p-value: three decimals, or `< 0.001`. */
export const pValue = (p: number): string => (p < 0.001 ? '< 0.001' : p.toFixed(3));

/** A method measure of any magnitude. */
export const measure = (value: number | null | undefined): string =>
  typeof value === 'number' && Number.isFinite(value) ? (Math.abs(value) >= 100 ? value.toFixed(1) : value.toFixed(4)) : DASH;

/** The ISO date the summary was written, as local date and time. */
export const created = (iso: string | undefined): string => {
  if (!iso) return DASH;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
};

/** Display names of the summary's metric keys. */
const METRIC_LABELS: Record<string, string> = {
  correctness: 'Correct',
  em: 'EM',
  f1: 'F1',
  acc: 'Acc',
  recall_at_5: 'Recall@5',
  ndcg_at_5: 'NDCG@5',
  all_pass: 'All-Pass',
};

export const metricLabel = (key: string): string => METRIC_LABELS[key] ?? key;

/** Tokens in a narrow cell: 852, 17.7k; ≈ when estimated. */
export const shortTokens = (value: number, estimated: boolean): string =>
  `${estimated ? '≈' : ''}${value >= 1000 ? `${(value / 1000).toFixed(value >= 10000 ? 0 : 1)}k` : Math.round(value)}`;

/** The caption a plot of the offline model's figures carries, so a copied plot keeps its label. */
export const offlineCaption = (summary: { offline: boolean; offline_partly?: boolean; judge?: { offline: boolean } }, judged = false): string | undefined =>
  summaryOffline(summary)
    ? `${summaryOffline(summary) === 'offline' ? 'Offline model’s figures' : 'Partly the offline model’s figures (it served some roles)'} (a deterministic lexical stand-in, not a language model)${judged && summary.judge?.offline ? '; correctness from the offline lexical judge' : ''}.`
    : judged && summary.judge?.offline
      ? 'Correctness from the offline lexical judge, not a language model.'
      : undefined;
