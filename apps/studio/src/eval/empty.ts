import { workflowIds, type EvalSummary } from './types';

/**
 * What the eval page says instead of its figures when no workflow has any: every run failed
 * (`workflows: {}`, e.g. a provider that could not be reached). One message saying so, and what
 * brings the figures, rather than empty axes and an empty table. Undefined when there are figures.
 */
export function noRunsNote(summary: EvalSummary): string | undefined {
  if (workflowIds(summary).length > 0) return undefined;
  const failed = summary.failed;
  if (!failed || failed.runs === 0) return 'No workflow has figures in this summary: no run finished.';
  const codes = Object.entries(failed.codes ?? {})
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const again = failed.retryable ? `; a re-run of the same command runs ${failed.retryable === failed.runs ? 'them' : `${failed.retryable} of them`} again` : '';
  return `No run succeeded: ${failed.runs} failed${codes ? ` (${codes})` : ''}, so there are no figures${again}.`;
}

/** The Pareto plot's note when no workflow has the chosen quality figure (say, no judge's correctness). */
export const noFigureNote = (qualityName: string): string => `No workflow has a figure for ${qualityName}.`;
