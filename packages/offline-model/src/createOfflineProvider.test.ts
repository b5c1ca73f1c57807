import { createModel, MultihopError } from '@multihop/core';
import { prompts, rerankPrompt } from '@multihop/prompts';
import { hotpotDevSample as hotpotDev } from '@multihop/testing';
import { createOfflineProvider, offlineModel } from './createOfflineProvider';

const questions = hotpotDev(40);

/** Variables as the workflows pass them, built from a real question and its paragraphs. */
function varsFor(entry: (typeof questions)[number]): Record<string, unknown> {
  const gold = entry.passages.filter((p) => entry.question.supportingIds.includes(p.id));
  return {
    question: entry.question.text,
    passages: entry.passages,
    thoughts: [],
    steps: [{ thought: 'search first', action: 'search', input: entry.question.text, observation: gold.map((p) => p.text).join(' ') }],
    prediction: entry.question.answer,
    gold: entry.question.answer,
    count: 5,
    response: entry.question.answer,
    rationale: 'a fact is missing',
    suggestion: entry.question.text,
    previousQueries: [],
    plan: { subGoals: [{ id: 1, question: entry.question.text, dependsOn: [] }] },
    problems: [],
    memory: [],
    subGoal: entry.question.text,
    query: entry.question.text,
    analysis: 'a fact is missing',
    trajectory: [{ step: '1', subGoal: entry.question.text, answer: entry.question.answer, status: 'yes' }],
    candidates: entry.passages.map((p, index) => ({ index, title: p.title, text: p.text })),
  };
}

describe('the offline model', () => {
  it('answers every registered prompt role with schema-valid output on real questions', async () => {
    const model = offlineModel();
    for (const entry of questions.slice(0, 10)) {
      for (const prompt of prompts.list()) {
        const result = await model.call({ prompt, vars: varsFor(entry) });
        expect(prompt.schema.safeParse(result.output).success).toBe(true);
        expect(result.usage).toMatchObject({ model: 'offline', estimated: true, attempts: 1 });
        expect(result.usage.promptTokens).toBeGreaterThan(0);
      }
    }
  });

  it('is deterministic', async () => {
    const model = offlineModel();
    const prompt = prompts.get('baseline.rag-answer');
    for (const entry of questions.slice(0, 10)) {
      const a = await model.call({ prompt, vars: varsFor(entry) });
      const b = await model.call({ prompt, vars: varsFor(entry) });
      expect(b.text).toBe(a.text);
    }
  });

  it('reads answers from real supporting paragraphs far better than it guesses without them', async () => {
    const model = offlineModel();
    const rag = prompts.get<{ answer: string }>('baseline.rag-answer');
    const direct = prompts.get<{ answer: string }>('baseline.direct');
    const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]/g, '').trim();
    let withPassages = 0;
    let without = 0;
    for (const entry of questions) {
      const gold = entry.passages.filter((p) => entry.question.supportingIds.includes(p.id));
      const read = await model.call({ prompt: rag, vars: { question: entry.question.text, passages: gold } });
      const guess = await model.call({ prompt: direct, vars: { question: entry.question.text } });
      if (norm(read.output.answer) === norm(entry.question.answer)) withPassages++;
      if (norm(guess.output.answer) === norm(entry.question.answer)) without++;
    }
    expect(withPassages).toBeGreaterThan(without);
    expect(withPassages / questions.length).toBeGreaterThanOrEqual(0.1);
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
    expect(goldInTopTwo).toBeGreaterThanOrEqual(15);
  });

  it('judges an exact or contained answer yes and an unrelated one no', async () => {
    const model = offlineModel();
    const judge = prompts.get<{ decision: string }>('judge.correctness');
    const ask = async (prediction: string, gold: string) =>
      (await model.call({ prompt: judge, vars: { question: 'q', prediction, gold } })).output.decision;
    expect(await ask('She served as Chief of Protocol.', 'Chief of Protocol')).toBe('yes');
    expect(await ask('the Chief of Protocol', 'Chief of Protocol')).toBe('yes');
    expect(await ask('Shirley Temple', 'Chief of Protocol')).toBe('no');
  });

  it('chains IRCoT steps: a new sentence each step, then the answer', async () => {
    const model = offlineModel();
    const step = prompts.get<{ thought: string; answer: string | null }>('baseline.ircot-step');
    const entry = questions[0]!;
    const thoughts: string[] = [];
    let answer: string | null = null;
    for (let i = 0; i < 5 && answer === null; i++) {
      const { output } = await model.call({ prompt: step, vars: { question: entry.question.text, passages: entry.passages, thoughts } });
      expect(thoughts).not.toContain(output.thought);
      thoughts.push(output.thought);
      answer = output.answer;
    }
    expect(answer).not.toBeNull();
    expect(thoughts.length).toBeLessThanOrEqual(4);
  });

  it('names the role and the roles it knows when asked for an unknown one', async () => {
    const model = createModel({ provider: createOfflineProvider() });
    const prompt = { ...prompts.get('baseline.direct'), role: 'no-such-role' };
    await expect(model.call({ prompt, vars: { question: 'q' } })).rejects.toThrow(MultihopError);
    await expect(model.call({ prompt, vars: { question: 'q' } })).rejects.toThrow(
      /no handler for role "no-such-role" \(prompt baseline.direct\); it answers: cot, direct, ircot, judge, opera-analysis-answer, opera-plan, opera-rewrite, opera-synthesis, par2-esc, par2-planner, par2-query-formulator, par2-writer, rag-answer, react, reranker/,
    );
  });
});
