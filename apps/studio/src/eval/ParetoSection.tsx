import * as Plot from '@observablehq/plot';
import { useCallback, useMemo, useState } from 'react';
import { count1, metricLabel, offlineCaption, rate, whole } from './format';
import { placeLabels } from './labels';
import { frontSteps, oraclePoint, paretoFront, routerCurvePoints, type ParetoPoint } from './pareto';
import { noFigureNote } from './empty';
import { PlotFigure } from './PlotFigure';
import { Section } from './Section';
import { isJudged, workflowIds, type EvalSummary } from './types';

export type CostKey = 'tokens' | 'llm_calls';
export type QualityKey = 'correctness' | 'em' | 'f1';

interface WorkflowPoint extends ParetoPoint {
  lo?: number;
  hi?: number;
  onFront: boolean;
}

const COSTS: Record<CostKey, string> = { tokens: 'Tokens per question', llm_calls: 'LLM calls per question' };

/** Each workflow's point for the chosen axes; workflows without the quality figure are left out. */
export function workflowPoints(summary: EvalSummary, cost: CostKey, quality: QualityKey): WorkflowPoint[] {
  const points = workflowIds(summary).flatMap((id) => {
    const w = summary.workflows[id];
    const q = w?.[quality];
    if (!w || typeof q !== 'number') return [];
    const ci = quality === 'correctness' ? w.correctness_ci95 : quality === 'em' ? w.em_ci95 : null;
    return [{ id, cost: w[cost], quality: q, onFront: false, ...(ci ? { lo: ci[0], hi: ci[1] } : {}) }];
  });
  const front = new Set(paretoFront(points).map((p) => p.id));
  return points.map((p) => ({ ...p, onFront: front.has(p.id) }));
}

/** Quality against cost, one labelled point per workflow with its 95% interval, and the Pareto front as a staircase. */
export function ParetoSection({ summary }: { summary: EvalSummary }) {
  const judged = isJudged(summary);
  const [cost, setCost] = useState<CostKey>('tokens');
  const [quality, setQuality] = useState<QualityKey>(judged ? 'correctness' : 'em');
  const points = useMemo(() => workflowPoints(summary, cost, quality), [summary, cost, quality]);
  const front = useMemo(() => paretoFront(points), [points]);
  const oracle = useMemo(() => oraclePoint(summary, cost, quality), [summary, cost, quality]);
  const curve = useMemo(() => routerCurvePoints(summary, cost, quality), [summary, cost, quality]);
  const ids = useMemo(() => workflowIds(summary), [summary]);
  const estimated = cost === 'tokens' && Object.values(summary.workflows ?? {}).some((w) => w.tokens_estimated);
  const qualityName = quality === 'correctness' ? `Correct (${summary.judge?.offline ? 'offline judge' : 'LLM judge'})` : metricLabel(quality);

  const render = useCallback(
    (width: number) => {
      const height = 380;
      const xMax = Math.max(...points.map((p) => p.cost), ...curve.map((p) => p.cost), oracle?.cost ?? 0, 1) * 1.12;
      const yTop = Math.max(...points.map((p) => Math.max(p.hi ?? p.quality, p.quality)), ...curve.map((p) => p.quality), oracle?.quality ?? 0, 0.05);
      const yMax = Math.min(1, Math.ceil((yTop * 1.15) / 0.05) * 0.05);
      const margin = { left: 56, right: 24, top: 24, bottom: 44 };
      const spots = placeLabels(
        points.map((p) => ({ id: p.id, x: p.cost, y: p.quality })),
        { x: [0, xMax], y: [0, yMax], width: width - margin.left - margin.right, height: height - margin.top - margin.bottom },
      );
      const byOffset = new Map<string, WorkflowPoint[]>();
      for (const p of points) {
        const spot = spots.get(p.id) ?? { dx: 9, dy: 0 };
        const key = `${spot.dx},${spot.dy},${p.onFront ? 1 : 0}`;
        byOffset.set(key, [...(byOffset.get(key) ?? []), p]);
      }
      const labels = [...byOffset].map(([key, group]) => {
        const [dx, dy, bold] = key.split(',').map(Number) as [number, number, number];
        return Plot.text(group, {
          x: 'cost',
          y: 'quality',
          text: 'id',
          dx,
          dy,
          textAnchor: dx >= 0 ? 'start' : 'end',
          fontWeight: bold ? 'bold' : 'normal',
          fill: '#1f2328',
          stroke: 'white',
          strokeWidth: 3,
          paintOrder: 'stroke',
          fontSize: 12,
        });
      });
      const fmtCost = cost === 'tokens' ? whole : count1;
      const tip = (d: WorkflowPoint) =>
        `${d.id}${d.onFront ? ' (on the Pareto front)' : ''}\n${qualityName}: ${rate(d.quality)}${d.lo !== undefined ? ` [${rate(d.lo)}, ${rate(d.hi)}]` : ''}\n${COSTS[cost]}: ${fmtCost(d.cost)}`;
      return Plot.plot({
        width,
        height,
        caption: offlineCaption(summary, quality === 'correctness') ?? null,
        marginLeft: margin.left,
        marginRight: margin.right,
        marginTop: margin.top,
        marginBottom: margin.bottom,
        style: { fontSize: '12px', fontFamily: 'inherit', overflow: 'visible' },
        color: { domain: ids, scheme: 'tableau10' },
        x: { domain: [0, xMax], grid: true, label: `${COSTS[cost]}${estimated ? ' (≈ estimated tokens)' : ''} →`, ...(cost === 'tokens' ? { tickFormat: (t: number) => (t === 0 ? '0' : t >= 1000 ? `${t / 1000}k` : `${t}`) } : {}) },
        y: { domain: [0, yMax], grid: true, label: `↑ ${qualityName} (fraction of questions)` },
        marks: [
          Plot.frame({ stroke: '#d0d7de' }),
          Plot.ruleX(
            points.filter((p) => p.lo !== undefined),
            { x: 'cost', y1: 'lo', y2: 'hi', stroke: 'id', strokeWidth: 3, strokeOpacity: 0.4, strokeLinecap: 'round' },
          ),
          Plot.line(frontSteps(front, xMax), { x: 'cost', y: 'quality', curve: 'step-after', stroke: '#57606a', strokeWidth: 1.5, strokeDasharray: '5 3' }),
          Plot.dot(
            points.filter((p) => !p.onFront),
            { x: 'cost', y: 'quality', r: 5, fill: 'white', stroke: 'id', strokeWidth: 2, title: tip },
          ),
          Plot.dot(
            points.filter((p) => p.onFront),
            { x: 'cost', y: 'quality', r: 7, fill: 'id', stroke: 'white', strokeWidth: 1.5, title: tip },
          ),
          ...(curve.length
            ? [
                Plot.line(curve, { x: 'cost', y: 'quality', stroke: '#8250df', strokeWidth: 1.5, strokeOpacity: 0.8 }),
                Plot.dot(curve, {
                  x: 'cost',
                  y: 'quality',
                  r: (d: (typeof curve)[number]) => (d.routedWith ? 4 : 2.5),
                  fill: '#8250df',
                  title: (d: (typeof curve)[number]) => `${summary.router_curve!.router} at λ ${d.lambda}${d.routedWith ? ' (the λ it ran with)' : ''}, replayed from the candidates' runs\n${qualityName}: ${rate(d.quality)}\n${COSTS[cost]}: ${fmtCost(d.cost)}`,
                }),
                Plot.text([curve[0]!], { x: 'cost', y: 'quality', text: () => `${summary.router_curve!.router} across λ`, dx: 0, dy: 14, textAnchor: 'start', fill: '#6639ba', stroke: 'white', strokeWidth: 3, paintOrder: 'stroke', fontSize: 11, fontStyle: 'italic' }),
              ]
            : []),
          ...labels,
          ...(oracle
            ? [
                Plot.dot([oracle], { x: 'cost', y: 'quality', r: 7, symbol: 'star', fill: '#bf8700', stroke: 'white', strokeWidth: 1, title: () => `oracle: ${summary.oracle!.router}'s best candidate per question, in hindsight\n${qualityName}: ${rate(oracle.quality)}\n${COSTS[cost]}: ${fmtCost(oracle.cost)}` }),
                Plot.text([oracle], { x: 'cost', y: 'quality', text: () => 'oracle (hindsight)', dx: 10, dy: -10, textAnchor: 'start', fill: '#9a6700', stroke: 'white', strokeWidth: 3, paintOrder: 'stroke', fontSize: 12, fontStyle: 'italic' }),
              ]
            : []),
        ],
      });
    },
    [points, front, oracle, curve, cost, ids, estimated, qualityName, summary, quality],
  );

  return (
    <Section
      id="pareto"
      title="Quality against cost"
      note={
        <>
          Each workflow at its mean cost per question; vertical rules: the 95% bootstrap interval where the summary has one. The dashed staircase is the Pareto
          front (no other workflow is as cheap and as good): <b>{front.map((p) => p.id).join(' → ') || 'none'}</b> (filled points).
          {summary.oracle ? (
            <>
              {' '}
              The star is the oracle: {summary.oracle.router}’s best candidate per question in hindsight, over the {summary.oracle.candidates.length} candidates this eval ran — the
              most a per-question router could reach.
            </>
          ) : null}
          {curve.length ? (
            <>
              {' '}
              The purple line is {summary.router_curve!.router} across λ: its choice at each λ its training compared (and the one it ran with), replayed from its predictions and scored with the candidates’
              own runs in this eval (nothing run again); the larger dot is the λ it ran with.
              {summary.router_curve!.routes_among ? ` It routes among ${summary.router_curve!.routes_among.length} of its candidates (${summary.router_curve!.routes_among.join(', ')}); the oracle and the best single workflow are taken over all of them.` : ''}
            </>
          ) : null}
        </>
      }
    >
      <div className="eval-controls">
        <label>
          Cost{' '}
          <select value={cost} onChange={(e) => setCost(e.target.value as CostKey)}>
            <option value="tokens">tokens per question</option>
            <option value="llm_calls">LLM calls per question</option>
          </select>
        </label>
        <label>
          Quality{' '}
          <select value={quality} onChange={(e) => setQuality(e.target.value as QualityKey)}>
            {judged && <option value="correctness">Correct (judge)</option>}
            <option value="em">EM</option>
            <option value="f1">F1</option>
          </select>
        </label>
      </div>
      {points.length === 0 ? (
        <p className="eval-empty">{noFigureNote(qualityName)}</p>
      ) : (
        <PlotFigure
          render={render}
          testId="plot-pareto"
          attributes={{
            'data-front': front.map((p) => p.id).join(','),
            ...(oracle ? { 'data-oracle': `${oracle.cost},${oracle.quality}` } : {}),
            ...(curve.length ? { 'data-router-curve': curve.map((p) => `${p.lambda}:${p.cost},${p.quality}`).join(' ') } : {}),
          }}
        />
      )}
    </Section>
  );
}
