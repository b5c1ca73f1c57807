import { created, whole } from './format';
import { workflowIds, type EvalSummary } from './types';

/** A run's budget as the flags that set it. */
function budgetOf(budget: NonNullable<EvalSummary['budget']>): string {
  const parts = [
    budget.maxLlmCalls !== undefined ? `${budget.maxLlmCalls} LLM calls` : '',
    budget.maxTokens !== undefined ? `${whole(budget.maxTokens)} tokens` : '',
    budget.timeoutMs !== undefined ? `${budget.timeoutMs / 1000} s` : '',
  ].filter(Boolean);
  return parts.join(', ') || 'none';
}

/** The failed runs as the summary counts them: those scored as wrong answers, and those left out with the tokens they spent. */
function failedOf(failed: EvalSummary['failed']): string {
  const codes = Object.entries(failed.codes ?? {})
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const own = failed.scored_as_wrong ?? 0;
  const out = failed.runs - own;
  return [
    `${failed.runs} (${codes})`,
    own ? `${own} the workflow's own failure, scored as wrong answers with their tokens` : '',
    out ? `${out} left out of every figure, having spent ${whole(failed.tokens)} tokens counted in none${failed.retryable ? `; ${failed.retryable} run again by a re-run of the same command` : ''}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

/** What the eval ran: dataset, setting, questions, model, judge, when; the offline model's figures labelled as such. */
export function EvalHeader({ summary, dir, report }: { summary: EvalSummary; dir: string; report?: { generated: string } }) {
  const judge = summary.judge;
  const judgeTokens = judge && judge.prompt_tokens !== undefined ? (judge.prompt_tokens ?? 0) + (judge.completion_tokens ?? 0) : undefined;
  return (
    <header className="eval-header" data-testid="eval-header">
      <h1>
        {summary.dataset}
        {summary.sweep ? ` · sweep of ${summary.sweep.workflow}` : ''}
        {summary.offline ? ' · offline model' : summary.offline_partly ? ' · partly offline model' : ''}
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
            {summary.part && (
              <span className="eval-sub">
                {' '}
                · part {summary.part.part} of {summary.part.of} by question id
              </span>
            )}
          </dd>
        </div>
        {summary.budget && (
          <div>
            <dt>budget</dt>
            <dd data-field="budget">{budgetOf(summary.budget)} per run (a run that reached it is partial, scored on its draft)</dd>
          </div>
        )}
        {summary.failed && summary.failed.runs > 0 && (
          <div className="eval-fact-wide">
            <dt>failed runs</dt>
            <dd data-field="failed">{failedOf(summary.failed)}</dd>
          </div>
        )}
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
            {summary.offline && <span className="eval-offline-tag">offline model</span>}
            {summary.offline_partly && <span className="eval-offline-tag">partly offline model</span>} {summary.model}
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
      {(summary.warnings ?? []).map((w) => (
        <p key={w} className="eval-error" data-testid="eval-warning">
          <strong>Warning:</strong> {w}
        </p>
      ))}
      {summary.incomplete && (
        <p className="eval-error" data-testid="eval-incomplete">
          <strong>Incomplete:</strong>{' '}
          {summary.incomplete.judging
            ? `every run finished, but the judging was stopped with ${summary.incomplete.judging.unjudged} answer${summary.incomplete.judging.unjudged === 1 ? '' : 's'} not yet judged; a workflow with answers not yet judged has no correctness until a re-run of the same command judges them.`
            : `${summary.incomplete.stopped ? 'stopped (Ctrl-C) before every pair ran' : 'not every pair has run'}: ${summary.incomplete.questions_complete === undefined || summary.incomplete.questions_complete === summary.incomplete.questions_run ? `${summary.incomplete.questions_run} of ${summary.n} questions ran` : `${summary.incomplete.questions_complete} of ${summary.n} questions ran with every workflow (${summary.incomplete.questions_run} begun)`} (runs per workflow: ${Object.entries(summary.incomplete.runs)
                .map(([id, n]) => `${id} ${n}`)
                .join(', ')}). The figures are over the runs that finished; a re-run of the same command finishes the rest.`}
        </p>
      )}
      {summary.offline && (
        <p className="eval-offline-banner" data-testid="offline-banner">
          These are the <strong>offline model’s</strong> figures: a deterministic lexical stand-in, not a language model. They show how the workflows run, not how
          well a language model answers.
          {judge?.offline && ' Correctness is the offline judge’s lexical verdict (gold contained in the answer, or token F1 ≥ 0.6).'}
        </p>
      )}
      {summary.offline_partly && (
        <p className="eval-offline-banner" data-testid="offline-banner">
          The <strong>offline model</strong> served some of the runs’ roles (the model line names them): figures of workflows that call those roles are, in part or whole,
          a deterministic lexical stand-in’s, not a language model’s.
          {judge?.offline && ' Correctness is the offline judge’s lexical verdict (gold contained in the answer, or token F1 ≥ 0.6).'}
        </p>
      )}
      {!summary.offline && !summary.offline_partly && judge?.offline && (
        <p className="eval-offline-banner">Correctness is the offline judge’s lexical verdict, not a language model’s.</p>
      )}
    </header>
  );
}
