import { z } from 'zod';
import { definePrompt } from './definePrompt';
import { sharedPrompts as prompts, PromptRegistry } from './index';

describe('the prompt registry', () => {
  it('holds the prompts no method owns (judge, reranker), each with a role, a version and a schema', () => {
    expect(prompts.list().map((p) => p.id)).toEqual(['judge.correctness', 'retriever.rerank']);
    expect(prompts.roles()).toEqual(['judge', 'reranker']);
    expect(prompts.list({ role: 'judge' }).map((p) => p.id)).toEqual(['judge.correctness']);
    for (const p of prompts.list()) expect(p.version).toMatch(/^\d+$/);
  });

  it('renders every built-in prompt from its declared variables', () => {
    const sample: Record<string, unknown> = {
      question: 'Which city hosted the 1900 Olympics?',
      passages: [{ title: 'Paris', text: 'Paris hosted the 1900 Summer Olympics.' }],
      thoughts: ['The 1900 Olympics were in Paris.'],
      steps: [{ thought: 'look it up', action: 'search', input: '1900 Olympics', observation: 'Paris hosted them.' }],
      prediction: 'Paris',
      gold: 'Paris, France',
      count: 5,
      response: 'Paris hosted them.',
      rationale: 'The year is not confirmed.',
      suggestion: '1900 Summer Olympics host city',
      previousQueries: ['1900 Olympics'],
      plan: { subGoals: [{ id: 1, question: 'Who hosted [event from step 2]?', dependsOn: [] }] },
      problems: ['step 1 uses "[event from step 2]", but there is no step 2'],
      memory: ['step 1: Which city hosted the 1900 Olympics? → Paris'],
      subGoal: 'Which city hosted the 1900 Olympics?',
      query: '1900 Olympics host',
      analysis: 'No passage names the host city.',
      trajectory: ['step 1: Which city hosted the 1900 Olympics? → Paris'],
      candidates: [{ index: 0, title: 'Paris', text: 'Paris hosted the 1900 Summer Olympics.' }],
    };
    for (const prompt of prompts.list()) {
      const vars = Object.fromEntries(prompt.variables.map((v) => [v, sample[v]]));
      expect(prompt.variables.every((v) => v in sample)).toBe(true);
      const text = prompt.render(vars).map((m) => m.content).join('\n');
      expect(text).not.toMatch(/\{\{/);
    }
  });

  it('validates replies with each schema', () => {
    const judge = prompts.get<{ explanation: string; decision: string }>('judge.correctness');
    expect(judge.schema.safeParse({ explanation: 'same city', decision: 'yes' }).success).toBe(true);
    expect(judge.schema.safeParse({ explanation: 'x', decision: '' }).success).toBe(false);
    const rerank = prompts.get('retriever.rerank');
    expect(rerank.schema.safeParse({ ranking: [2, 0, 1] }).success).toBe(true);
    expect(rerank.schema.safeParse({ ranking: ['first'] }).success).toBe(false);
  });

  it('rejects unknown ids naming the known ones, and a second prompt under a taken id', () => {
    expect(() => prompts.get('par2.nope')).toThrow(/no prompt with id "par2.nope"; known: judge.correctness, retriever.rerank/);
    const registry = new PromptRegistry();
    const a = definePrompt({ id: 'x.y', role: 'r', version: '1', description: 'd', template: 't', schema: z.object({}) });
    const b = definePrompt({ id: 'x.y', role: 'r', version: '2', description: 'd', template: 't', schema: z.object({}) });
    registry.register(a).register(a);
    expect(() => registry.register(b)).toThrow(/already registered/);
  });
});
