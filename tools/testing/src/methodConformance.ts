import type { MethodManifest, ModelPort, PromptTemplate } from '@multihop/core';
import { hotpotDevSample } from './hotpotDevSample';

type SampleEntry = ReturnType<typeof hotpotDevSample>[number];

/**
 * Prompt variables as workflows pass them, built from a real HotpotQA dev question and its
 * paragraphs: every variable name a prompt of this workspace uses has a value here. A prompt
 * whose variable is missing fails the conformance suite, naming it (add the name here).
 */
export function promptVarsFor(entry: SampleEntry): Record<string, unknown> {
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

const variablesOf = (prompt: PromptTemplate): string[] => (prompt as PromptTemplate & { variables?: string[] }).variables ?? [];

/**
 * The suite every method package runs on its own manifest (as LangGraph.js's checkpointers run
 * one validation suite): the manifest is well formed, each workflow builds with the id, title and
 * engine the manifest states and draws a chart, a workflow's settings schema (when it has one)
 * gives every key a default and builds the workflow from them, and the offline model, given the
 * method's own handlers, answers every prompt of the manifest schema-valid on real questions.
 */
export interface MethodConformanceOptions {
  /** The method's offline handlers (its `./offline` export's `offlineHandlers`). */
  handlers: ReadonlyArray<{ role: string; promptIds: readonly string[] }>;
  /** The offline model given those handlers: `offlineModel({ handlers })`. */
  model: ModelPort;
  /** Real questions each prompt is answered on (default 5). */
  questions?: number;
}

export function describeMethodConformance(manifest: MethodManifest, options: MethodConformanceOptions): void {
  const { handlers, model } = options;
  describe(`method ${manifest.id}: manifest conformance`, () => {
    it('builds every workflow it lists, with the id, title and engine it states, and a chart', () => {
      expect(manifest.workflows.length).toBeGreaterThan(0);
      for (const entry of manifest.workflows) {
        const workflow = entry.create();
        expect({ id: workflow.id, title: workflow.title }).toEqual({ id: entry.id, title: entry.title });
        const chart = workflow.chart();
        expect(chart.engine).toBe(entry.engine);
        expect(chart.nodes.length).toBeGreaterThan(1);
      }
    });

    it('gives every setting of a workflow that declares a settings schema a default, and builds from those defaults', () => {
      for (const entry of manifest.workflows.filter((e) => e.settings !== undefined)) {
        const schema = entry.settings!;
        const parsed = schema.safeParse({});
        // Every key parses from nothing: each has a default (\`--set\` and \`sweep\` change one at a time).
        expect({ workflow: entry.id, success: parsed.success }).toEqual({ workflow: entry.id, success: true });
        const defaults = parsed.data as Record<string, unknown>;
        const missing = Object.keys(schema.shape).filter((key) => defaults[key] === undefined);
        expect({ workflow: entry.id, withoutDefault: missing }).toEqual({ workflow: entry.id, withoutDefault: [] });
        const workflow = entry.create(defaults);
        expect({ id: workflow.id, title: workflow.title }).toEqual({ id: entry.id, title: entry.title });
        expect(workflow.chart().engine).toBe(entry.engine);
      }
    });

    it('has an offline handler for every role its prompts use, and no handler for a role it does not', () => {
      const roles = [...new Set(manifest.prompts.map((p) => p.role))].sort();
      expect([...new Set(handlers.map((h) => h.role))].sort()).toEqual(roles);
      for (const handler of handlers) {
        for (const id of handler.promptIds) expect(manifest.prompts.map((p) => p.id)).toContain(id);
      }
    });

    it('is answered by the offline model on every prompt, schema-valid, on real HotpotQA questions', async () => {
      for (const entry of hotpotDevSample(options.questions ?? 5)) {
        const vars = promptVarsFor(entry);
        for (const prompt of manifest.prompts) {
          expect({ prompt: prompt.id, missing: variablesOf(prompt).filter((v) => !(v in vars)) }).toEqual({ prompt: prompt.id, missing: [] });
          const result = await model.call({ prompt, vars });
          expect(prompt.schema.safeParse(result.output).success).toBe(true);
          expect(result.usage).toMatchObject({ model: 'offline', estimated: true, attempts: 1 });
        }
      }
    });
  });
}
