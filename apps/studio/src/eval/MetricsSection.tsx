import * as Plot from '@observablehq/plot';
import { useCallback, useMemo } from 'react';
import { count1, interval, measure, offlineCaption, rate, tokens, whole } from './format';
import { PlotFigure } from './PlotFigure';
import { Section } from './Section';
import { isJudged, workflowIds, type EvalSummary, type WorkflowStats } from './types';

interface IntervalDatum {
  workflow: string;
  metric: string;
  value: number;
  lo: number;
  hi: number;
}

/** Correct and EM of every workflow with their 95% intervals, as rows the chart draws. */
export function intervalData(summary: EvalSummary): IntervalDatum[] {
  const correctName = summary.judge?.offline ? 'Correct (offline judge)' : 'Correct (LLM judge)';
  return workflowIds(summary).flatMap((workflow) => {
    const w = summary.workflows[workflow]!;
    const rows: IntervalDatum[] = [];
    if (w.correctness !== null && w.correctness !== undefined) {
      const [lo, hi] = w.correctness_ci95 ?? [w.correctness, w.correctness];
      rows.push({ workflow, metric: correctName, value: w.correctness, lo, hi });
    }
    const [lo, hi] = w.em_ci95 ?? [w.em, w.em];
    rows.push({ workflow, metric: 'EM', value: w.em, lo, hi });
    return rows;
  });
}

function IntervalChart({ summary }: { summary: EvalSummary }) {
  const data = useMemo(() => intervalData(summary), [summary]);
  const ids = useMemo(() => workflowIds(summary), [summary]);
  const render = useCallback(
    (width: number) =>
      Plot.plot({
        width,
        caption: offlineCaption(summary, true) ?? null,
        height: 64 + ids.length * 34,
        marginLeft: 120,
        marginRight: 48,
        marginBottom: 40,
        style: { fontSize: '12px', fontFamily: 'inherit' },
        color: { domain: ids, scheme: 'tableau10' },
        fx: { label: null, padding: 0.12 },
        x: { domain: [0, 1], grid: true, label: 'Fraction of questions (mean, 95% bootstrap interval) →', percent: false },
        y: { domain: ids, label: null },
        marks: [
          Plot.frame({ stroke: '#d0d7de' }),
          Plot.ruleY(data, { fx: 'metric', y: 'workflow', x1: 'lo', x2: 'hi', stroke: 'workflow', strokeWidth: 3, strokeOpacity: 0.45 }),
          Plot.dot(data, {
            fx: 'metric',
            y: 'workflow',
            x: 'value',
            fill: 'workflow',
            r: 5,
            title: (d: IntervalDatum) => `${d.workflow} · ${d.metric}: ${rate(d.value)} [${rate(d.lo)}, ${rate(d.hi)}]`,
          }),
          Plot.text(data, { fx: 'metric', y: 'workflow', x: 'hi', text: (d: IntervalDatum) => rate(d.value), dx: 6, textAnchor: 'start', fill: '#57606a' }),
        ],
      }),
    [data, ids, summary],
  );
  return <PlotFigure render={render} testId="plot-metrics" />;
}

const statusText = (w: WorkflowStats) => `${w.status?.ok ?? 0}/${w.status?.partial ?? 0}/${w.status?.error ?? 0}`;

const stopsText = (w: WorkflowStats) => {
  const entries = Object.entries(w.stop_reasons ?? {});
  return entries.length ? entries.map(([reason, n]) => `${reason} ${n}`).join(', ') : '—';
};

function MethodMeasures({ w }: { w: WorkflowStats }) {
  const own = Object.entries(w.method_metrics ?? {});
  const aggregates = Object.entries(w.method_aggregates ?? {});
  if (!own.length && !aggregates.length) return <>—</>;
  return (
    <ul className="eval-measures">
      {own.map(([name, value]) => (
        <li key={`m-${name}`}>
          <span>{name}</span> {measure(value)}
        </li>
      ))}
      {aggregates.map(([name, value]) => (
        <li key={`a-${name}`} title="over all of the workflow's runs together">
          <span>{name}</span> {measure(value)} <small>(over the runs)</small>
        </li>
      ))}
    </ul>
  );
}

/** Every metric of every workflow, as summary.json has it. */
function MetricsTable({ summary }: { summary: EvalSummary }) {
  const judged = isJudged(summary);
  const ids = workflowIds(summary);
  const anyEstimated = Object.values(summary.workflows ?? {}).some((w) => w.tokens_estimated);
  return (
    <>
      <div className="eval-table-scroll">
        <table className="eval-table eval-metrics" data-testid="metrics-table">
          <thead>
            <tr>
              <th>workflow</th>
              <th className="num">n</th>
              {judged && <th className="num">Correct (95% CI)</th>}
              <th className="num">EM (95% CI)</th>
              <th className="num">F1</th>
              <th className="num">Acc</th>
              <th className="num">Recall@5</th>
              <th className="num">NDCG@5</th>
              <th className="num">All-Pass</th>
              <th className="num" title="model calls per question (mean), the workflow's own">LLM calls /q</th>
              <th className="num" title="prompt + completion tokens per question (mean); ≈ estimated">tokens/q</th>
              <th className="num">retrievals /q</th>
              <th className="num">latency ms p50 / p95</th>
              <th className="num" title="runs by status">ok/partial/error</th>
              <th>stopped early</th>
              {judged && <th className="num" title="answers judged / judge errors (left out of Correct)">judged/errors</th>}
              <th>method’s own measures</th>
            </tr>
          </thead>
          <tbody>
            {ids.map((id) => {
              const w = summary.workflows[id]!;
              return (
                <tr key={id} data-workflow={id}>
                  <th scope="row">{id}</th>
                  <td className="num">{w.n}</td>
                  {judged && (
                    <td className="num">
                      {rate(w.correctness)}
                      <div className="ci">{interval(w.correctness_ci95)}</div>
                    </td>
                  )}
                  <td className="num">
                    {rate(w.em)}
                    <div className="ci">{interval(w.em_ci95)}</div>
                  </td>
                  <td className="num">{rate(w.f1)}</td>
                  <td className="num">{rate(w.acc)}</td>
                  <td className="num">{rate(w.recall_at_5)}</td>
                  <td className="num">{rate(w.ndcg_at_5)}</td>
                  <td className="num">{rate(w.all_pass)}</td>
                  <td className="num">{count1(w.llm_calls)}</td>
                  <td className="num">{tokens(w.tokens, w.tokens_estimated)}</td>
                  <td className="num">{count1(w.retrieval_calls)}</td>
                  <td className="num">
                    {whole(w.latency_ms_p50)} / {whole(w.latency_ms_p95)}
                  </td>
                  <td className="num">{statusText(w)}</td>
                  <td>{stopsText(w)}</td>
                  {judged && (
                    <td className="num">
                      {w.judged ?? '—'}/{w.judge_errors ?? 0}
                    </td>
                  )}
                  <td>
                    <MethodMeasures w={w} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {anyEstimated && <p className="eval-footnote">≈ estimated token counts: the provider reported no usage (about 4 characters per token).</p>}
      {summary.retrieval_metrics && <p className="eval-footnote">{summary.retrieval_metrics}</p>}
    </>
  );
}

/** Correct and EM with their intervals, then the full table. */
export function MetricsSection({ summary }: { summary: EvalSummary }) {
  return (
    <Section
      id="metrics"
      title="Metrics with confidence intervals"
      note="Means per question with seeded percentile-bootstrap 95% intervals (2,000 resamples). Cost columns are the workflow’s own calls; the judge’s are counted apart."
    >
      <IntervalChart summary={summary} />
      <MetricsTable summary={summary} />
    </Section>
  );
}
