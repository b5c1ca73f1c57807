import { defineWorkflow, type Chart, type MethodManifest, type ModelPort, type PromptTemplate, type RunContext } from '@multihop/core';
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

describe('runs of the conformance suite', () => {
  const chart: Chart = {
    id: 'broken',
    engine: 'plain',
    nodes: [
      { id: '__start__', kind: 'start' },
      { id: 'answer', kind: 'step' },
      { id: '__end__', kind: 'end' },
    ],
    edges: [
      { from: '__start__', to: 'answer', kind: 'always' },
      { from: 'answer', to: '__end__', kind: 'always' },
    ],
    guards: [],
  };
  /** A one-node method whose body is `answer` (run as chart node answer after the edge from __start__). */
  const method = (answer: (ctx: RunContext) => Promise<string>): MethodManifest =>
    ({
      id: 'broken',
      family: 'BROKEN',
      paper: 'none',
      prompts: [],
      workflows: [
        {
          id: 'broken',
          title: 'Broken',
          engine: 'plain',
          variant: 'full',
          create: () =>
            defineWorkflow({
              id: 'broken',
              title: 'Broken',
              paper: 'none',
              chart: () => chart,
              async execute(_query, ctx) {
                ctx.transition({ from: '__start__', to: 'answer' });
                const text = await ctx.node('answer', () => answer(ctx));
                ctx.transition({ from: 'answer', to: '__end__' });
                return { answer: text };
              },
            }),
        },
      ],
    }) as unknown as MethodManifest;
  const runCheck = (manifest: MethodManifest) => {
    const tests = conformanceTests(manifest, { handlers: [], model: {} as ModelPort, nodeRunQuestions: 2 });
    return tests.get([...tests.keys()].find((n) => n.startsWith('ends every run'))!)!;
  };

  it('pass for a method that answers along its chart', async () => {
    await runCheck(method(async () => 'Paris'))();
  });

  it('fail for a method whose every run fails (a bug in a node), naming the workflow, question and error', async () => {
    const broken = method(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'answer')");
    });
    await expect(Promise.resolve(runCheck(broken)())).rejects.toThrow(/broken on \w+: UNEXPECTED: Cannot read properties of undefined/);
  });

  it('fail, saying what to do, for a method that searches without charging a hop', async () => {
    const uncharged = method(async (ctx) => {
      await ctx.retriever.search('Paris', { k: 1 });
      return 'Paris';
    });
    const tests = conformanceTests(uncharged, { handlers: [], model: {} as ModelPort, nodeRunQuestions: 2 });
    const check = tests.get([...tests.keys()].find((n) => n.startsWith("honours a caller's Budget.maxHops"))!)!;
    await expect(Promise.resolve(check())).rejects.toThrow(/searchedWithNoHopLeft_chargeAHopBeforeEachRound/);
    // Charged first, it passes.
    const charged = method(async (ctx) => {
      ctx.budget.chargeHop();
      await ctx.retriever.search('Paris', { k: 1 });
      return 'Paris';
    });
    const passing = conformanceTests(charged, { handlers: [], model: {} as ModelPort, nodeRunQuestions: 2 });
    await passing.get([...passing.keys()].find((n) => n.startsWith("honours a caller's Budget.maxHops"))!)!();
  });

  it('fail for a run that takes an edge its chart does not draw', async () => {
    const astray = method(async (ctx) => {
      ctx.transition({ from: 'answer', to: 'answer' });
      return 'Paris';
    });
    await expect(Promise.resolve(runCheck(astray)())).rejects.toThrow(/broken on \w+: answer→answer is not an edge of the chart/);
  });
});
