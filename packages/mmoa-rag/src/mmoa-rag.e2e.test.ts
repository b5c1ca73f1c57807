import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, createScriptedProvider, goldAnswers, type Provider, type Question, type RunResult, type TraceEvent } from '@multihop/core';
import { offlineModel } from '@multihop/offline-model';
import { openDatasetCorpus, type DatasetCorpus } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';
import { collectRollouts, sftExamples } from './collectRollouts';
import type { AgentTurn } from './machine';
import { offlineHandlers } from './offline';
import { createMmoaRagWorkflow } from './workflows';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
const dir = mkdtempSync(join(tmpdir(), 'multihop-mmoa-rag-'));
let corpus: DatasetCorpus;
let question: Question;
/** K for this question: the closed setting holds only the question's own paragraphs (9 for the first one). */
let pool: number;

beforeAll(async () => {
  // A real LanceDB table on disk: the first HotpotQA dev questions with their own paragraphs.
  corpus = await openDatasetCorpus('hotpotqa-dev', { setting: 'closed', uri: dir, load: { limit: 3 } });
  question = corpus.dataset.questions[0]!; // "What government position was held by the woman who portrayed Corliss Archer …"
  pool = Math.min(10, corpus.dataset.contexts[question.id]!.length);
}, 60_000);
afterAll(() => {
  corpus?.close();
  rmSync(dir, { recursive: true, force: true });
});

const QR = 'mmoa-rag-query-rewriter';
const S = 'mmoa-rag-selector';
const G = 'mmoa-rag-generator';

const twoHops = 'Who portrayed Corliss Archer in the film Kiss and Tell?\nWhat government position was held by Shirley Temple?';
const fiveLines = [
  'Who portrayed Corliss Archer in the film Kiss and Tell?',
  'What is Kiss and Tell?',
  'Who is Shirley Temple?',
  'What government positions did Shirley Temple hold?',
  'Was Shirley Temple an ambassador?',
].join('\n');
const longAnswer = Array.from({ length: 31 }, (_, i) => (i === 30 ? 'Protocol' : 'word')).join(' ');

function run(variant: 'full' | 'no-rewriter' | 'no-selector', replies: Record<string, string[]>): Promise<RunResult> {
  const model = createModel({ provider: createScriptedProvider({ replies }) });
  return createMmoaRagWorkflow(variant).run(question, { model, retriever: corpus.retriever.forQuestion(question.id) });
}

const turns = (r: RunResult) => r.data!['turns'] as AgentTurn[];
const penaltyOf = (r: RunResult, role: string) => turns(r).find((t) => t.role === role)?.penalty;
const guards = (r: RunResult) => r.trace.filter((e) => e.kind === 'transition').map((e) => e.data['guard']).filter(Boolean);
const decisions = (r: RunResult): TraceEvent[] => r.trace.filter((e) => e.kind === 'decision' && e.data['agent'] !== undefined);

function expectWalkOnChart(result: RunResult, variant: 'full' | 'no-rewriter' | 'no-selector'): void {
  const chart = createMmoaRagWorkflow(variant).chart();
  for (const move of result.trace.filter((e) => e.kind === 'transition').map((e) => e.data)) {
    expect(chart.edges.some((e) => e.from === move['from'] && e.to === move['to'])).toBe(true);
  }
}

describe('MMOA-RAG penalties on a real HotpotQA question over LanceDB (scripted agents)', () => {
  it('runs QR → Retriever → S → G with no penalty when every agent keeps to its limits', async () => {
    const result = await run('full', { [QR]: [twoHops], [S]: ['Document0,Document1'], [G]: ['Chief of Protocol'] });
    expect(result.status).toBe('ok');
    expect(result.answer).toBe('Chief of Protocol');
    expect(turns(result).map((t) => [t.agent, t.penalty])).toEqual([
      ['query-rewriter', 0],
      ['selector', 0],
      ['generator', 0],
    ]);
    // Each agent's turn is a decision event: observation, action and penalty.
    const recorded = decisions(result);
    expect(recorded.map((e) => e.data['agent'])).toEqual(['query-rewriter', 'selector', 'generator']);
    expect(recorded[1]!.data['action']).toBe('Document0,Document1');
    expect((recorded[1]!.data['observation'] as { candidates: unknown[] }).candidates).toHaveLength(pool);
    expect(recorded.every((e) => e.data['penalty'] === 0)).toBe(true);
    // The Generator read exactly the two selected candidates of the real retrieval, and they are the run's evidence.
    const candidates = result.data!['candidates'] as Array<{ id: string }>;
    expect(result.evidenceIds).toEqual([candidates[0]!.id, candidates[1]!.id]);
    for (const id of result.evidenceIds) expect(corpus.dataset.contexts[question.id]).toContain(id);
    expectWalkOnChart(result, 'full');
  });

  it('penalises five sub-questions (−0.5) and searches only the first four', async () => {
    const result = await run('full', { [QR]: [fiveLines], [S]: ['Document0'], [G]: ['Chief of Protocol'] });
    expect(penaltyOf(result, QR)).toBe(-0.5);
    expect(guards(result)).toContain('tooManySubQuestions');
    expect(result.data!['subQuestions']).toHaveLength(5);
    expect(result.data!['searched']).toHaveLength(4);
    expect(result.trace.filter((e) => e.kind === 'retrieve')).toHaveLength(4);
    // Four searches share the candidates (the authors' 3, 3, 2, 2 of ten), repeats skipped and the pool filled up.
    expect(result.data!['candidates']).toHaveLength(pool);
    expect(decisions(result)[0]!.data).toMatchObject({ agent: 'query-rewriter', penalty: -0.5, violation: 'too-many-sub-questions' });
    expect(penaltyOf(result, S)).toBe(0);
    expectWalkOnChart(result, 'full');
  });

  it('penalises a repeated document ID (−1) and gives the Generator the document once', async () => {
    const result = await run('full', { [QR]: [twoHops], [S]: ['Document1,Document1'], [G]: ['Chief of Protocol'] });
    expect(penaltyOf(result, S)).toBe(-1);
    expect(guards(result)).toContain('selectionRepeatsId');
    expect(result.data!['selection']).toMatchObject({ selected: [1], repeated: true, malformed: false });
    expect(result.evidenceIds).toHaveLength(1);
  });

  it('penalises a selector reply outside its vocabulary (−1), keeping the raw text for the check', async () => {
    const reply = 'The useful ones are Document 2 and Document3.';
    const result = await run('full', { [QR]: [twoHops], [S]: [reply], [G]: ['Chief of Protocol'] });
    expect(penaltyOf(result, S)).toBe(-1);
    expect(guards(result)).toContain('selectionMalformed');
    expect(decisions(result)[1]!.data).toMatchObject({ agent: 'selector', action: reply, penalty: -1, violation: 'malformed' });
    expect(turns(result)[1]!.text).toBe(reply);
  });

  it('penalises an over-long answer (more than 30 words: −0.5)', async () => {
    const result = await run('full', { [QR]: [twoHops], [S]: ['Document0'], [G]: [longAnswer] });
    expect(penaltyOf(result, G)).toBe(-0.5);
    expect(guards(result)).toContain('answerTooLong');
    const short = await run('full', { [QR]: [twoHops], [S]: ['Document0'], [G]: [longAnswer.split(' ').slice(1).join(' ')] });
    expect(penaltyOf(short, G)).toBe(0);
  });

  it('runs the ablations without the agent they remove', async () => {
    const noRewriter = await run('no-rewriter', { [S]: ['Document0'], [G]: ['Chief of Protocol'] });
    expect(turns(noRewriter).map((t) => t.agent)).toEqual(['selector', 'generator']);
    expect(noRewriter.data!['searched']).toEqual([question.text]);
    expectWalkOnChart(noRewriter, 'no-rewriter');

    const noSelector = await run('no-selector', { [QR]: [twoHops], [G]: ['Chief of Protocol'] });
    expect(turns(noSelector).map((t) => t.agent)).toEqual(['query-rewriter', 'generator']);
    // Without a Selector the Generator reads every candidate.
    expect(noSelector.evidenceIds).toHaveLength(pool);
    expect(createMmoaRagWorkflow('no-selector').chart().nodes.map((n) => n.id)).not.toContain('select');
  });
});

describe('MAPPO rollouts on a real question', () => {
  it('writes one record per agent turn with R_i = F1 + P_i, the shared return and the episode id', async () => {
    const gold = goldAnswers(question)[0]!;
    // Episode 0 keeps every limit and answers right; episode 1 breaks all three limits and answers wrong.
    const scripted = createScriptedProvider({
      replies: { [QR]: [twoHops, fiveLines], [S]: ['Document0,Document1', 'Document1,Document1'], [G]: [gold, longAnswer] },
    });
    const temperatures: Array<[unknown, number | undefined]> = [];
    const provider: Provider = { id: 'scripted+log', generate: (r) => (temperatures.push([r.vars['sample'], r.temperature]), scripted.generate(r)) };
    const records = await collectRollouts(question, {
      model: createModel({ provider }),
      retriever: corpus.retriever.forQuestion(question.id),
      group: 2,
      dataset: 'hotpotqa-dev',
    });
    expect(records).toHaveLength(6);
    // Episode 0 at the roles' own temperature; every agent of episode 1 sampled at core's default, 1.
    expect(temperatures).toEqual([[0, undefined], [0, undefined], [0, undefined], [1, 1], [1, 1], [1, 1]]);
    const of = (episode: number, role: string) => records.find((r) => r.episode_id === `${question.id}#${episode}` && r.role === role)!;
    expect([of(0, QR).reward, of(0, S).reward, of(0, G).reward]).toEqual([1, 1, 1]);
    expect(of(0, G).shared_return).toBe(1);
    const f1 = of(1, G).shared_return!;
    expect(f1).toBeGreaterThan(0); // "Protocol" overlaps the gold answer
    expect(f1).toBeLessThan(1);
    expect(of(1, QR).reward).toBeCloseTo(f1 - 0.5, 6);
    expect(of(1, S).reward).toBeCloseTo(f1 - 1, 6);
    expect(of(1, G).reward).toBeCloseTo(f1 - 0.5, 6);
    expect(of(1, S).reward_components).toEqual({ shared_f1: f1, penalty: -1 });
    expect(of(1, S).completion).toEqual([{ role: 'assistant', content: 'Document1,Document1' }]);
    expect(of(0, S).prompt.at(-1)!.content).toContain(`Document${pool - 1}: `);
    expect(of(0, S).prompt.at(-1)!.content).not.toContain(`Document${pool}: `);
    expect(String(of(0, G).extra_info['kl'])).toContain('trainer');
    // Advantages are relative within each agent's group of episodes.
    expect(of(0, S).advantage).toBeGreaterThan(0);
    expect(of(0, S).advantage + of(1, S).advantage).toBeCloseTo(0, 6);

    // Only the successful episode (F1 = 1, no penalty) becomes warm-start data, one example per agent.
    const sft = sftExamples(records);
    expect(sft.map((e) => e.role)).toEqual([QR, S, G]);
    expect(sft[2]!.messages.at(-1)).toEqual({ role: 'assistant', content: gold });
  });

  it('samples distinct episodes from the offline model', async () => {
    const records = await collectRollouts(question, {
      model: offlineModel({ handlers: offlineHandlers }),
      retriever: corpus.retriever.forQuestion(question.id),
      group: 4,
      dataset: 'hotpotqa-dev',
    });
    expect(new Set(records.map((r) => r.episode_id)).size).toBe(4);
    expect(records.every((r) => r.reward === Math.round(((r.shared_return ?? 0) + (r.reward_components['penalty'] ?? 0)) * 1e6) / 1e6)).toBe(true);
  });
});
