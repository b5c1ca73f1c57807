import { memo, useState, type ReactNode } from 'react';
import type { StudioGold, TraceEvent } from '../api/client';
import { transitionOf } from './chartState';
import { brief, list, num, obj, pretty, str, strings, type Data } from './fields';
import { goldMatcher } from './gold';

/** One line saying what an event is about. */
export function eventSummary(event: TraceEvent, isGold: (hit: { id?: string; title?: string }) => boolean = () => false): string {
  const data = event.data;
  switch (event.kind) {
    case 'enter': {
      const extra = ['step', 'hop', 'branch', 'agent', 'query'].map((key) => (data[key] !== undefined ? `${key} ${brief(data[key], 60)}` : undefined)).filter(Boolean);
      return extra.length ? extra.join(' · ') : '';
    }
    case 'exit':
      return '';
    case 'transition': {
      const { from, to, guard, label } = transitionOf(event);
      return `${from ?? '?'} → ${to ?? '?'}${label ? ` ${label}` : ''}${guard ? ` [${guard}]` : ''}`;
    }
    case 'llm': {
      const tokens = `${num(data.promptTokens) ?? '?'}+${num(data.completionTokens) ?? '?'} tok${data.estimated ? ' (est.)' : ''}`;
      return `${str(data.promptId) ?? str(data.role) ?? 'model call'} · ${tokens}${data.cached ? ' · cached' : ''}`;
    }
    case 'retrieve': {
      const hits = list(data.hits).map((hit) => obj(hit) ?? {});
      const gold = hits.filter((hit) => isGold({ id: str(hit.id), title: str(hit.title) })).length;
      return `“${brief(data.query, 70)}” · ${hits.length} hits${gold ? ` · ${gold} gold` : ''}`;
    }
    case 'decision':
      return decisionSummary(data);
    case 'error':
      return brief(data.message ?? data.error ?? data.code ?? data, 110);
    default:
      return brief(data, 90);
  }
}

function decisionSummary(data: Data): string {
  const decision = str(data.decision) ?? 'decision';
  const parts: string[] = [decision];
  if (decision === 'workflow') parts.push(`${str(data.workflow) ?? '?'}${data.level ? ` (${str(data.level)}${data.slot !== undefined ? ` slot ${brief(data.slot)}` : ''})` : ''}`);
  else if (decision === 'topology') {
    const topology = obj(data.topology);
    const agents = strings(topology?.selected_agents);
    parts.push(agents.join(' → ') || brief(topology));
  } else if (decision === 'layer') parts.push(strings(data.agents).join(', '));
  else if (decision === 'answer') parts.push(`“${brief(data.answer, 60)}”`);
  if (num(data.sufficiency) !== undefined) parts.push(`sufficiency ${num(data.sufficiency)}`);
  if (data.query !== undefined && decision !== 'workflow') parts.push(`query “${brief(data.query, 50)}”`);
  else if (data.question !== undefined) parts.push(`“${brief(data.question, 50)}”`);
  if (data.rationale !== undefined) parts.push(brief(data.rationale, 70));
  return parts.join(' · ');
}

/** The expanded view of an event: prompts and replies, hits, decisions, errors. */
export function EventDetail({ event, gold }: { event: TraceEvent; gold?: StudioGold }) {
  switch (event.kind) {
    case 'llm':
      return <ModelCall data={event.data} />;
    case 'retrieve':
      return <Retrieval data={event.data} gold={gold} />;
    case 'decision':
      return <Decision data={event.data} />;
    case 'transition': {
      const { from, to, guard, label } = transitionOf(event);
      return (
        <div className="event-detail">
          <div className="kv">
            <span>
              edge <b>{from ?? '?'} → {to ?? '?'}</b>
            </span>
            {label ? <span>label <b>{label}</b></span> : null}
            {guard ? <span>guard <b>[{guard}]</b></span> : null}
          </div>
        </div>
      );
    }
    case 'error':
      return (
        <div className="event-detail event-error">
          <Json value={event.data} />
        </div>
      );
    default:
      return Object.keys(event.data).length ? (
        <div className="event-detail">
          <Json value={event.data} />
        </div>
      ) : (
        <div className="event-detail muted">no data</div>
      );
  }
}

function Field({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="field">
      <div className="field-name">{name}</div>
      <div className="field-value">{children}</div>
    </div>
  );
}

function Json({ value }: { value: unknown }) {
  return <pre className="json">{pretty(value)}</pre>;
}

function ModelCall({ data }: { data: Data }) {
  const messages = list(data.messages)
    .map((message) => obj(message))
    .filter((message): message is Data => Boolean(message));
  const known = new Set(['messages', 'text', 'output', 'promptTokens', 'completionTokens', 'promptId', 'role', 'model']);
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => !known.has(key)));
  return (
    <div className="event-detail">
      <div className="kv">
        <span>prompt <b>{str(data.promptId) ?? '—'}</b></span>
        <span>model <b>{str(data.model) ?? '—'}</b></span>
        <span>
          tokens <b>{num(data.promptTokens) ?? '?'}</b> in · <b>{num(data.completionTokens) ?? '?'}</b> out{data.estimated ? ' (estimated)' : ''}
        </span>
        {num(data.latencyMs) !== undefined ? <span>latency <b>{num(data.latencyMs)} ms</b></span> : null}
      </div>
      {messages.length ? (
        <Field name="prompt">
          {messages.map((message, i) => (
            <div key={i} className={`message role-${str(message.role) ?? 'user'}`}>
              <div className="message-role">{str(message.role) ?? 'message'}</div>
              <pre>{typeof message.content === 'string' ? message.content : pretty(message.content)}</pre>
            </div>
          ))}
        </Field>
      ) : null}
      {data.text !== undefined ? (
        <Field name="reply">
          <pre className="reply">{pretty(data.text)}</pre>
        </Field>
      ) : null}
      {data.output !== undefined ? (
        <Field name="parsed output">
          <Json value={data.output} />
        </Field>
      ) : null}
      {Object.keys(rest).length ? (
        <Field name="call">
          <Json value={rest} />
        </Field>
      ) : null}
    </div>
  );
}

function Retrieval({ data, gold }: { data: Data; gold: StudioGold | undefined }) {
  const isGold = goldMatcher(gold);
  const hits = list(data.hits).map((hit) => obj(hit) ?? {});
  return (
    <div className="event-detail">
      <div className="kv">
        <span>query <b>“{str(data.query) ?? brief(data.query)}”</b></span>
        {data.k !== undefined ? <span>k <b>{brief(data.k)}</b></span> : null}
        {data.level !== undefined ? <span>level <b>{brief(data.level)}</b></span> : null}
      </div>
      <ol className="hits">
        {hits.map((hit, i) => {
          const golden = isGold({ id: str(hit.id), title: str(hit.title) });
          return (
            <li key={i} className={golden ? 'hit is-gold' : 'hit'} data-gold={golden ? 'true' : undefined}>
              <span className="hit-rank">{num(hit.rank) ?? i + 1}</span>
              <span className="hit-title">{str(hit.title) ?? str(hit.id) ?? brief(hit)}</span>
              {golden ? <span className="gold-badge">gold</span> : null}
              <span className="hit-score">{num(hit.score)?.toFixed(2) ?? ''}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function Decision({ data }: { data: Data }) {
  const decision = str(data.decision) ?? 'decision';
  const verdict = decision === 'CONTINUE' || decision === 'STOP' ? decision : undefined;
  return (
    <div className="event-detail">
      <div className="kv">
        <span>
          decision <b className={verdict ? `verdict verdict-${verdict.toLowerCase()}` : undefined}>{decision}</b>
        </span>
        {num(data.sufficiency) !== undefined ? <span>sufficiency <b>{num(data.sufficiency)}</b></span> : null}
        {str(data.workflow) ? <span>workflow <b>{str(data.workflow)}</b></span> : null}
      </div>
      <Json value={Object.fromEntries(Object.entries(data).filter(([key]) => key !== 'decision'))} />
    </div>
  );
}

/**
 * A list row for one event: summary line, expandable detail (rendered only when open). Memoised:
 * the Run page's list re-renders on every event that arrives, and its earlier rows do not change.
 */
export const EventRow = memo(function EventRow({
  event,
  gold,
  current,
  onSelect,
}: {
  event: TraceEvent;
  gold?: StudioGold;
  current?: boolean;
  onSelect?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const isGold = goldMatcher(gold);
  const expandable = event.kind !== 'exit' && event.kind !== 'transition' && (event.kind !== 'enter' || Object.keys(event.data).length > 0);
  const summary = eventSummary(event, isGold);
  return (
    <li className={`event-row kind-${event.kind}${current ? ' is-current' : ''}`} data-testid="event-row" data-kind={event.kind} data-seq={event.seq} data-node={event.node} onClick={onSelect}>
      {expandable ? (
        <details open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
          <summary>
            <EventHead event={event} summary={summary} />
          </summary>
          {open ? <EventDetail event={event} {...(gold ? { gold } : {})} /> : null}
        </details>
      ) : (
        <div className="event-line">
          <EventHead event={event} summary={summary} />
        </div>
      )}
    </li>
  );
});

function EventHead({ event, summary }: { event: TraceEvent; summary: string }) {
  return (
    <>
      <span className="event-seq">{event.seq}</span>
      <span className={`event-kind kind-${event.kind}`}>{event.kind}</span>
      <span className="event-node">{event.node}</span>
      {summary ? <span className="event-summary">{summary}</span> : null}
    </>
  );
}
