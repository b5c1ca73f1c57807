import { useEffect, useRef, useState } from 'react';
import type { StudioReplay } from '../api/client';
import { useLoaded } from '../data';
import { TraceReplay } from '../replay/TraceReplay';
import { OfflineTag } from '../OfflineTag';
import { summaryOffline } from '../offline';
import { rate, tokens, whole } from './format';
import { rowTokens, scoredNote, verdictOf, type QuestionGroup } from './questions';
import type { EvalData, EvalRow } from './types';

/** Loads one run's trace (a row's `trace` path): from the server, or from the report's embedded traces. */
export type TraceLoad = (file: string) => Promise<StudioReplay>;

function ReplayColumn({ row, loadTrace, supportingIds }: { row: EvalRow; loadTrace: TraceLoad; supportingIds: string[] }) {
  const loaded = useLoaded(() => loadTrace(row.trace), [row.trace, loadTrace]);
  return (
    <div className="eval-replay-column" data-workflow={row.workflow}>
      {loaded.state !== 'ready' && <h4>{row.workflow}</h4>}
      {loaded.state === 'loading' && <p className="eval-empty">Loading the trace…</p>}
      {loaded.state === 'error' && (
        <p className="eval-error">
          Could not load {row.trace}: {loaded.message}
        </p>
      )}
      {loaded.state === 'ready' && (
        // Gold answers from the row; gold passage ids from the eval's dataset, when the server could read it.
        <TraceReplay replay={loaded.value} gold={{ answers: row.gold, supportingIds }} compact />
      )}
    </div>
  );
}

/** A question's gold answers, each workflow's answer and scores, and the chosen workflows' runs replayed side by side. */
export function QuestionDetail({
  data,
  group,
  workflows,
  loadTrace,
  onClose,
}: {
  data: EvalData;
  group: QuestionGroup;
  workflows: string[];
  loadTrace: TraceLoad;
  onClose: () => void;
}) {
  const ran = workflows.filter((id) => group.rows.has(id));
  const [picked, setPicked] = useState<string[]>(() => ran.slice(0, 2));
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [group.id]);
  const toggle = (id: string) => setPicked((now) => (now.includes(id) ? now.filter((x) => x !== id) : ran.filter((x) => x === id || now.includes(x))));
  const columns = picked.flatMap((id) => {
    const row = group.rows.get(id);
    return row ? [row] : [];
  });

  return (
    <div className="eval-detail" data-testid="question-detail" data-question-id={group.id} ref={ref}>
      <div className="eval-detail-head">
        <h3>{group.text}</h3>
        <button type="button" onClick={onClose} aria-label="close the question">
          ✕ Close
        </button>
      </div>
      <p className="eval-id">
        {group.id}
        {summaryOffline(data.summary) ? <> · <OfflineTag partly={summaryOffline(data.summary) === 'partly'} /></> : null}
      </p>
      <p className="eval-gold-line">
        Gold: {group.gold.map((g, i) => <strong key={i} className="eval-gold-answer">{g}</strong>)}
      </p>
      <div className="eval-table-scroll">
        <table className="eval-table" data-testid="question-answers">
          <thead>
            <tr>
              <th>workflow</th>
              <th>answer</th>
              <th className="num">judged</th>
              <th className="num">EM</th>
              <th className="num">F1</th>
              <th className="num">Recall@5</th>
              <th className="num">LLM calls</th>
              <th className="num">tokens</th>
              <th className="num">latency ms</th>
              <th>status</th>
            </tr>
          </thead>
          <tbody>
            {ran.map((id) => {
              const row = group.rows.get(id)!;
              const verdict = verdictOf(data, row);
              return (
                <tr key={id}>
                  <th scope="row">{id}</th>
                  <td>{row.prediction || <i>no answer</i>}</td>
                  <td className="num">{verdict === undefined ? '—' : verdict === 1 ? '✓ yes' : '✗ no'}</td>
                  <td className="num">{row.metrics.em}</td>
                  <td className="num">{rate(row.metrics.f1)}</td>
                  <td className="num">{rate(row.metrics.recall_at_5 ?? null)}</td>
                  <td className="num">{whole(row.usage?.llmCalls)}</td>
                  <td className="num">{tokens(rowTokens(row), row.usage?.estimated === true)}</td>
                  <td className="num">{whole(row.latencyMs)}</td>
                  <td>
                    {row.status}
                    {row.stopReason ? ` (${row.stopReason})` : ''}
                    {row.error ? `: ${row.error}` : ''}
                    {row.status !== 'ok' && <div className="eval-id">{scoredNote(row)}</div>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <fieldset className="eval-pick">
        <legend>Replay side by side</legend>
        {ran.map((id) => (
          <label key={id}>
            <input type="checkbox" checked={picked.includes(id)} onChange={() => toggle(id)} data-testid="side-by-side-pick" value={id} /> {id}
          </label>
        ))}
      </fieldset>
      <div className="eval-side-by-side" data-testid="side-by-side" style={{ gridTemplateColumns: `repeat(${Math.max(1, columns.length)}, minmax(340px, 1fr))` }}>
        {columns.length === 0 ? <p className="eval-empty">Pick workflows above to replay their runs.</p> : columns.map((row) => <ReplayColumn key={row.workflow} row={row} loadTrace={loadTrace} supportingIds={data.supportingIds?.[group.id] ?? []} />)}
      </div>
    </div>
  );
}
