import { chartFromXState, chartWalkProblems, createModel, createScriptedProvider, toMermaid } from '@multihop/core';
import { hopActors, hopLoop, hotpotQuestions, overlapRetriever, reply, walkProblems } from '../test/hopLoop';
import { defineXStateWorkflow } from './defineXStateWorkflow';

const { question, passages } = hotpotQuestions(1)[0]!;
const retriever = overlapRetriever(passages);
const scripted = (...replies: string[]) => createModel({ provider: createScriptedProvider({ replies: { reasoner: replies }, repeatLast: true }) });
const labels = { decide: 'answered?' };

const hopWorkflow = (pauseWhen?: (state: string, context: { hops: number }) => boolean) =>
  defineXStateWorkflow({
    id: 'hop-loop',
    title: 'Retrieve, reason, repeat',
    paper: 'test',
    machine: hopLoop,
    labels,
    input: (query) => ({ question: query.text }),
    implementations: (ctx) => ({ actors: hopActors.bind({ ctx }) }),
    failedStates: ['failed'],
    ...(pauseWhen ? { pauseWhen } : {}),
    output: ({ context }) => ({ answer: context.answer, data: { hops: context.hops } }),
  });

describe('defineXStateWorkflow', () => {
  it('draws its chart from the machine it runs, and every run walks on that chart', async () => {
    const workflow = hopWorkflow();
    const chart = workflow.chart();
    expect(chart).toEqual(chartFromXState(hopLoop, { id: 'hop-loop', title: 'Retrieve, reason, repeat', labels }));
    expect(chart.nodes.find((n) => n.id === 'decide')).toMatchObject({ label: 'answered?', kind: 'choice' });
    expect(toMermaid(chart)).toContain('[hopsLeft]');

    const result = await workflow.run(question, { model: scripted(reply('a partial answer', false), reply(question.answer, true)), retriever });
    expect(result).toMatchObject({ status: 'ok', answer: question.answer, data: { hops: 2 } });
    expect(walkProblems(chart, result.trace)).toEqual([]);
    expect(result.trace.filter((e) => e.kind === 'transition').at(-1)?.data).toEqual({ from: 'decide', to: 'done', guard: 'answered', label: 'always' });
    // core's published check reads the same run as a walk: the choice is passed through, the final state ends it.
    expect(chartWalkProblems(result.trace, chart)).toEqual([]);
    const cut = result.trace.filter((e) => !(e.kind === 'transition' && e.data['to'] === 'done'));
    expect(chartWalkProblems(cut, chart)).toEqual(expect.arrayContaining([expect.stringMatching(/^the run never reached an end node/)]));
    const skipped = result.trace.filter((e) => !(e.kind === 'enter' && e.node === 'reason'));
    expect(chartWalkProblems(skipped, chart).length).toBeGreaterThan(0);
    // An edge taken after the end, and a step left twice after one run, are not a walk either.
    const last = result.trace.filter((e) => e.kind === 'transition').at(-1)!;
    expect(chartWalkProblems([...result.trace, { ...last, seq: last.seq + 1000 }], chart)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^decide→done taken after the run reached its end/), expect.stringMatching(/^decide→done left decide with no edge taken into it/)]),
    );
    const leaving = result.trace.findIndex((e) => e.kind === 'transition' && e.data['from'] === 'reason');
    const twice = [...result.trace.slice(0, leaving + 1), result.trace[leaving]!, ...result.trace.slice(leaving + 1)];
    expect(chartWalkProblems(twice, chart)).toEqual(expect.arrayContaining([expect.stringMatching(/^reason→\w+: reason left by a second edge after one run/)]));
  });

  it('makes a paused run partial with its snapshot, and resume finishes it in a new actor with the same answer', async () => {
    const uninterrupted = await hopWorkflow().run(question, { model: scripted(reply('a partial answer', false), reply(question.answer, true)), retriever });
    const paused = await hopWorkflow((state, context) => state === 'retrieve' && context.hops === 1).run(question, {
      model: scripted(reply('a partial answer', false)),
      retriever,
    });
    expect(paused).toMatchObject({ status: 'partial', stopReason: 'paused', answer: 'a partial answer', data: { hops: 1, snapshot: { value: 'retrieve' } } });

    // The snapshot is plain JSON: it can be written to disk and read back by another process.
    const stored = JSON.parse(JSON.stringify(paused.data?.['snapshot'])) as unknown;
    const resumed = await hopWorkflow().resume(question, stored, { model: scripted(reply(question.answer, true)), retriever });
    expect(resumed).toMatchObject({ status: 'ok', answer: uninterrupted.answer, data: { hops: 2 } });
    expect(resumed.usage.byRole['reasoner']?.calls).toBe(1);
    expect(walkProblems(hopWorkflow().chart(), resumed.trace)).toEqual([]);

    // No snapshot (a mistyped data field) is refused, not a fresh run paid in full; nor is another question's.
    await expect(hopWorkflow().resume(question, undefined, { model: scripted(reply(question.answer, true)), retriever })).rejects.toThrow(/resume needs the paused run's snapshot \(its result's data.snapshot\), got undefined/);
    const other = { ...question, id: 'other', text: 'Who directed Jaws?' };
    await expect(hopWorkflow().resume(other, stored, { model: scripted(reply(question.answer, true)), retriever })).rejects.toThrow(/the snapshot was paused on another question .*, not "Who directed Jaws\?"/);
  });

  it('fails a run clearly when the workflow gives the machine no runtime', async () => {
    const chartOnly = defineXStateWorkflow({
      id: 'hop-loop-chart-only',
      title: 'chart only',
      paper: 'test',
      machine: hopLoop,
      input: (query) => ({ question: query.text }),
      failedStates: ['failed'],
      output: ({ context }) => ({ answer: context.answer }),
    });
    expect(chartOnly.chart().nodes.map((n) => n.id)).toEqual(['__start__', 'retrieve', 'reason', 'decide', 'done', 'failed']);
    const result = await chartOnly.run(question, { model: scripted(), retriever });
    expect(result).toMatchObject({ status: 'error', error: { code: 'XSTATE_RUNTIME' } });
  });
});
