import type { MethodManifest, ModelPort, PromptTemplate } from '@multihop/core';
import { z } from 'zod';
import { conformanceSample } from './sample';
import { conformancePromptVars, describeMethodConformance, missingPromptVars, promptVarsFor } from './methodConformance';

// A prompt whose variable (intermediateAnswers) the shared defaults do not have, as a new method's would.
const prompt = {
  id: 'self-ask.follow-up',
  role: 'self-ask-follower',
  version: '1',
  variables: ['question', 'intermediateAnswers'],
  schema: z.object({ answer: z.string() }),
} as unknown as PromptTemplate;

/** The tests describeMethodConformance declares, by name, collected instead of run by jest. */
function conformanceTests(manifest: MethodManifest, options: Parameters<typeof describeMethodConformance>[1]): Map<string, () => unknown> {
  const tests = new Map<string, () => unknown>();
  const g = globalThis as unknown as Record<'describe' | 'it', unknown>;
  const saved = { describe: g.describe, it: g.it };
  g.describe = (_name: string, body: () => void) => body();
  g.it = (name: string, body: () => unknown) => void tests.set(name, body);
  try {
    describeMethodConformance(manifest, options);
  } finally {
    Object.assign(g, saved);
  }
  return tests;
}

describe('prompt variables of the conformance suite', () => {
  const [sample] = conformanceSample(1);

  it('are the shared defaults with a method’s own merged over them, given as values or built from the real question', () => {
    expect(conformancePromptVars(sample!)).toEqual(promptVarsFor(sample!));
    const own = conformancePromptVars(sample!, { intermediateAnswers: ['a'], count: 2 });
    expect(own).toMatchObject({ intermediateAnswers: ['a'], count: 2, question: sample!.question.text });
    const built = conformancePromptVars(sample!, (entry) => ({ intermediateAnswers: [entry.question.answer] }));
    expect(built['intermediateAnswers']).toEqual([sample!.question.answer]);
  });

  it('name a variable without a value, and say where to give it (promptVars in the method’s src/manifest.test.ts)', () => {
    const message = missingPromptVars(prompt, promptVarsFor(sample!));
    expect(message).toContain('prompt self-ask.follow-up: "missing": ["intermediateAnswers"]');
    expect(message).toContain('src/manifest.test.ts');
    expect(message).toContain('promptVars: { intermediateAnswers: … }');
    expect(missingPromptVars(prompt, { ...promptVarsFor(sample!), intermediateAnswers: [] })).toBeUndefined();
  });

  it('reach the model in the suite’s prompt check: it fails without promptVars, naming the option, and passes with it', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const model = {
      call: async ({ vars }: { vars: Record<string, unknown> }) => {
        seen.push(vars);
        return { output: { answer: 'yes' }, usage: { model: 'offline', estimated: true, attempts: 1 } };
      },
    } as unknown as ModelPort;
    const manifest = { id: 'self-ask', family: 'SELF-ASK', paper: 'p', workflows: [], prompts: [prompt] } as unknown as MethodManifest;
    const check = (tests: Map<string, () => unknown>) => {
      const name = [...tests.keys()].find((n) => n.startsWith('is answered by the offline model on every prompt'));
      return tests.get(name!)!;
    };

    await expect(Promise.resolve(check(conformanceTests(manifest, { handlers: [], model, questions: 1 }))())).rejects.toThrow(/"missing": \["intermediateAnswers"\].*promptVars/);
    expect(seen).toHaveLength(0);

    await check(conformanceTests(manifest, { handlers: [], model, questions: 2, promptVars: { intermediateAnswers: ['Shirley Temple'] } }))();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ intermediateAnswers: ['Shirley Temple'], question: sample!.question.text });
  });
});
