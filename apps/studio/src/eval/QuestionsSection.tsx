import { useDeferredValue, useMemo, useState } from 'react';
import { ErrorBoundary } from '../ErrorBoundary';
import { OfflineTag } from '../OfflineTag';
import { summaryOffline } from '../offline';
import { shortTokens } from './format';
import { QuestionDetail, type TraceLoad } from './QuestionDetail';
import { filterQuestions, groupQuestions, rowTokens, scoredNote, verdictOf, type Outcome } from './questions';
import { Section } from './Section';
import { hasJudge, workflowIds, type EvalData, type EvalRow } from './types';

const PAGE = 100;

/** ✓ / ✗ for the judge's verdict, or a dash when the row was not judged. */
function Verdict({ value }: { value: 0 | 1 | undefined }) {
  if (value === undefined) return <span className="eval-verdict eval-verdict-none" title="not judged">—</span>;
  return value === 1 ? (
    <span className="eval-verdict eval-verdict-yes" title="judged correct">
      ✓
    </span>
  ) : (
    <span className="eval-verdict eval-verdict-no" title="judged wrong">
      ✗
    </span>
  );
}

function AnswerCell({ data, row }: { data: EvalData; row: EvalRow | undefined }) {
  if (!row) return <td className="eval-answer eval-missing">no run</td>;
  return (
    <td className={`eval-answer eval-status-${row.status}`}>
      <div className="eval-answer-text" title={row.prediction}>
        {row.prediction || <i>no answer</i>}
      </div>
      <div className="eval-answer-meta" title="judged correct · EM · F1 · tokens (≈ estimated)">
        <Verdict value={verdictOf(data, row)} /> EM {row.metrics.em} · F1 {row.metrics.f1.toFixed(2)} · {shortTokens(rowTokens(row), row.usage?.estimated === true)}
        {row.status !== 'ok' && (
          <span className="eval-badge" title={scoredNote(row)}>
            {row.scoredAsWrong ? `${row.errorCode ?? row.status}: scored wrong` : (row.stopReason ?? row.status)}
          </span>
        )}
      </div>
    </td>
  );
}

/** Every question with each workflow's answer; a click opens the question's detail and its replays. */
export function QuestionsSection({ data, selected, onSelect, loadTrace }: { data: EvalData; selected?: string; onSelect: (id: string | undefined) => void; loadTrace: TraceLoad }) {
  const groups = useMemo(() => groupQuestions(data.rows), [data]);
  const ids = useMemo(() => workflowIds(data.summary), [data]);
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<Outcome>('all');
  const [shown, setShown] = useState(PAGE);
  // Typing stays responsive on a large eval: the table re-filters behind the input, not on each key's render.
  const query = useDeferredValue(text);
  const visible = useMemo(() => filterQuestions(data, groups, query, outcome), [data, groups, query, outcome]);
  const judged = hasJudge(data.summary);
  const current = selected ? groups.find((g) => g.id === selected) : undefined;

  return (
    <Section id="questions" title="Questions" note={`${groups.length} questions × ${ids.length} workflows. Each cell: the answer, then ✓/✗ judged, EM, F1 and tokens. Click a question for its gold answers and its runs replayed side by side.`}>
      {current && (
        // One question that cannot be drawn (a malformed trace or row) says so in its place; the table and the next question still work.
        <ErrorBoundary key={current.id} what={`question ${current.id}`}>
          <QuestionDetail data={data} group={current} workflows={ids} loadTrace={loadTrace} onClose={() => onSelect(undefined)} />
        </ErrorBoundary>
      )}
      {selected && !current && <p className="eval-error">No question {selected} in this eval.</p>}
      <div className="eval-controls">
        <label>
          Filter{' '}
          <input
            type="search"
            data-testid="question-filter"
            placeholder="question, id, gold or answer text"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setShown(PAGE);
            }}
          />
        </label>
        <label>
          Show{' '}
          <select value={outcome} onChange={(e) => setOutcome(e.target.value as Outcome)}>
            <option value="all">all questions</option>
            <option value="split">workflows disagree</option>
            <option value="none-right">no workflow right</option>
            <option value="all-right">every workflow right</option>
          </select>
        </label>
        <span className="eval-count" data-testid="question-count" aria-busy={query !== text}>
          {summaryOffline(data.summary) ? <OfflineTag partly={summaryOffline(data.summary) === 'partly'} /> : null} {visible.length} of {groups.length} {judged ? '(right: judged correct; an answer without a verdict is not counted right)' : '(right: EM = 1)'}
        </span>
      </div>
      <div className="eval-table-scroll">
        <table className="eval-table eval-questions" data-testid="questions-table">
          <thead>
            <tr>
              <th>question</th>
              <th>gold</th>
              {ids.map((id) => (
                <th key={id}>{id}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {visible.slice(0, shown).map((g) => (
              <tr
                key={g.id}
                data-testid="question-row"
                data-question-id={g.id}
                className={g.id === selected ? 'eval-row-selected' : undefined}
                tabIndex={0}
                onClick={() => onSelect(g.id)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onSelect(g.id);
                  }
                }}
              >
                <td className="eval-question-text">
                  {g.text}
                  <div className="eval-id">{g.id}</div>
                </td>
                <td className="eval-gold">{g.gold.join(' | ')}</td>
                {ids.map((id) => (
                  <AnswerCell key={id} data={data} row={g.rows.get(id)} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {visible.length > shown && (
        <button type="button" className="eval-more" onClick={() => setShown(shown + PAGE)}>
          Show {Math.min(PAGE, visible.length - shown)} more
        </button>
      )}
    </Section>
  );
}
