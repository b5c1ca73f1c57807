import * as Plot from '@observablehq/plot';
import { useCallback, useMemo } from 'react';
import { groupBy } from '../groupBy';
import { digitsOf, interval, metricLabel, offlineCaption, pValue, signed } from './format';
import { PlotFigure } from './PlotFigure';
import { Section } from './Section';
import type { EvalSummary } from './types';

type Comparison = EvalSummary['comparisons'][number];

const pairLabel = (c: Comparison) => `${c.a} − ${c.b}`;

function forest(metric: string, rows: Comparison[], width: number, caption: string | null): Element {
  const lo = Math.min(0, ...rows.map((r) => r.diff_ci95[0]));
  const hi = Math.max(0, ...rows.map((r) => r.diff_ci95[1]));
  const pad = (hi - lo || 1) * 0.08;
  return Plot.plot({
    title: `${metricLabel(metric)}: ${rows[0]?.a ?? ''} against each other workflow`,
    width,
    caption,
    height: 54 + rows.length * 30,
    marginLeft: 210,
    marginRight: 175,
    marginBottom: 40,
    style: { fontSize: '12px', fontFamily: 'inherit' },
    x: { domain: [lo - pad, hi + pad], grid: true, label: `Difference in ${metricLabel(metric)} (a − b, paired, 95% bootstrap interval) →` },
    y: { domain: rows.map(pairLabel), label: null },
    marks: [
      Plot.frame({ stroke: '#d0d7de' }),
      Plot.ruleX([0], { stroke: '#57606a', strokeDasharray: '4 3' }),
      Plot.ruleY(rows, { y: pairLabel, x1: (r: Comparison) => r.diff_ci95[0], x2: (r: Comparison) => r.diff_ci95[1], stroke: '#0969da', strokeWidth: 2.5, strokeOpacity: 0.6 }),
      Plot.dot(rows, {
        y: pairLabel,
        x: 'diff',
        fill: (r: Comparison) => (r.p_value < 0.05 ? '#0969da' : 'white'),
        stroke: '#0969da',
        strokeWidth: 2,
        r: 5,
        title: (r: Comparison) => `${pairLabel(r)}: ${signed(r.diff, digitsOf(metric))} ${interval(r.diff_ci95, digitsOf(metric))}, p = ${pValue(r.p_value)}, n = ${r.n}`,
      }),
      Plot.text(rows, {
        y: pairLabel,
        frameAnchor: 'right',
        dx: 8,
        textAnchor: 'start',
        text: (r: Comparison) => `${signed(r.diff, digitsOf(metric))}  p=${pValue(r.p_value)}  n=${r.n}`,
        fill: '#1f2328',
      }),
    ],
  });
}

/** The first workflow against each other one: the paired difference, its interval, the permutation test's p. */
export function ComparisonsSection({ summary }: { summary: EvalSummary }) {
  const comparisons = summary.comparisons ?? [];
  // By metric, in the summary's order.
  const groups = useMemo(() => groupBy(summary.comparisons ?? [], (c) => c.metric), [summary]);
  const render = useCallback(
    (width: number) => {
      const container = document.createElement('div');
      container.className = 'eval-plot-stack';
      for (const [metric, rows] of groups) container.append(forest(metric, rows, width, offlineCaption(summary, metric === 'correctness') ?? null));
      return container;
    },
    [groups, summary],
  );
  return (
    <Section
      id="comparisons"
      title="Paired comparisons"
      note="On the questions both answered: mean(a) − mean(b), a seeded paired bootstrap 95% interval, and a two-sided sign-flip permutation test (5,000 random sign flips, or every one of the 2^n when n ≤ 12: exact). Filled: p < 0.05. An interval across the dashed 0 line is no evidence of a difference."
    >
      {groups.length === 0 ? (
        <p className="eval-empty" data-testid="plot-comparisons">
          Nothing to compare: the eval has one workflow.
        </p>
      ) : (
        <>
          <PlotFigure render={render} testId="plot-comparisons" />
          <div className="eval-table-scroll">
            <table className="eval-table" data-testid="comparisons-table">
              <thead>
                <tr>
                  <th>metric</th>
                  <th>a</th>
                  <th>b</th>
                  <th className="num">n</th>
                  <th className="num">a − b</th>
                  <th className="num">95% CI</th>
                  <th className="num">p</th>
                </tr>
              </thead>
              <tbody>
                {comparisons.map((c) => (
                  <tr key={`${c.metric}|${c.a}|${c.b}`}>
                    <td>{metricLabel(c.metric)}</td>
                    <td>{c.a}</td>
                    <td>{c.b}</td>
                    <td className="num">{c.n}</td>
                    <td className="num">{signed(c.diff, digitsOf(c.metric))}</td>
                    <td className="num ci">{interval(c.diff_ci95, digitsOf(c.metric))}</td>
                    <td className={c.p_value < 0.05 ? 'num eval-significant' : 'num'}>{pValue(c.p_value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Section>
  );
}
