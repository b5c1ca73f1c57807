import { createModel, createScriptedProvider } from '@multihop/core';
import { conformanceSample, overlapRetriever } from '@multihop/conformance';
import { manifest } from './manifest';
import { MAO_ARAG_DEFAULTS } from './settings';
import { TOP_LEVEL_WORKFLOWS } from './workflowSpace';
import { maoArag, maoAragFixed, maoAragNoTrain } from './workflows';

const entry = (id: string) => manifest.workflows.find((w) => w.id === id)!;

describe('MAO-ARAG settings', () => {
  it('builds each variant by its own name too, as the other methods do (opera(), mmoaRag())', () => {
    expect([maoArag(), maoAragNoTrain(), maoAragFixed(['QR', 'R', 'AG'])].map((w) => w.id)).toEqual(['mao-arag', 'mao-arag-no-train', 'mao-arag-fixed:QR+R+AG']);
    expect(() => maoAragFixed(['R', 'AG'], { subWorkflow: 'R+AG' })).toThrow(/^mao-arag-fixed:R\+AG: no option "subWorkflow"/);
  });

  it('list the planner, the untrained planner and every valid fixed top-level workflow', () => {
    expect(manifest.workflows.map((w) => w.id)).toEqual(['mao-arag', 'mao-arag-no-train', ...TOP_LEVEL_WORKFLOWS.map((w) => `mao-arag-fixed:${w.join('+')}`)]);
  });

  it('default to the paper’s settings (α 0.1, FP 1, 5 turns, 4 sub-questions, k 5); no policy file unless one is set', () => {
    expect(entry('mao-arag').settings!.parse({})).toEqual({ ...MAO_ARAG_DEFAULTS, policy: '' });
    expect(entry('mao-arag-no-train').settings!.parse({})).toEqual(MAO_ARAG_DEFAULTS);
    expect(entry('mao-arag-fixed:R+AG').settings!.parse({})).toEqual(MAO_ARAG_DEFAULTS);
    expect(entry('mao-arag-fixed:QDP').settings!.parse({})).toEqual({ ...MAO_ARAG_DEFAULTS, subWorkflow: 'R+AG' });
  });

  it('refuse what the workflow cannot use', () => {
    const schema = entry('mao-arag').settings!;
    expect(schema.safeParse({ maxTurns: 1 }).success).toBe(false);
    expect(schema.safeParse({ alpha: -0.1 }).success).toBe(false);
    expect(schema.safeParse({ retrievalK: 2.5 }).success).toBe(false);
    expect(entry('mao-arag-fixed:QDS').settings!.safeParse({ subWorkflow: 'QR+AG' }).success).toBe(false);
  });

  it('take effect in the workflow the manifest builds: retrievalK, maxSubQuestions and the fixed sub-workflow', async () => {
    // A real HotpotQA train question and its own paragraphs (settings only; no training or tuning here).
    const [sample] = conformanceSample(1);
    const fixed = entry('mao-arag-fixed:QDP');
    const provider = createScriptedProvider({
      replies: { 'mao-arag-qdp': [JSON.stringify({ subQuestions: ['first?', 'second?', 'third?'] })], 'mao-arag-ds': [JSON.stringify({ keep: [0] })], 'mao-arag-ag': [JSON.stringify({ answer: 'x' })], 'mao-arag-as': [JSON.stringify({ answer: 'x' })] },
      repeatLast: true,
    });
    const workflow = fixed.create(fixed.settings!.parse({ retrievalK: 2, maxSubQuestions: 2, subWorkflow: 'R+DS+AG' }));
    const result = await workflow.run(sample!.question, { model: createModel({ provider }), retriever: overlapRetriever(sample!.passages) });
    expect(result.data?.['subQuestions']).toEqual(['first?', 'second?']);
    expect(result.usage.retrievalCalls).toBe(2);
    expect(result.trace.filter((e) => e.kind === 'retrieve').every((e) => (e.data['hits'] as unknown[]).length === 2)).toBe(true);
    expect(result.usage.byRole['mao-arag-ds']?.calls).toBe(2);
    expect(result.data?.['settings']).toMatchObject({ retrievalK: 2, maxSubQuestions: 2, alpha: 0.1 });
  });
});
