import { chartWalkProblems, type Chart, type MethodManifest, type ModelPort, type PromptTemplate, type RunResult, type WorkflowContext, type WorkflowEntry } from '@multihop/core';
import { overlapRetriever } from './overlapRetriever';
import { conformanceSample, type SampleEntry } from './sample';

/**
 * What the suite uses of the test runner: the globals Jest defines, and Vitest with `globals: true`.
 * Read off `globalThis` when the suite is declared, so this package needs no test runner's types
 * (a method's examples and its published types compile without them).
 */
interface Matchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toContain(expected: unknown): void;
  toMatchObject(expected: object): void;
  toBeGreaterThan(expected: number): void;
}
interface TestGlobals {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => unknown, timeoutMs?: number): void;
  expect: ((actual: unknown) => Matchers) & { stringContaining(expected: string): unknown };
}

function testGlobals(): TestGlobals {
  const g = globalThis as unknown as Partial<TestGlobals>;
  if (typeof g.describe !== 'function' || typeof g.it !== 'function' || typeof g.expect !== 'function') {
    throw new Error('describeMethodConformance declares its checks with the test runner\'s globals (describe, it, expect): run it from a Jest test file, or under Vitest with globals: true');
  }
  return g as TestGlobals;
}

/**
 * Prompt variables as workflows pass them, built from a real HotpotQA train question and its
 * paragraphs: every variable name a prompt of this workspace uses has a value here. A method
 * whose prompt uses a variable not listed here gives its value in its own conformance test
 * (`describeMethodConformance(manifest, { …, promptVars: { name: value } })`, merged over these);
 * a prompt whose variable has no value fails the conformance suite, naming it and saying so.
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
    reasoning: 'the passages name it',
    rationale: 'a fact is missing',
    suggestion: entry.question.text,
    previousQueries: [],
    plan: { subGoals: [{ id: 1, question: entry.question.text, dependsOn: [] }] },
    problems: [],
    memory: [],
    subGoal: entry.question.text,
    query: entry.question.text,
    analysis: 'a fact is missing',
    successF1: 0.5,
    trajectory: [{ step: '1', subGoal: entry.question.text, answer: entry.question.answer, status: 'yes' }],
    candidates: entry.passages.map((p, index) => ({ index, title: p.title, text: p.text })),
  };
}

const variablesOf = (prompt: PromptTemplate): string[] => (prompt as PromptTemplate & { variables?: string[] }).variables ?? [];

/** A method's own prompt variables: values, or a function of the real question and its paragraphs that gives them. */
export type PromptVars = Readonly<Record<string, unknown>> | ((entry: SampleEntry) => Record<string, unknown>);

/** The variables the conformance suite answers a method's prompts with: promptVarsFor's, then the method's own over them. */
export function conformancePromptVars(entry: SampleEntry, own?: PromptVars): Record<string, unknown> {
  return { ...promptVarsFor(entry), ...(typeof own === 'function' ? own(entry) : own) };
}

/**
 * Why `prompt` cannot be answered from `vars` (the variables it uses that have no value, and
 * where to give them), or undefined when every one has a value.
 */
export function missingPromptVars(prompt: PromptTemplate, vars: Readonly<Record<string, unknown>>): string | undefined {
  const missing = variablesOf(prompt).filter((v) => !(v in vars));
  if (!missing.length) return undefined;
  const example = missing.map((v) => `${v}: …`).join(', ');
  return (
    `prompt ${prompt.id}: "missing": ${JSON.stringify(missing)}: the conformance suite has no value for ${missing.length === 1 ? 'this variable' : 'these variables'}. ` +
    `Give one, as your workflow passes it, in the method's conformance test (src/manifest.test.ts): ` +
    `describeMethodConformance(manifest, { handlers, model, promptVars: { ${example} } }) ` +
    `(or promptVars: (sample) => ({ ${example} }) to build it from the real question); it is merged over the defaults of promptVarsFor (@multihop/conformance).`
  );
}

/** Options of describeMethodConformance. */
export interface MethodConformanceOptions {
  /** The method's offline handlers (its `./offline` export's `offlineHandlers`). */
  handlers: ReadonlyArray<{ role: string; promptIds: readonly string[] }>;
  /** The offline model given those handlers: `offlineModel({ handlers })`. */
  model: ModelPort;
  /** HotpotQA train questions of the bundled sample each prompt is answered on (1 to 5, default 5). */
  questions?: number;
  /**
   * Chart nodes (of kind step, choice or parallel) the manifest's `nodes` may leave out, each
   * with the reason. Every other such node of every workflow's chart must have an entry.
   */
  undescribedNodes?: Readonly<Record<string, string>>;
  /** HotpotQA train questions of the bundled sample every workflow runs on for the node checks (1 to 5, default 3). */
  nodeRunQuestions?: number;
  /** What the method's workflows build other workflows with (a router's candidates). */
  context?: WorkflowContext;
  /**
   * Values of prompt variables the shared defaults (`promptVarsFor`) do not have, as the
   * method's workflows pass them, merged over those defaults: an object, or a function of the
   * real question and its paragraphs that returns one. E.g. `{ intermediateAnswers: [] }`.
   */
  promptVars?: PromptVars;
}

/** An enum setting's values, through `.default()` / `.optional()` wrappers (zod 4); undefined for any other kind. */
function enumValues(schema: unknown): string[] | undefined {
  let current = schema as { options?: unknown; def?: { type?: string; innerType?: unknown } } | undefined;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.def?.type === 'enum' && Array.isArray(current.options)) return current.options.map(String);
    current = current.def?.innerType as typeof current;
  }
  return undefined;
}

/**
 * The settings a workflow is built with for the node checks: its defaults, then each other value
 * of each enumerated setting (OPERA's `synthesis: 'llm'` draws a `synthesize` node the default
 * chart does not have), one at a time.
 */
export function settingsVariants(entry: WorkflowEntry): Array<Record<string, unknown>> {
  if (!entry.settings) return [{}];
  const variants: Array<Record<string, unknown>> = [{}];
  const defaults = entry.settings.safeParse({}).data as Record<string, unknown> | undefined;
  for (const [key, schema] of Object.entries(entry.settings.shape)) {
    for (const value of enumValues(schema) ?? []) if (value !== defaults?.[key]) variants.push({ [key]: value });
  }
  return variants;
}

const DESCRIBED_KINDS = new Set(['step', 'choice', 'parallel']);

/** Trace events a method puts at a node: the node must be one its chart draws. */
const NODE_EVENTS = new Set(['enter', 'exit', 'llm', 'retrieve', 'decision', 'error']);

/**
 * The suite every method package runs on its own manifest (as LangGraph.js's checkpointers run
 * one validation suite), declared with the test runner's globals (`describe`, `it`, `expect`:
 * Jest, or Vitest with `globals: true`): the manifest is well formed, each workflow builds with
 * the id, title and engine the manifest states and draws a chart, a workflow's settings schema
 * (when it has one) gives every key a default, builds the workflow from them and refuses a bad
 * value by name, the manifest's `nodes` describe exactly the nodes its charts draw and declare
 * every prompt each node calls in real runs, every node event of a run is at a node its chart
 * draws with each enter paired with its exit, and the model given (the offline model with the
 * method's own handlers) answers every prompt of the manifest schema-valid, on real HotpotQA
 * train questions this package ships, and runs every workflow there without an error, each run's
 * transitions walking its chart.
 */
export function describeMethodConformance(manifest: MethodManifest, options: MethodConformanceOptions): void {
  const { describe, it, expect } = testGlobals();
  const { handlers, model } = options;
  // Every workflow (each settings variant) run on real HotpotQA train questions, once, for the checks that read runs.
  let sampled: Promise<Array<{ workflow: string; chart: Chart; result: RunResult }>> | undefined;
  const sampleRuns = () =>
    (sampled ??= (async () => {
      const sample = conformanceSample(options.nodeRunQuestions ?? 3);
      const runs: Array<{ workflow: string; chart: Chart; result: RunResult }> = [];
      for (const entry of manifest.workflows) {
        for (const settings of settingsVariants(entry)) {
          const workflow = entry.create(settings, options.context);
          const chart = workflow.chart();
          for (const { question, passages } of sample) runs.push({ workflow: entry.id, chart, result: await workflow.run(question, { model, retriever: overlapRetriever(passages) }) });
        }
      }
      return runs;
    })());
  describe(`method ${manifest.id}: manifest conformance`, () => {
    it('builds every workflow it lists, with the id, title and engine it states, and a chart', () => {
      expect(manifest.workflows.length).toBeGreaterThan(0);
      for (const entry of manifest.workflows) {
        const workflow = entry.create(undefined, options.context);
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
        const workflow = entry.create(defaults, options.context);
        expect({ id: workflow.id, title: workflow.title }).toEqual({ id: entry.id, title: entry.title });
        expect(workflow.chart().engine).toBe(entry.engine);
      }
    });

    it('refuses, when a workflow is built, a value of each setting that its settings schema refuses, naming the workflow and the setting', () => {
      // What a library caller passes to the factory (opera({ topK: 0 })) is held to the schema `--set` is.
      for (const entry of manifest.workflows.filter((e) => e.settings !== undefined)) {
        const defaults = entry.settings!.parse({}) as Record<string, unknown>;
        for (const key of Object.keys(entry.settings!.shape)) {
          const bad = { ...defaults, [key]: { not: 'a setting value' } };
          let thrown: unknown;
          try {
            entry.create(bad, options.context);
          } catch (error) {
            thrown = error;
          }
          expect({ workflow: entry.id, key, thrown: thrown instanceof Error ? thrown.message : thrown }).toEqual({
            workflow: entry.id,
            key,
            thrown: expect.stringContaining(`${entry.id}: setting ${key} = {"not":"a setting value"} is not valid`),
          });
        }
      }
    });

    it('refuses, when a workflow is built, an option that is none of its settings (a misspelt one), naming it and the setting it is nearest', () => {
      // JavaScript and JSON callers have no type check: par2CoverageAnchor({ hopBudget: 3 }) or opera({ maxRewrite: 1 }) must not run on the defaults in silence.
      for (const entry of manifest.workflows.filter((e) => e.settings !== undefined)) {
        const defaults = entry.settings!.parse({}) as Record<string, unknown>;
        const key = Object.keys(entry.settings!.shape)[0];
        const typo = key ? `${key}s` : 'k';
        let thrown: unknown;
        try {
          entry.create({ ...defaults, [typo]: defaults[key ?? ''] ?? 1 }, options.context);
        } catch (error) {
          thrown = error;
        }
        expect({ workflow: entry.id, thrown: thrown instanceof Error ? thrown.message : thrown }).toEqual({
          workflow: entry.id,
          thrown: expect.stringContaining(`${entry.id}: no option "${typo}"${key ? ` (did you mean "${key}"` : ''}`),
        });
      }
    });

    it('has an offline handler for every role its prompts use, and no handler for a role it does not', () => {
      const roles = new Set(manifest.prompts.map((p) => p.role));
      const handled = new Set(handlers.map((h) => h.role));
      // Named by what to do: a role with no handler needs defineOfflineHandler(<its prompt>, …) in the
      // method's src/offline/, listed in its offlineHandlers; a handler for no prompt's role is stale.
      expect({
        rolesWithNoOfflineHandler_addOneWithDefineOfflineHandler: [...roles].filter((r) => !handled.has(r)).sort(),
        handlersForARoleNoPromptUses: [...handled].filter((r) => !roles.has(r)).sort(),
      }).toEqual({ rolesWithNoOfflineHandler_addOneWithDefineOfflineHandler: [], handlersForARoleNoPromptUses: [] });
      for (const handler of handlers) {
        for (const id of handler.promptIds) expect(manifest.prompts.map((p) => p.id)).toContain(id);
      }
    });

    // A manifest without `nodes` (a method just generated) is not checked here; the runner's
    // catalogue test requires every installed method to declare them.
    const nodes = manifest.nodes;
    if (nodes) {
      const charts = (): Array<{ workflow: string; settings: Record<string, unknown>; chart: Chart }> =>
        manifest.workflows.flatMap((entry) => settingsVariants(entry).map((settings) => ({ workflow: entry.id, settings, chart: entry.create(settings, options.context).chart() })));

      it('describes only nodes its workflows’ charts draw, and every step, choice and parallel node they draw', () => {
        const drawn = charts();
        const ids = new Set(drawn.flatMap((c) => c.chart.nodes.map((n) => n.id)));
        expect({ notInAnyChart: Object.keys(nodes).filter((id) => !ids.has(id)) }).toEqual({ notInAnyChart: [] });
        const excepted = options.undescribedNodes ?? {};
        const missing = drawn.flatMap((c) =>
          c.chart.nodes.filter((n) => DESCRIBED_KINDS.has(n.kind) && !(n.id in nodes) && !(n.id in excepted)).map((n) => `${c.workflow}: ${n.id} (${n.kind})`),
        );
        expect({ undescribed: [...new Set(missing)] }).toEqual({ undescribed: [] });
        // An exception names a node the charts draw, and it is not also described.
        expect({ staleExceptions: Object.keys(excepted).filter((id) => !ids.has(id) || id in nodes) }).toEqual({ staleExceptions: [] });
      });

      it('declares, for every model call its workflows make on real HotpotQA train questions, the prompt at the node that makes it', async () => {
        const undeclared = new Set<string>();
        let calls = 0;
        let delegated = 0;
        for (const { workflow, chart, result } of await sampleRuns()) {
          const own = new Set(chart.nodes.map((n) => n.id));
          const delegates = chart.nodes.some((n) => n.kind === 'workflow');
          for (const event of result.trace.filter((e) => e.kind === 'llm')) {
            // A call made inside a workflow this one runs whole (a router's candidate) is that method's to declare.
            if (delegates && !own.has(event.node)) {
              delegated++;
              continue;
            }
            calls++;
            const promptId = String(event.data['promptId']);
            if (!nodes[event.node]?.prompts?.includes(promptId)) undeclared.add(`${workflow}: node "${event.node}" calls "${promptId}"`);
          }
        }
        expect({ undeclared: [...undeclared] }).toEqual({ undeclared: [] });
        // No model call in any sample run: every run failed before its first (see the test of runs ending without an error).
        expect({ modelCallsInTheSampleRuns: calls + delegated > 0 ? 'some' : 'none: every run failed before calling the model (see the runs that end with an error)' }).toEqual({ modelCallsInTheSampleRuns: 'some' });
      }, 120_000);
    }

    it('ends every run on real HotpotQA train questions without an error (a bug, an unbounded loop), each run walking its chart', async () => {
      const failed: string[] = [];
      const offChart: string[] = [];
      for (const { workflow, chart, result } of await sampleRuns()) {
        // A workflow this one runs whole (a router's candidate) walks its own chart: its forwarded events carry `workflow`.
        const delegates = chart.nodes.some((n) => n.kind === 'workflow');
        const own = delegates ? result.trace.filter((e) => e.data['workflow'] === undefined) : result.trace;
        if (result.status === 'error') failed.push(`${workflow} on ${result.questionId}: ${result.error?.code ?? '?'}: ${result.error?.message ?? ''}`);
        // A run stopped by its budget may end between a node and the edge it would take.
        else if (result.status === 'ok') for (const problem of chartWalkProblems(own, chart)) offChart.push(`${workflow} on ${result.questionId}: ${problem}`);
      }
      expect({ failed, offChart }).toEqual({ failed: [], offChart: [] });
    }, 120_000);

    it('honours a caller\'s Budget.maxHops: given 0, a run searches nothing, and one that would have searched ends partial (budget:maxHops)', async () => {
      const [{ question, passages }] = conformanceSample(1) as [SampleEntry];
      const searched: string[] = [];
      const unlabelled: string[] = [];
      for (const entry of manifest.workflows) {
        const result = await entry.create(undefined, options.context).run(question, { model, retriever: overlapRetriever(passages), budget: { maxHops: 0 } });
        if (result.trace.some((e) => e.kind === 'retrieve')) searched.push(entry.id);
        if (!(result.status === 'ok' || (result.status === 'partial' && result.stopReason === 'budget:maxHops'))) unlabelled.push(`${entry.id}: ${result.status} ${result.stopReason ?? result.error?.code ?? ''}`);
      }
      // A workflow here searched with no hop left: a retrieval round must call ctx.budget.chargeHop() before it searches.
      expect({ searchedWithNoHopLeft_chargeAHopBeforeEachRound: searched, unlabelled }).toEqual({ searchedWithNoHopLeft_chargeAHopBeforeEachRound: [], unlabelled: [] });
    }, 120_000);

    it('traces every node event of its runs at a node its chart draws (a name typed in ctx.node that no state has is caught here), each enter with its exit', async () => {
      const stray = new Set<string>();
      const unpaired = new Set<string>();
      for (const { workflow, chart, result } of await sampleRuns()) {
        const own = new Set(chart.nodes.map((n) => n.id));
        // A workflow this one runs whole (a router's candidate) traces at its own chart's nodes: those events are its to check.
        const delegates = chart.nodes.some((n) => n.kind === 'workflow');
        const balance = new Map<string, number>();
        for (const event of result.trace) {
          if (event.kind === 'enter' || event.kind === 'exit') balance.set(event.node, (balance.get(event.node) ?? 0) + (event.kind === 'enter' ? 1 : -1));
          if (!NODE_EVENTS.has(event.kind) || own.has(event.node) || delegates) continue;
          // Run-level events (an error or STOP outside any node) are at the workflow's own id.
          if (event.node === result.workflowId && (event.kind === 'error' || event.kind === 'decision')) continue;
          stray.add(`${workflow}: ${event.kind} at "${event.node}", which its chart (${[...own].join(', ')}) does not draw`);
        }
        for (const [node, open] of balance) if (open !== 0) unpaired.add(`${workflow}: ${node} entered ${open > 0 ? 'more' : 'fewer'} times than it exited`);
      }
      expect({ stray: [...stray], unpaired: [...unpaired] }).toEqual({ stray: [], unpaired: [] });
    }, 120_000);

    it('is answered by the offline model on every prompt, schema-valid, on real HotpotQA train questions', async () => {
      for (const entry of conformanceSample(options.questions ?? 5)) {
        const vars = conformancePromptVars(entry, options.promptVars);
        for (const prompt of manifest.prompts) {
          const missing = missingPromptVars(prompt, vars);
          if (missing) throw new Error(missing);
          const result = await model.call({ prompt, vars });
          expect(prompt.schema.safeParse(result.output).success).toBe(true);
          expect(result.usage).toMatchObject({ model: 'offline', estimated: true, attempts: 1 });
        }
      }
    });
  });
}
