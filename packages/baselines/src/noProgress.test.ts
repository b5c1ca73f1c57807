import { createModel, createScriptedProvider, type RunResult } from '@multihop/core';
import { chartWalkProblems } from '@multihop/engine-langgraph';
import { overlapRetriever } from '@multihop/conformance';
import { hotpotDevSample } from '@multihop/testing';
import { ircot, react } from './index';

// A real HotpotQA dev question with its ten paragraphs, searched by term overlap.
const [sample] = hotpotDevSample(1);
const question = sample!.question;
const retriever = () => overlapRetriever(sample!.passages);
const scripted = (replies: Record<string, string[]>) => createModel({ provider: createScriptedProvider({ replies }) });
const rag = (answer: string) => JSON.stringify({ reasoning: 'from the gathered passages', answer });
const ircotStep = (thought: string, answer: string | null = null) => JSON.stringify({ thought, answer });
const reactStep = (action: 'search' | 'finish', input: string) => JSON.stringify({ thought: 'next', action, input });

const noProgress = (r: RunResult) => r.trace.filter((e) => e.kind === 'decision' && e.data['decision'] === 'no-progress');
const edges = (r: RunResult) =>
  r.trace.filter((e) => e.kind === 'transition').map((e) => `${String(e.data['from'])}→${String(e.data['to'])}${e.data['label'] ? ` ${String(e.data['label'])}` : ''}`);

describe('IRCoT stops a chain that makes no progress', () => {
  it('a sentence that repeats an earlier query (compared normalised) ends the chain, answered from the gathered passages', async () => {
    const r = await ircot().run(question, {
      model: scripted({
        ircot: [ircotStep('Shirley Temple portrayed Corliss Archer in Kiss and Tell.'), ircotStep('shirley temple portrayed Corliss Archer in "Kiss and Tell"')],
        'rag-answer': [rag('Shirley Temple')],
      }),
      retriever: retriever(),
    });
    expect(r).toMatchObject({ status: 'partial', stopReason: 'no-progress', answer: 'Shirley Temple' });
    expect(noProgress(r)).toEqual([expect.objectContaining({ node: 'retrieve', data: expect.objectContaining({ kind: 'repeated-query', step: 2, query: 'shirley temple portrayed Corliss Archer in "Kiss and Tell"' }) })]);
    expect(edges(r).slice(-3)).toEqual(['reason→retrieve continue', 'retrieve→answer_at_bound no-progress', 'answer_at_bound→__end__']);
    // The repeated sentence was not searched again.
    expect(r.usage.retrievalCalls).toBe(2);
    expect(r.data?.['noProgress']).toMatchObject({ kind: 'repeated-query', step: 2 });
    expect(chartWalkProblems(r.trace, ircot().chart())).toEqual([]);
  });

  it('a retrieval that brings no passage not yet gathered ends the chain', async () => {
    // k = 10 gathers all ten paragraphs with the question's retrieval: the first sentence's retrieval cannot add one.
    const r = await ircot({ k: 10 }).run(question, {
      model: scripted({ ircot: [ircotStep('Shirley Temple served as Chief of Protocol.')], 'rag-answer': [rag('Chief of Protocol')] }),
      retriever: retriever(),
    });
    expect(r).toMatchObject({ status: 'partial', stopReason: 'no-progress', answer: 'Chief of Protocol' });
    expect(noProgress(r)).toEqual([expect.objectContaining({ node: 'retrieve', data: expect.objectContaining({ kind: 'no-new-passage', query: 'Shirley Temple served as Chief of Protocol.', step: 1 }) })]);
    expect(edges(r)).toEqual([
      '__start__→retrieve', 'retrieve→reason progress', 'reason→retrieve continue', 'retrieve→answer_at_bound no-progress', 'answer_at_bound→__end__',
    ]);
    expect(chartWalkProblems(r.trace, ircot({ k: 10 }).chart())).toEqual([]);
  });

  it('a chain whose sentences each bring new passages is not stopped', async () => {
    const r = await ircot({ k: 3 }).run(question, {
      model: scripted({
        ircot: [ircotStep('Shirley Temple portrayed Corliss Archer in Kiss and Tell.'), ircotStep('Shirley Temple served as Chief of Protocol.', 'Chief of Protocol')],
      }),
      retriever: retriever(),
    });
    expect(r).toMatchObject({ status: 'ok', answer: 'Chief of Protocol' });
    expect(noProgress(r)).toEqual([]);
    expect(edges(r).filter((e) => e.startsWith('retrieve→'))).toEqual(['retrieve→reason progress', 'retrieve→reason progress']);
  });
});

describe('ReAct stops a loop that makes no progress', () => {
  it('a search action that repeats an earlier search ends the loop, answered from the observed passages', async () => {
    const r = await react().run(question, {
      model: scripted({ react: [reactStep('search', 'Corliss Archer Kiss and Tell'), reactStep('search', 'corliss archer: kiss and tell')], 'rag-answer': [rag('Shirley Temple')] }),
      retriever: retriever(),
    });
    expect(r).toMatchObject({ status: 'partial', stopReason: 'no-progress', answer: 'Shirley Temple' });
    expect(noProgress(r)).toEqual([expect.objectContaining({ node: 'search', data: expect.objectContaining({ kind: 'repeated-query', query: 'corliss archer: kiss and tell', step: 2 }) })]);
    expect(edges(r)).toEqual(['__start__→think', 'think→search search', 'search→think progress', 'think→search search', 'search→answer_at_bound no-progress', 'answer_at_bound→__end__']);
    expect(r.usage.retrievalCalls).toBe(1);
    expect(chartWalkProblems(r.trace, react().chart())).toEqual([]);
  });

  it('a search that observes only passages observed before ends the loop', async () => {
    const r = await react().run(question, {
      model: scripted({ react: [reactStep('search', 'Kiss and Tell 1945 film'), reactStep('search', 'A Kiss for Corliss 1949 film')], 'rag-answer': [rag('Shirley Temple')] }),
      retriever: retriever(),
    });
    expect(r).toMatchObject({ status: 'partial', stopReason: 'no-progress', answer: 'Shirley Temple' });
    expect(noProgress(r)).toEqual([expect.objectContaining({ node: 'search', data: expect.objectContaining({ kind: 'no-new-passage', query: 'A Kiss for Corliss 1949 film', step: 2 }) })]);
    expect(edges(r).slice(-2)).toEqual(['search→answer_at_bound no-progress', 'answer_at_bound→__end__']);
    expect(r.usage.retrievalCalls).toBe(2);
    expect(chartWalkProblems(r.trace, react().chart())).toEqual([]);
  });

  it('searches that each observe a new passage go on to finish', async () => {
    const r = await react().run(question, {
      model: scripted({
        react: [reactStep('search', 'Kiss and Tell 1945 film'), reactStep('search', 'Shirley Temple served as Chief of Protocol'), reactStep('finish', 'Chief of Protocol')],
      }),
      retriever: retriever(),
    });
    expect(r).toMatchObject({ status: 'ok', answer: 'Chief of Protocol' });
    expect(noProgress(r)).toEqual([]);
    expect(edges(r).filter((e) => e.startsWith('search→'))).toEqual(['search→think progress', 'search→think progress']);
  });
});

describe('where the charts draw the no-progress exits', () => {
  it('IRCoT’s retrieve and ReAct’s search each have a madeProgress edge to answer_at_bound', () => {
    for (const [workflow, from, next] of [[ircot(), 'retrieve', 'reason'], [react(), 'search', 'think']] as const) {
      expect(workflow.chart().edges).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ from, to: next, kind: 'conditional', guard: 'madeProgress', label: 'progress' }),
          expect.objectContaining({ from, to: 'answer_at_bound', kind: 'conditional', guard: 'madeProgress', label: 'no-progress' }),
        ]),
      );
    }
  });
});
