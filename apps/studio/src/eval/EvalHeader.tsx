import { created, whole } from './format';
import { workflowIds, type EvalSummary } from './types';

/** What the eval ran: dataset, setting, questions, model, judge, when; the offline model's figures labelled as such. */
export function EvalHeader({ summary, dir, report }: { summary: EvalSummary; dir: string; report?: { generated: string } }) {
  const judge = summary.judge;
  const judgeTokens = judge && judge.prompt_tokens !== undefined ? (judge.prompt_tokens ?? 0) + (judge.completion_tokens ?? 0) : undefined;
  return (
    <header className="eval-header" data-testid="eval-header">
      <h1>
        {summary.dataset}
        {summary.sweep ? ` · sweep of ${summary.sweep.workflow}` : ''}
      </h1>
      <p className="eval-id" title="eval directory">
        {dir}
      </p>
      <dl className="eval-facts">
        <div>
          <dt>setting</dt>
          <dd data-field="setting">
            {summary.setting}
            {summary.corpus && summary.corpus.passages > 0 && (
              <span className="eval-sub">
                {' '}
                ({whole(summary.corpus.passages)} passages, table {summary.corpus.name}
                {summary.corpus.source ? `, from ${summary.corpus.source}` : ''})
              </span>
            )}
            {summary.corpus?.unresolved_gold && (
              <span className="eval-sub" data-field="unresolved-gold">
                {' '}
                · {whole(summary.corpus.unresolved_gold.titles)} gold titles of {whole(summary.corpus.unresolved_gold.questions)} questions are not in the corpus: the retrieval
                metrics count only the gold it holds
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>questions</dt>
          <dd data-field="n">
            n = {summary.n}
            {summary.offset ? <span className="eval-sub"> (from offset {summary.offset})</span> : <span className="eval-sub"> (offset 0)</span>}
          </dd>
        </div>
        <div>
          <dt>workflows</dt>
          <dd>{workflowIds(summary).join(', ')}</dd>
        </div>
        <div>
          <dt>created</dt>
          <dd data-field="created">
            <time dateTime={summary.created}>{created(summary.created)}</time>
            {report && <span className="eval-sub"> · report generated {created(report.generated)}</span>}
          </dd>
        </div>
        <div className="eval-fact-wide">
          <dt>model</dt>
          <dd data-field="model">
            {summary.offline && <span className="eval-offline-tag">offline model</span>} {summary.model}
          </dd>
        </div>
        <div className="eval-fact-wide">
          <dt>judge</dt>
          <dd data-field="judge">
            {judge ? (
              <>
                {judge.offline && <span className="eval-offline-tag">offline judge</span>} {judge.label}
                {judge.calls !== undefined && (
                  <span className="eval-sub">
                    {' '}
                    · {judge.calls} calls ({judge.cached ?? 0} cached), {judge.tokens_estimated ? '≈' : ''}
                    {whole(judgeTokens)} tokens, counted apart{judge.errors ? ` · ${judge.errors} judge errors (left out of Correct)` : ''}
                  </span>
                )}
              </>
            ) : (
              'not judged (EM/F1 only)'
            )}
          </dd>
        </div>
      </dl>
      {summary.offline && (
        <p className="eval-offline-banner" data-testid="offline-banner">
          These are the <strong>offline model’s</strong> figures: a deterministic lexical stand-in, not a language model. They show how the workflows run, not how
          well a language model answers.
          {judge?.offline && ' Correctness is the offline judge’s lexical verdict (gold contained in the answer, or token F1 ≥ 0.6).'}
        </p>
      )}
      {!summary.offline && judge?.offline && (
        <p className="eval-offline-banner">Correctness is the offline judge’s lexical verdict, not a language model’s.</p>
      )}
    </header>
  );
}
