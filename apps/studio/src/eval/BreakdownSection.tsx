import * as Plot from '@observablehq/plot';
import { useCallback, useMemo, useState } from 'react';
import { metricLabel, offlineCaption, rate } from './format';
import { PlotFigure } from './PlotFigure';
import { Section } from './Section';
import { isJudged, workflowIds, type BreakdownCell, type EvalSummary } from './types';

type BreakdownMetric = 'correctness' | 'em' | 'f1' | 'recall_at_5' | 'ndcg_at_5' | 'all_pass';

const DIMENSIONS = [
  { key: 'hops', title: 'By required hops', axis: 'hops' },
  { key: 'type', title: 'By question type', axis: 'question type' },
] as const;

/** Groups in a readable order: numbers numerically, names alphabetically. */
const groupOrder = (cells: readonly BreakdownCell[]): string[] =>
  [...new Set(cells.map((c) => c.group))].sort((a, b) => {
    const [na, nb] = [Number(a), Number(b)];
    return Number.isFinite(na) && Number.isFinite(nb) ? na - nb : a.localeCompare(b);
  });

interface Cell {
  group: string;
  workflow: string;
  n: number;
  value: number | null;
}

function heatmap(cells: readonly BreakdownCell[], metric: BreakdownMetric, ids: string[], axis: string, title: string, width: number, caption: string | null): Element {
  const groups = groupOrder(cells);
  const data: Cell[] = cells.map((c) => {
    const value = (c as unknown as Record<string, unknown>)[metric];
    return { group: c.group, workflow: c.workflow, n: c.n, value: typeof value === 'number' ? value : null };
  });
  const cellWidth = Math.min(150, Math.max(80, (width - 140) / Math.max(1, groups.length)));
  return Plot.plot({
    title,
    caption,
    width: Math.min(width, 140 + cellWidth * groups.length + 20),
    height: 60 + ids.length * 32,
    marginLeft: 130,
    marginBottom: 40,
    padding: 0.04,
    style: { fontSize: '12px', fontFamily: 'inherit' },
    x: { domain: groups, label: `${axis} →`, axis: 'bottom' },
    y: { domain: ids, label: null },
    color: { type: 'linear', domain: [0, 1], scheme: 'blues', label: metricLabel(metric), legend: true, unknown: '#eaeef2' },
    marks: [
      Plot.cell(data, {
        x: 'group',
        y: 'workflow',
        fill: 'value',
        inset: 0.5,
        title: (d: Cell) => `${d.workflow}, ${axis} ${d.group}: ${metricLabel(metric)} ${rate(d.value)} (n = ${d.n})`,
      }),
      Plot.text(data, {
        x: 'group',
        y: 'workflow',
        text: (d: Cell) => `${rate(d.value)}  n=${d.n}`,
        fill: (d: Cell) => (d.value !== null && d.value > 0.55 ? 'white' : '#1f2328'),
      }),
    ],
  });
}

/** Each workflow's overall figures as one column, for a dataset that records neither hops nor type. */
export function overallCells(summary: EvalSummary): BreakdownCell[] {
  return workflowIds(summary).map((workflow) => {
    const w = summary.workflows[workflow]!;
    return { group: 'all questions', workflow, n: w.n, correctness: w.correctness, em: w.em, f1: w.f1, recall_at_5: w.recall_at_5, ndcg_at_5: w.ndcg_at_5, all_pass: w.all_pass };
  });
}

/** Every metric by hops and by question type, one heatmap per breakdown the dataset records. */
export function BreakdownSection({ summary }: { summary: EvalSummary }) {
  const judged = isJudged(summary);
  const [metric, setMetric] = useState<BreakdownMetric>(judged ? 'correctness' : 'em');
  const ids = useMemo(() => workflowIds(summary), [summary]);
  const breakdown = summary.breakdown ?? { hops: [], type: [] };
  const present = DIMENSIONS.filter((d) => (breakdown[d.key] ?? []).length > 0);
  const missing = DIMENSIONS.filter((d) => (breakdown[d.key] ?? []).length === 0);
  const hasRetrieval = [...(breakdown.hops ?? []), ...(breakdown.type ?? []), ...overallCells(summary)].some((c) => c.recall_at_5 !== null && c.recall_at_5 !== undefined);
  const render = useCallback(
    (width: number) => {
      const cells = summary.breakdown ?? { hops: [], type: [] };
      const caption = offlineCaption(summary, metric === 'correctness') ?? null;
      const container = document.createElement('div');
      container.className = 'eval-plot-row';
      for (const d of DIMENSIONS) {
        const these = cells[d.key] ?? [];
        if (these.length) container.append(heatmap(these, metric, ids, d.axis, d.title, width, caption));
      }
      if (!container.childElementCount) container.append(heatmap(overallCells(summary), metric, ids, 'questions', 'All questions (no hop counts or types recorded)', width, caption));
      return container;
    },
    [summary, metric, ids],
  );
  const metrics: BreakdownMetric[] = [...(judged ? (['correctness'] as const) : []), 'em', 'f1', ...(hasRetrieval ? (['recall_at_5', 'ndcg_at_5', 'all_pass'] as const) : [])];
  return (
    <Section id="breakdown" title="Breakdowns" note="Each workflow on the questions of one hop count or question type; cells give the mean and the number of questions.">
      <div className="eval-controls">
        <label>
          Metric{' '}
          <select value={metric} onChange={(e) => setMetric(e.target.value as BreakdownMetric)}>
            {metrics.map((m) => (
              <option key={m} value={m}>
                {metricLabel(m)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <PlotFigure render={render} testId="plot-breakdown" />
      {present.length === 0 ? (
        <p className="eval-footnote">The dataset records neither hop counts nor question types: the overall figures instead.</p>
      ) : (
        missing.map((d) => (
          <p key={d.key} className="eval-footnote">
            {d.key === 'hops' ? 'The dataset records no hop counts.' : 'The dataset records no question types (the IRCoT HotpotQA file, for one, has none).'}
          </p>
        ))
      )}
    </Section>
  );
}
