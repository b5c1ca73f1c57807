import { useMemo } from 'react';
import type { TraceEvent } from '../api/client';
import { ChartView } from '../chart/ChartView';
import { decisionDiagram } from './decisionChart';

/** HERA's chosen topology or MAO-ARAG's executor workflows as a small chart, from the decisions seen so far. */
export function DecisionDiagramView({ events, upto, finished = false }: { events: readonly TraceEvent[]; upto?: number; finished?: boolean }) {
  const diagram = useMemo(() => decisionDiagram(events, upto ?? events.length - 1, finished), [events, upto, finished]);
  if (!diagram) return null;
  return (
    <section className="decision-diagram" data-testid="topology" data-diagram={diagram.kind}>
      <h3>{diagram.title}</h3>
      <ChartView chart={diagram.chart} run={diagram.state} compact maxHeight={420} testId="topology-chart" />
    </section>
  );
}
