import { noFigureNote, noRunsNote } from './empty';
import type { EvalSummary } from './types';

/** The summary `multihop eval --model openai:gpt-x` wrote when every call failed (nothing listening): no workflow figures. */
const allFailed = {
  dataset: 'hotpotqa-dev',
  setting: 'open',
  model: 'openai:gpt-x',
  offline: false,
  n: 2,
  offset: 0,
  question_ids: ['5a8c7595554299585d9e36b6', '5a85ea095542994775f606a8'],
  created: '2026-11-28T09:12:18.875Z',
  settings: {},
  workflows: {},
  comparisons: [],
  breakdown: { hops: [], type: [] },
  failed: { runs: 4, retryable: 4, codes: { PROVIDER: 4 }, workflows: { direct: 2, 'single-turn-rag': 2 }, tokens: 0 },
} as unknown as EvalSummary;

describe('the eval page’s notes when there is nothing to draw', () => {
  it('says no run succeeded, how many failed and why, and what runs them again', () => {
    expect(noRunsNote(allFailed)).toBe('No run succeeded: 4 failed (PROVIDER 4), so there are no figures; a re-run of the same command runs them again.');
    expect(noRunsNote({ ...allFailed, failed: { ...allFailed.failed!, retryable: 1 } })).toContain('runs 1 of them again');
    expect(noRunsNote({ ...allFailed, failed: undefined } as unknown as EvalSummary)).toContain('no run finished');
  });

  it('says nothing when a workflow has figures', () => {
    expect(noRunsNote({ ...allFailed, workflows: { direct: { n: 2 } } } as unknown as EvalSummary)).toBeUndefined();
  });

  it('names the missing figure without an article that may not fit it', () => {
    expect(noFigureNote('EM')).toBe('No workflow has a figure for EM.');
  });
});
