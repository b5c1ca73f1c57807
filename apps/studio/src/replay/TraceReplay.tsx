import { useEffect, useMemo, useRef, useState } from 'react';
import type { StudioGold, StudioReplay, TraceEvent } from '../api/client';
import { ChartView } from '../chart/ChartView';
import { chartStateAt } from '../trace/chartState';
import { DecisionDiagramView } from '../trace/DecisionDiagramView';
import { EventDetail, EventRow, eventSummary } from '../trace/EventView';
import { offlineModel } from '../offline';
import { OfflineTag } from '../OfflineTag';
import { goldMatcher } from '../trace/gold';

export interface TraceReplayProps {
  replay: StudioReplay;
  gold?: StudioGold;
  /** Smaller chart and no event list, for side-by-side replays; starts at the last step. */
  compact?: boolean;
}

/**
 * Steps through a saved run on its workflow's chart. The chart at step i is a pure fold of
 * events 0..i, so stepping backwards is as exact as forwards.
 */
export function TraceReplay({ replay, gold, compact = false }: TraceReplayProps) {
  const events = replay.run.trace;
  const n = events.length;
  const [step, setStep] = useState(() => (compact ? n - 1 : 0));
  useEffect(() => setStep(compact ? n - 1 : 0), [replay, compact, n]);
  const at = Math.max(0, Math.min(step, n - 1));
  const state = useMemo(() => chartStateAt(events, n ? at : -1, n > 0 && at === n - 1), [events, at, n]);
  const current: TraceEvent | undefined = events[at];
  const go = (next: number): void => setStep(Math.max(0, Math.min(n - 1, next)));

  const jumpToNode = (node: string): void => {
    for (let offset = 1; offset <= n; offset++) {
      const index = (at + offset) % n;
      const event = events[index];
      if (event && event.node === node && event.kind === 'enter') return go(index);
    }
  };

  const onKey = (event: React.KeyboardEvent): void => {
    if (event.key === 'ArrowRight') go(at + 1);
    else if (event.key === 'ArrowLeft') go(at - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(n - 1);
    else return;
    event.preventDefault();
  };

  const run = replay.run;
  const offline = offlineModel(run.model);
  return (
    <div className={`replay${compact ? ' replay-compact' : ''}`} data-testid="trace-replay" data-step={at} data-steps={n}>
      <header className="replay-head">
        <div className="replay-title">
          <b>{run.workflowId}</b> <span className="muted">· {run.questionId}</span>
        </div>
        <div className="replay-answer">
          answer <b>{run.answer || '—'}</b> <span className={`status status-${run.status}`}>{run.status}</span>
          {run.stopReason ? <span className="muted"> ({run.stopReason})</span> : null}
          {gold?.answers.length ? <span className="muted"> · gold {gold.answers.join(' | ')}</span> : null}
          {offline ? <> <OfflineTag partly={offline === 'partly'} /></> : null}
        </div>
      </header>
      <div className="replay-controls" onKeyDown={onKey}>
        <button type="button" data-testid="replay-first" aria-label="first event" onClick={() => go(0)} disabled={at === 0} title="first event (Home)">
          |◀
        </button>
        <button type="button" data-testid="replay-prev" aria-label="previous event" onClick={() => go(at - 1)} disabled={at === 0} title="previous event (←)">
          ◀
        </button>
        <input
          type="range"
          min={0}
          max={Math.max(0, n - 1)}
          value={at}
          onChange={(event) => go(Number(event.target.value))}
          aria-label="step"
          data-testid="replay-slider"
        />
        <button type="button" data-testid="replay-next" aria-label="next event" onClick={() => go(at + 1)} disabled={at >= n - 1} title="next event (→)">
          ▶
        </button>
        <button type="button" data-testid="replay-last" aria-label="last event" onClick={() => go(n - 1)} disabled={at >= n - 1} title="last event (End)">
          ▶|
        </button>
        <span className="replay-position" data-testid="replay-position">
          {n ? at + 1 : 0} / {n}
        </span>
        {current ? (
          <span className="replay-current">
            <span className={`event-kind kind-${current.kind}`}>{current.kind}</span> <b>{current.node}</b> {eventSummary(current, goldMatcher(gold))}
          </span>
        ) : null}
      </div>
      <div className="replay-body">
        <div className="replay-chart">
          <ChartView
            chart={replay.chart}
            run={state}
            onNodeClick={jumpToNode}
            compact={compact}
            maxHeight={compact ? 420 : 680}
          />
          <DecisionDiagramView events={events} upto={at} finished={at === n - 1} />
        </div>
        {compact ? (
          current && current.kind !== 'enter' && current.kind !== 'exit' && current.kind !== 'transition' ? (
            <div className="replay-detail compact-detail">
              <EventDetail event={current} {...(gold ? { gold } : {})} />
            </div>
          ) : null
        ) : (
          <aside className="replay-side">
            <h3>Step {at + 1}</h3>
            {current ? (
              <div className="replay-detail">
                <EventDetail event={current} {...(gold ? { gold } : {})} />
              </div>
            ) : null}
            <EventList events={events} at={at} gold={gold} onPick={go} />
          </aside>
        )}
      </div>
    </div>
  );
}

function EventList({ events, at, gold, onPick }: { events: readonly TraceEvent[]; at: number; gold: StudioGold | undefined; onPick: (index: number) => void }) {
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const list = listRef.current;
    const row = list?.children[at] as HTMLElement | undefined;
    if (!list || !row) return;
    if (row.offsetTop < list.scrollTop || row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = row.offsetTop - list.clientHeight / 3;
    }
  }, [at]);
  return (
    <ol className="event-list replay-events" ref={listRef}>
      {events.map((event, index) => (
        <EventRow key={event.seq} event={event} {...(gold ? { gold } : {})} current={index === at} onSelect={() => onPick(index)} />
      ))}
    </ol>
  );
}
