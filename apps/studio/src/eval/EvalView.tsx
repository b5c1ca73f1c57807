import { BreakdownSection } from './BreakdownSection';
import { ComparisonsSection } from './ComparisonsSection';
import { noRunsNote } from './empty';
import { EvalHeader } from './EvalHeader';
import { MetricsSection } from './MetricsSection';
import { ParetoSection } from './ParetoSection';
import type { TraceLoad } from './QuestionDetail';
import { QuestionsSection } from './QuestionsSection';
import type { EvalData } from './types';

/** One eval: its header, the plots, the tables and the questions. */
export function EvalView({
  data,
  loadTrace,
  question,
  onQuestion,
  report,
}: {
  data: EvalData;
  loadTrace: TraceLoad;
  question?: string;
  onQuestion: (id: string | undefined) => void;
  report?: { generated: string };
}) {
  const summary = data.summary;
  const noRuns = noRunsNote(summary);
  if (noRuns) {
    // Nothing to plot or list: the header (with its failed runs) and one message, not empty axes.
    return (
      <div className="eval-view">
        <EvalHeader summary={summary} dir={data.dir} {...(report ? { report } : {})} />
        <p className="eval-error" data-testid="eval-no-runs">
          {noRuns}
        </p>
      </div>
    );
  }
  return (
    <div className="eval-view">
      <EvalHeader summary={summary} dir={data.dir} {...(report ? { report } : {})} />
      <nav className="eval-toc" aria-label="sections">
        <a href="#eval-pareto" onClick={jump('eval-pareto')}>Quality against cost</a>
        <a href="#eval-metrics" onClick={jump('eval-metrics')}>Metrics</a>
        <a href="#eval-breakdown" onClick={jump('eval-breakdown')}>Breakdowns</a>
        <a href="#eval-comparisons" onClick={jump('eval-comparisons')}>Comparisons</a>
        <a href="#eval-questions" onClick={jump('eval-questions')}>Questions</a>
      </nav>
      <ParetoSection summary={summary} />
      <MetricsSection summary={summary} />
      <BreakdownSection summary={summary} />
      <ComparisonsSection summary={summary} />
      <QuestionsSection data={data} {...(question ? { selected: question } : {})} onSelect={onQuestion} loadTrace={loadTrace} />
    </div>
  );
}

/** In-page links scroll without touching the hash (the hash is the app's route). */
const jump = (id: string) => (event: { preventDefault(): void }) => {
  event.preventDefault();
  document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
};
