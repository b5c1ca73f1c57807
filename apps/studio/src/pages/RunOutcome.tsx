import type { StudioGold, StudioRunDone } from '../api/client';
import { OfflineTag } from '../OfflineTag';

/** The answer a finished run gave, its status, the gold answers and the metrics against them (marked when the offline model's). */
export function RunOutcome({ done, gold, offline }: { done: StudioRunDone; gold: StudioGold | undefined; offline: 'offline' | 'partly' | undefined }) {
  const { result, metrics } = done;
  return (
    <div className={`run-outcome status-${result.status}`} data-testid="run-outcome" data-result-status={result.status}>
      <div className="outcome-answer">
        <span className="muted">answer</span>{' '}
        <b data-testid="run-answer">{result.answer || '—'}</b>{' '}
        <span className={`status status-${result.status}`} data-testid="run-result-status">
          {result.status}
        </span>
        {result.stopReason ? <span className="muted"> · {result.stopReason}</span> : null}
      </div>
      {gold?.answers.length ? (
        <div>
          <span className="muted">gold</span> <span data-testid="run-gold">{gold.answers.join(' | ')}</span>
        </div>
      ) : null}
      {result.error ? (
        <div className="error small">
          {result.error.code}: {result.error.message}
        </div>
      ) : null}
      <div className="outcome-metrics">
        {offline ? <OfflineTag partly={offline === 'partly'} /> : null}
        {metrics
          ? Object.entries(metrics).map(([name, value]) => (
              <span key={name} className="metric" data-metric={name}>
                {name} <b>{value === null ? '—' : Number.isInteger(value) ? value : value.toFixed(3)}</b>
              </span>
            ))
          : null}
        <span className="metric">
          model calls <b>{result.usage.llmCalls}</b>
        </span>
        <span className="metric">
          tokens <b>{result.usage.promptTokens + result.usage.completionTokens}</b>
          {result.usage.estimated ? ' (est.)' : ''}
        </span>
        <span className="metric">
          retrievals <b>{result.usage.retrievalCalls}</b>
        </span>
        {result.usage.wallMs !== undefined ? (
          <span className="metric">
            wall <b>{result.usage.wallMs} ms</b>
          </span>
        ) : null}
      </div>
    </div>
  );
}
