import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, createScriptedProvider, validateChart, type Question, type RunResult } from '@multihop/core';
import { chartWalkProblems } from '@multihop/engine-langgraph';
import { offlineModel } from '@multihop/offline-model';
import { offlineHandlers } from '@multihop/baselines/offline';
import { openDatasetCorpus, type DatasetCorpus } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';
import { chainOfThought, directInference, ircot, react, singleTurnRag } from './index';

let corpus: DatasetCorpus & { questions: Question[] };
beforeAll(async () => {
  process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
  const opened = await openDatasetCorpus('hotpotqa-dev', { setting: 'closed', uri: await mkdtemp(join(tmpdir(), 'multihop-baselines-')), load: { limit: 10 } });
  corpus = { ...opened, questions: opened.dataset.questions };
});
afterAll(() => corpus.close());
const scopedTo = (c: DatasetCorpus, q: Question) => c.retriever.forQuestion(q.id);

const enters = (r: RunResult) => r.trace.filter((e) => e.kind === 'enter').map((e) => e.node);
const model = (replies: Record<string, string[]>) => createModel({ provider: createScriptedProvider({ replies }) });

describe('baselines on real HotpotQA questions and a LanceDB corpus', () => {
  it('direct and chain-of-thought answer without retrieving', async () => {
    const q = corpus.questions[0]!;
    const d = await directInference().run(q, { model: model({ direct: ['{"answer":"Shirley Temple"}'] }), retriever: scopedTo(corpus, q) });
    expect(d).toMatchObject({ status: 'ok', answer: 'Shirley Temple' });
    expect(d.usage.retrievalCalls).toBe(0);
    const c = await chainOfThought().run(q, { model: model({ cot: ['{"reasoning":"r","answer":"Chief of Protocol"}'] }), retriever: scopedTo(corpus, q) });
    expect(c).toMatchObject({ answer: 'Chief of Protocol', data: { reasoning: 'r' } });
    expect(enters(c)).toEqual(['reason']);
  });

  it('single-turn RAG retrieves top-5 for the question once and answers from them', async () => {
    const q = corpus.questions[1]!;
    const r = await singleTurnRag().run(q, { model: model({ 'rag-answer': ['{"reasoning":"r","answer":"x"}'] }), retriever: scopedTo(corpus, q) });
    expect(enters(r)).toEqual(['retrieve', 'answer']);
    expect(r.evidenceIds).toHaveLength(5);
    expect(r.trace.find((e) => e.kind === 'retrieve')?.data['query']).toBe(q.text);
  });

  it('IRCoT retrieves with each new reasoning sentence until one states the answer', async () => {
    const q = corpus.questions[0]!;
    const r = await ircot().run(q, {
      model: model({
        ircot: [
          '{"thought":"Shirley Temple portrayed Corliss Archer in Kiss and Tell.","answer":null}',
          '{"thought":"Shirley Temple served as Chief of Protocol.","answer":"Chief of Protocol"}',
        ],
      }),
      retriever: scopedTo(corpus, q),
    });
    expect(r).toMatchObject({ status: 'ok', answer: 'Chief of Protocol' });
    expect(enters(r)).toEqual(['retrieve', 'reason', 'retrieve', 'reason']);
    expect(r.trace.filter((e) => e.kind === 'transition').map((e) => [e.data['from'], e.data['to'], e.data['label']])).toEqual([
      ['__start__', 'retrieve', undefined],
      ['retrieve', 'reason', 'progress'],
      ['reason', 'retrieve', 'continue'],
      ['retrieve', 'reason', 'progress'],
      ['reason', '__end__', 'answered'],
    ]);
    expect(r.trace.filter((e) => e.kind === 'retrieve').map((e) => e.data['query'])).toEqual([
      q.text,
      'Shirley Temple portrayed Corliss Archer in Kiss and Tell.',
    ]);
  });

  it('IRCoT cuts the loop at its step bound and answers from what it gathered, labelled', async () => {
    const q = corpus.questions[0]!;
    const r = await ircot({ maxSteps: 2 }).run(q, {
      model: createModel({
        provider: createScriptedProvider({
          replies: {
            // The first sentence's retrieval brings passages the question's did not (so the chain is not stopped for want of progress).
            ircot: ['{"thought":"The Lord High Treasurer and the Secretary of State for Constitutional Affairs are offices.","answer":null}', '{"thought":"Still looking.","answer":null}'],
            'rag-answer': ['{"reasoning":"r","answer":"guess"}'],
          },
        }),
      }),
      retriever: scopedTo(corpus, q),
    });
    expect(r).toMatchObject({ status: 'partial', stopReason: 'step-budget', answer: 'guess' });
    expect(enters(r)).toEqual(['retrieve', 'reason', 'retrieve', 'reason', 'answer_at_bound']);
  });

  it('ReAct searches, observes, and finishes', async () => {
    const q = corpus.questions[0]!;
    const r = await react().run(q, {
      model: model({
        react: [
          '{"thought":"Who played Corliss Archer?","action":"search","input":"Corliss Archer Kiss and Tell"}',
          '{"thought":"Now her government post.","action":"search","input":"Shirley Temple Chief of Protocol"}',
          '{"thought":"Found it.","action":"finish","input":"Chief of Protocol"}',
        ],
      }),
      retriever: scopedTo(corpus, q),
    });
    expect(r).toMatchObject({ status: 'ok', answer: 'Chief of Protocol' });
    expect(enters(r)).toEqual(['think', 'search', 'think', 'search', 'think']);
    expect((r.data?.['steps'] as unknown[]).length).toBe(3);
    expect(r.usage.retrievalCalls).toBe(2);
  });

  it('every baseline draws a valid chart from its graph', () => {
    for (const workflow of [directInference(), chainOfThought(), singleTurnRag(), ircot(), react()]) {
      const chart = workflow.chart();
      expect(validateChart(chart)).toEqual([]);
      expect(chart.engine).toBe('langgraph');
    }
    expect(ircot().chart().edges).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ from: 'reason', to: 'retrieve', kind: 'conditional', guard: 'answerStated', label: 'continue' }),
        expect.objectContaining({ from: 'reason', to: '__end__', kind: 'conditional', label: 'answered' }),
      ]),
    );
    expect(react().chart().edges).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'search', to: 'think' })]));
  });

  it('all five run end to end with the offline model', async () => {
    const m = offlineModel({ handlers: offlineHandlers });
    for (const workflow of [directInference(), chainOfThought(), singleTurnRag(), ircot(), react()]) {
      const chart = workflow.chart();
      for (const q of corpus.questions.slice(0, 4)) {
        const r = await workflow.run(q, { model: m, retriever: scopedTo(corpus, q) });
        expect(['ok', 'partial']).toContain(r.status);
        expect(r.answer).not.toBe('');
        // The transitions of every run walk the workflow's chart, from __start__ to __end__.
        expect(chartWalkProblems(r.trace, chart)).toEqual([]);
      }
    }
  });
});
