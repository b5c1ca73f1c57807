import { validateChart, type TraceEvent } from '@multihop/core';
import { hotpotCases } from '../test/hotpot';
import { coverageWorkflow, noModel } from '../test/coverageLoop';
import { takenEdges } from '../test/walk';
import { chartWalkProblems } from '@multihop/core';

const cases = hotpotCases(8);

describe('transition events: every edge a run takes, lit up on the chart', () => {
  it('reports each edge of a run in order: start, one per Send branch, the join, the guarded loop, end', async () => {
    // Ten titles are never covered by k=2 searches, so the loop runs until its two hops are spent.
    const workflow = coverageWorkflow({ parts: 3, k: 2, titlesWanted: 10, maxHops: 2 });
    const result = await workflow.run(cases[0]!.query, { model: noModel(), retriever: cases[0]!.retriever });

    expect(result.status).toBe('ok');
    expect(takenEdges(result.trace)).toEqual([
      '__start__→plan',
      'plan→search [oneBranchPerSubQuery]',
      'plan→search [oneBranchPerSubQuery]',
      'plan→search [oneBranchPerSubQuery]',
      'search→merge',
      'search→merge',
      'search→merge',
      'merge→check',
      'check→follow_up [coverageReached] CONTINUE',
      'follow_up→check',
      'check→__end__ [coverageReached] STOP',
    ]);
    // Each transition is emitted at its source node, so a node's events stay together.
    expect(result.trace.filter((e) => e.kind === 'transition').every((e) => e.node === e.data['from'])).toBe(true);
  });

  it('a run is a walk on the chart read off the compiled graph, whichever path real retrieval takes', async () => {
    const paths = new Set<string>();
    for (const [i, c] of cases.entries()) {
      // Different coverage targets make runs stop at the first check, after one hop or after two.
      const workflow = coverageWorkflow({ parts: 2 + (i % 3), k: 2, titlesWanted: 2 + (i % 4), maxHops: 2 });
      const chart = workflow.chart();
      expect(validateChart(chart)).toEqual([]);
      const result = await workflow.run(c.query, { model: noModel(), retriever: c.retriever });
      expect(result.status).toBe('ok');
      expect(chartWalkProblems(result.trace, chart)).toEqual([]);
      paths.add(takenEdges(result.trace).filter((t) => t.startsWith('check')).join(' / '));
    }
    // The questions did take different routes through the guard, so the walks cover both branches.
    expect(paths.size).toBeGreaterThan(1);
  });

  it('the walk check rejects a trace that is not a walk (an edge dropped, or taken before its node ran)', async () => {
    const workflow = coverageWorkflow({ parts: 2, k: 2, titlesWanted: 10, maxHops: 1 });
    const chart = workflow.chart();
    const { trace } = await workflow.run(cases[1]!.query, { model: noModel(), retriever: cases[1]!.retriever });
    expect(chartWalkProblems(trace, chart)).toEqual([]);

    const withoutMergeExit = trace.filter((e) => !(e.kind === 'transition' && e.data['from'] === 'merge'));
    expect(chartWalkProblems(withoutMergeExit, chart)).toContain('check entered with no edge taken into it (seq ' + trace.find((e) => e.node === 'check' && e.kind === 'enter')!.seq + ')');

    const moved: TraceEvent[] = [...trace];
    const at = moved.findIndex((e) => e.kind === 'transition' && e.data['from'] === 'merge');
    const [edge] = moved.splice(at, 1);
    moved.splice(moved.findIndex((e) => e.node === 'merge' && e.kind === 'enter') + 1, 0, edge!);
    expect(chartWalkProblems(moved, chart).some((p) => p.startsWith('merge→check taken before merge finished'))).toBe(true);

    expect(chartWalkProblems(trace.filter((e) => e.data['to'] !== '__end__'), chart)).toContain('the run never reached an end node (__end__)');
  });

  it('delivers the transitions live, in trace order, to onEvent listeners', async () => {
    const live: string[] = [];
    const workflow = coverageWorkflow({ parts: 2, k: 2, titlesWanted: 1, maxHops: 1 });
    const result = await workflow.run(cases[2]!.query, {
      model: noModel(),
      retriever: cases[2]!.retriever,
      onEvent: (e) => {
        if (e.kind === 'transition') live.push(`${String(e.data['from'])}→${String(e.data['to'])}`);
      },
    });
    expect(live).toEqual(takenEdges(result.trace).map((t) => t.split(' ')[0]));
    expect(live.at(-1)).toBe('check→__end__');
  });
});
