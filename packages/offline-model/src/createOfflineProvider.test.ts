import { createModel, MultihopError } from '@multihop/core';
import { definePrompt, judgeCorrectnessPrompt, rerankPrompt, sharedPrompts } from '@multihop/prompts';
import { promptVarsFor as varsFor } from '@multihop/conformance';
import { hotpotTrainSample } from '@multihop/testing';
import { z } from 'zod';
import { createOfflineProvider, offlineModel } from './createOfflineProvider';
import { defineOfflineHandler } from './OfflineHandler';
import { readAnswer } from './lexical/reader';

// HotpotQA train questions (hotpotqa/train-100.json): the offline model's rules are developed on
// the train splits, and its tests check them there.
const questions = hotpotTrainSample(40);

describe('the offline model', () => {
  it('answers the shared prompts (judge, reranker) with schema-valid output on real questions', async () => {
    const model = offlineModel();
    for (const entry of questions.slice(0, 10)) {
      for (const prompt of sharedPrompts.list()) {
        const result = await model.call({ prompt, vars: varsFor(entry) });
        expect(prompt.schema.safeParse(result.output).success).toBe(true);
        expect(result.usage).toMatchObject({ model: 'offline', estimated: true, attempts: 1 });
        expect(result.usage.promptTokens).toBeGreaterThan(0);
      }
    }
  });

  it('is deterministic', async () => {
    const model = offlineModel();
    for (const entry of questions.slice(0, 10)) {
      const vars = { query: entry.question.text, candidates: varsFor(entry)['candidates'] };
      const a = await model.call({ prompt: rerankPrompt, vars });
      const b = await model.call({ prompt: rerankPrompt, vars });
      expect(b.text).toBe(a.text);
    }
  });

  it('answers a role of your own through a handler typed against its prompt', async () => {
    const capitalPrompt = definePrompt({
      id: 'example.reader',
      role: 'example-reader',
      version: '1',
      description: 'Read the answer from the passages.',
      template: '{{question}}\n{{passages}}',
      schema: z.object({ answer: z.string() }),
    });
    const reader = defineOfflineHandler(capitalPrompt, (vars) => ({ answer: readAnswer(String(vars['question']), vars['passages'] as never).answer }));
    const model = offlineModel({ handlers: [reader] });
    const entry = questions[0]!;
    const gold = entry.passages.filter((p) => entry.question.supportingIds.includes(p.id));
    const { output } = await model.call({ prompt: capitalPrompt, vars: { question: entry.question.text, passages: gold } });
    expect(output.answer.length).toBeGreaterThan(0);
    expect(() => defineOfflineHandler([capitalPrompt, judgeCorrectnessPrompt] as never, () => ({}))).toThrow(/answers one role/);
  });

  it('reranks candidates: the supporting passages of a real question come first', async () => {
    const model = offlineModel();
    let goldInTopTwo = 0;
    for (const entry of questions.slice(0, 20)) {
      const candidates = entry.passages.map((p, index) => ({ index, title: p.title, text: p.text }));
      const { output } = await model.call({ prompt: rerankPrompt, vars: { query: entry.question.text, candidates } });
      expect([...output.ranking].sort((a, b) => a - b)).toEqual(candidates.map((c) => c.index));
      if (output.ranking.slice(0, 2).some((i) => entry.question.supportingIds.includes(entry.passages[i]!.id))) goldInTopTwo++;
    }
    // Measured: 17 of the first 20 train questions (96 of all 100).
    expect(goldInTopTwo).toBeGreaterThanOrEqual(15);
  });

  it('judges an exact or contained answer yes and an unrelated one no', async () => {
    const model = offlineModel();
    const judge = judgeCorrectnessPrompt;
    const ask = async (prediction: string, gold: string) =>
      (await model.call({ prompt: judge, vars: { question: 'q', prediction, gold } })).output.decision;
    // Answers of HotpotQA train questions (5a77ec115542992a6e59dff7, 5a8718c25542991e771816c7).
    expect(await ask('Lilu is a spirit.', 'a spirit')).toBe('yes');
    expect(await ask('the film was directed by Stephen King', 'Stephen King')).toBe('yes');
    expect(await ask('a demon', 'a spirit')).toBe('no');
  });

  it('names the role and the roles it knows when asked for an unknown one', async () => {
    const model = createModel({ provider: createOfflineProvider() });
    const prompt = { ...judgeCorrectnessPrompt, role: 'no-such-role' };
    await expect(model.call({ prompt, vars: { question: 'q', prediction: 'p', gold: 'g' } })).rejects.toThrow(MultihopError);
    await expect(model.call({ prompt, vars: { question: 'q', prediction: 'p', gold: 'g' } })).rejects.toThrow(
      /no handler for role "no-such-role" \(prompt judge.correctness\); it answers: judge, reranker \(a library caller passes the method's offlineHandlers from @multihop\/<method>\/offline; a method's author defines one with defineOfflineHandler\(<the prompt>, …\) in the method's src\/offline\/ and lists it in its offlineHandlers\)/,
    );
  });
});
