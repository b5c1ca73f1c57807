import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModel, ProviderError, type ModelPort, type Question, type RunResult, type Workflow } from '@multihop/core';
import { createOfflineProvider } from '@multihop/offline-model';
import { opera, operaNoRewrite } from '@multihop/opera';
import { offlineHandlers as operaHandlers } from '@multihop/opera/offline';
import { par2IterativeChain, par2Rag } from '@multihop/par2-rag';
import { offlineHandlers as par2Handlers } from '@multihop/par2-rag/offline';
import { openDatasetCorpus, type DatasetCorpus } from '@multihop/retriever';
import { sharedDatasetsDir } from '@multihop/testing';
import { openCheckpointStore } from './open';

// A durable run cut short after k completed model calls (its signal aborts, as a crash would end
// it, at a step's boundary or in the middle of one) and continued from a reopened SQLite file (as
// a new process would): same answer, same trace, and only the calls not yet made are made.
process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
const dir = mkdtempSync(join(tmpdir(), 'multihop-durable-'));
let corpus: DatasetCorpus;

beforeAll(async () => {
  // Real LanceDB tables on disk: hotpotqa-train questions with their own paragraphs.
  corpus = await openDatasetCorpus('hotpotqa-train', { setting: 'closed', uri: join(dir, 'lance'), load: { limit: 12 } });
}, 60_000);
afterAll(() => {
  corpus?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The offline model behind a port that counts the calls that reach it, and can abort a run after the k-th. */
function countingModel(): { port: ModelPort; calls: () => number; abortAfter(k: number, controller: AbortController): void } {
  const base = createModel({ provider: createOfflineProvider({ handlers: [...par2Handlers, ...operaHandlers] }) });
  let calls = 0;
  let abortAt: { k: number; controller: AbortController } | undefined;
  return {
    port: {
      modelFor: (role) => base.modelFor(role),
      async call(request) {
        const result = await base.call(request);
        calls += 1;
        if (abortAt && calls === abortAt.k) abortAt.controller.abort(new Error('killed'));
        return result;
      },
    },
    calls: () => calls,
    abortAfter(k, controller) {
      abortAt = { k, controller };
    },
  };
}

/** One workflow of each engine. */
const ENGINES: Array<[string, () => Workflow]> = [
  ['PAR²-RAG (LangGraph)', () => par2Rag()],
  ['OPERA (XState)', () => opera()],
];

const shape = (result: RunResult): string[] => result.trace.map((e) => `${e.node}:${e.kind}`);

async function reference(workflow: Workflow, question: Question): Promise<{ result: RunResult; calls: number }> {
  const model = countingModel();
  const result = await workflow.run(question, { model: model.port, retriever: corpus.retriever.forQuestion(question.id) });
  return { result, calls: model.calls() };
}

describe.each(ENGINES)('%s: a run cut short resumes from its checkpoints', (_name, make) => {
  it('gives the same answer and trace, making only the calls not made before the cut', async () => {
    const workflow = make();
    let tried = 0;
    for (const question of corpus.dataset.questions) {
      const ref = await reference(workflow, question);
      if (ref.calls < 3) continue; // a cut needs calls on both sides
      tried += 1;
      for (const k of [1, ref.calls - 1]) {
        const file = join(dir, `${workflow.id}-${question.id}-${k}.sqlite`);
        const thread = `t-${question.id}-${k}`;
        let store = await openCheckpointStore(file);
        const first = countingModel();
        const controller = new AbortController();
        first.abortAfter(k, controller);
        const cut = await workflow.run(question, { model: first.port, retriever: corpus.retriever.forQuestion(question.id), signal: controller.signal, durable: store.durable(thread) });
        expect(cut.status).toBe('error');
        expect(cut.stopReason).toBe('aborted');
        expect(first.calls()).toBe(k);
        await store.close();

        store = await openCheckpointStore(file);
        const second = countingModel();
        const resumed = await workflow.run(question, { model: second.port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable(thread) });
        expect(resumed.answer).toBe(ref.result.answer);
        expect(resumed.status).toBe(ref.result.status);
        expect(second.calls()).toBe(ref.calls - k);
        expect(shape(resumed)).toEqual(shape(ref.result));
        expect(resumed.usage.llmCalls).toBe(ref.result.usage.llmCalls);
        expect(resumed.usage.promptTokens).toBe(ref.result.usage.promptTokens);
        expect(resumed.evidenceIds).toEqual(ref.result.evidenceIds);
        // One llm event per call of the uninterrupted run: restored with its checkpoint, served again
        // from the journal to a step that was cut short (marked replayed), or made now.
        const llm = resumed.trace.filter((e) => e.kind === 'llm');
        expect(llm).toHaveLength(ref.calls);
        expect(llm.filter((e) => e.data['replayed'] === true).length).toBeLessThanOrEqual(k);
        expect(llm.filter((e) => e.data['replayed'] !== true && e.data['restored'] !== true)).toHaveLength(second.calls());

        // A finished thread gives its result again without a call.
        const third = countingModel();
        const again = await workflow.run(question, { model: third.port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable(thread) });
        expect(third.calls()).toBe(0);
        expect(again.answer).toBe(ref.result.answer);
        await store.close();
      }
      if (tried === 3) break;
    }
    expect(tried).toBe(3);
  }, 120_000);
});

describe.each(ENGINES)('%s: a thread that failed at the provider, or stopped on its budget, goes on when resumed', (_name, make) => {
  it('makes the calls the failure left unmade once the provider is back, and meets the same budget again', async () => {
    const workflow = make();
    // The first question whose run makes three calls or more: one before the outage, some after.
    let question: Question | undefined;
    let ref: Awaited<ReturnType<typeof reference>> | undefined;
    for (const q of corpus.dataset.questions) {
      [question, ref] = [q, await reference(workflow, q)];
      if (ref.calls >= 3) break;
    }
    if (!question || !ref || ref.calls < 3) throw new Error('no question of the sample makes three calls');
    const store = await openCheckpointStore(join(dir, `${workflow.id}-outage.sqlite`));
    // The endpoint goes down after the first call.
    const working = countingModel();
    const down: ModelPort = {
      modelFor: (role) => working.port.modelFor(role),
      async call(request) {
        if (working.calls() >= 1) throw new ProviderError('openai:m at http://127.0.0.1:9/v1 failed after 3 attempt(s): 503', { provider: 'openai:m', status: 503, attempts: 3, retryable: true });
        return working.port.call(request);
      },
    };
    const failed = await workflow.run(question, { model: down, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable('outage') });
    expect(failed.status).toBe('error');
    expect(failed.error?.code).toBe('PROVIDER');
    const back = countingModel();
    const resumed = await workflow.run(question, { model: back.port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable('outage') });
    expect({ status: resumed.status, answer: resumed.answer, error: resumed.error?.code }).toEqual({ status: ref.result.status, answer: ref.result.answer, error: undefined });
    expect(back.calls()).toBe(ref.calls - 1);

    // A run stopped by --max-llm-calls 1 is partial, and so is its thread resumed under the same budget.
    const budget = { maxLlmCalls: 1 };
    const stopped = await workflow.run(question, { model: countingModel().port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable('budget'), budget });
    expect({ status: stopped.status, stopReason: stopped.stopReason }).toEqual({ status: 'partial', stopReason: 'budget:maxLlmCalls' });
    const again = await workflow.run(question, { model: countingModel().port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable('budget'), budget });
    expect({ status: again.status, stopReason: again.stopReason, answer: again.answer }).toEqual({ status: 'partial', stopReason: 'budget:maxLlmCalls', answer: stopped.answer });
    await store.close();
  }, 60_000);
});

describe.each(ENGINES)('%s: a resumed run counts the wall time of the processes before it', (_name, make) => {
  /** The counting model, each call answered after `ms`. */
  const slow = (ms: number) => {
    const model = countingModel();
    const port: ModelPort = { modelFor: (role) => model.port.modelFor(role), call: async (request) => (await new Promise((r) => setTimeout(r, ms)), model.port.call(request)) };
    return { port, calls: model.calls };
  };

  it('in its usage, and against its deadline: a thread stopped at its deadline stops there again, with no call', async () => {
    const workflow = make();
    const question = corpus.dataset.questions[7]!;
    const store = await openCheckpointStore(join(dir, `${workflow.id}-elapsed.sqlite`));
    const retriever = corpus.retriever.forQuestion(question.id);
    // A run that took at least 100 ms a call, finished: resumed, it makes no call, and its wall
    // time is still the run's (from its last checkpoint), not the few ms of this process.
    const first = slow(100);
    const finished = await workflow.run(question, { model: first.port, retriever, durable: store.durable('finished') });
    expect(finished.usage.wallMs).toBeGreaterThanOrEqual(100 * first.calls());
    const again = await workflow.run(question, { model: countingModel().port, retriever, durable: store.durable('finished') });
    expect(again.usage.llmCalls).toBe(finished.usage.llmCalls);
    expect(again.usage.wallMs).toBeGreaterThanOrEqual(100 * first.calls());

    // Stopped at a 250 ms deadline (150 ms a call): partial. Resumed with the time it had spent, the
    // same budget stops it at once, with its answer, and no call is made.
    const budget = { timeoutMs: 250 };
    const late = slow(150);
    const stopped = await workflow.run(question, { model: late.port, retriever, durable: store.durable('deadline'), budget });
    expect({ status: stopped.status, stopReason: stopped.stopReason }).toEqual({ status: 'partial', stopReason: 'budget:deadline' });
    const resumedModel = countingModel();
    const resumed = await workflow.run(question, { model: resumedModel.port, retriever, durable: { ...store.durable('deadline'), elapsedMs: stopped.usage.wallMs }, budget });
    expect(resumedModel.calls()).toBe(0);
    expect({ status: resumed.status, stopReason: resumed.stopReason, answer: resumed.answer }).toEqual({ status: 'partial', stopReason: 'budget:deadline', answer: stopped.answer });
    expect(resumed.usage.wallMs).toBeGreaterThanOrEqual(250);
    await store.close();
  }, 60_000);
});

it('PAR²-RAG keeps no candidate passages in the checkpoints written after reranking them', async () => {
  const file = join(dir, 'par2-state.sqlite');
  const store = await openCheckpointStore(file);
  const question = corpus.dataset.questions[0]!;
  const result = await par2Rag().run(question, { model: countingModel().port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable('state') });
  expect(result.status).not.toBe('error');
  await store.close();
  const Database = require('better-sqlite3') as new (file: string, options: object) => { prepare(sql: string): { all(...args: unknown[]): unknown[] }; close(): void };
  const db = new Database(file, { readonly: true });
  const rows = db.prepare('SELECT checkpoint FROM checkpoints WHERE thread_id = ? ORDER BY checkpoint_id').all('state') as Array<{ checkpoint: Uint8Array }>;
  db.close();
  const values = rows.map((r) => (JSON.parse(Buffer.from(r.checkpoint).toString('utf8')) as { channel_values: Record<string, unknown[] | undefined> }).channel_values);
  // Written by the parallel retrieve branches, read once by rerank_dedupe, then emptied; the per-query lists, once merged into C_1.
  const held = (key: string) => values.filter((v) => (v[key]?.length ?? 0) > 0).length;
  expect(rows.length).toBeGreaterThan(6);
  expect(held('candidates')).toBeLessThanOrEqual(1);
  expect(held('reranked')).toBeLessThanOrEqual(1);
  expect(values.at(-1)!['context']!.length).toBeGreaterThan(0);
});

it('a thread of one engine is refused by the other, by name', async () => {
  const store = await openCheckpointStore('memory');
  const question = corpus.dataset.questions[0]!;
  const model = countingModel();
  await par2Rag().run(question, { model: model.port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable('shared') });
  const other = await opera().run(question, { model: model.port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable('shared') });
  expect(other.status).toBe('error');
  expect(other.error?.message).toMatch(/^checkpoint store memory: thread shared: its latest checkpoint holds no XState snapshot/);
});

it('a checkpointer or call journal that is not one is refused before the run starts, naming what it lacks', async () => {
  const store = await openCheckpointStore('memory');
  const question = corpus.dataset.questions[0]!;
  const model = countingModel();
  const run = (durable: Record<string, unknown>) => par2Rag().run(question, { model: model.port, retriever: corpus.retriever.forQuestion(question.id), durable: { ...store.durable('bad'), ...durable } as never });
  await expect(run({ checkpointer: new Map() })).rejects.toThrow(/durable.checkpointer must be a LangGraph BaseCheckpointSaver \(its getTuple, list, put, putWrites missing\)/);
  await expect(run({ calls: {} })).rejects.toThrow(/durable.calls must be a CallJournal with get and put \(its get, put missing\)/);
  expect(model.calls()).toBe(0);
});

it('a damaged checkpoint fails the resumed run naming the store file, the thread and the checkpoint', async () => {
  const file = join(dir, 'damaged.sqlite');
  const question = corpus.dataset.questions[0]!;
  const store = await openCheckpointStore(file);
  const first = await par2Rag().run(question, { model: countingModel().port, retriever: corpus.retriever.forQuestion(question.id), durable: store.durable('torn') });
  expect(first.status).toBe('ok');
  await store.close();
  // Core's share of each checkpoint replaced by something that is not a run delta.
  const Database = require('better-sqlite3') as new (file: string) => { exec(sql: string): void; close(): void };
  const db = new Database(file);
  db.exec(`UPDATE checkpoints SET metadata = json_set(CAST(metadata AS TEXT), '$.multihop_run', 5) WHERE thread_id = 'torn'`);
  db.close();
  const reopened = await openCheckpointStore(file);
  try {
    const again = await par2Rag().run(question, { model: countingModel().port, retriever: corpus.retriever.forQuestion(question.id), durable: reopened.durable('torn') });
    expect(again.error?.code).toBe('CHECKPOINT');
    expect(again.error?.message).toMatch(new RegExp(`^checkpoint store ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: thread torn, checkpoint \\S+: not a multihop run delta`));
  } finally {
    await reopened.close();
  }
});

describe.each([
  ['PAR²-RAG (LangGraph)', () => par2Rag(), () => par2IterativeChain()],
  ['OPERA (XState)', () => opera(), () => operaNoRewrite()],
])('%s: a thread holds one run', (_name, make, makeVariant) => {
  it('refuses another question, or another workflow of the same engine, on it by name, and still gives its own result', async () => {
    // A SQLite file, reopened before each run as another process would: the thread's record of its run goes through the store.
    const file = join(dir, `one-run-${make().id}.sqlite`);
    let store = await openCheckpointStore(file);
    const [q1, q2] = corpus.dataset.questions as [Question, Question];
    const workflow = make();
    const first = await workflow.run(q1, { model: countingModel().port, retriever: corpus.retriever.forQuestion(q1.id), durable: store.durable('t1') });
    expect(first.status).not.toBe('error');
    await store.close();
    store = await openCheckpointStore(file);

    // Another question on the finished thread: an error naming both runs, not the first run's answer under q2's id.
    const model = countingModel();
    const other = await workflow.run(q2, { model: model.port, retriever: corpus.retriever.forQuestion(q2.id), durable: store.durable('t1') });
    expect(other.status).toBe('error');
    expect(other.error?.code).toBe('CHECKPOINT');
    expect(other.error?.message).toContain(`thread t1 holds a run of ${workflow.id} on question ${q1.id} (`);
    expect(other.error?.message).toContain(`not of ${workflow.id} on question ${q2.id} (`);
    expect(other.error?.message).toContain('give this run a thread id of its own');
    expect(other.answer).toBe('');
    expect(model.calls()).toBe(0);

    // Another workflow of the same engine on the same question: refused the same way.
    const variant = makeVariant();
    const crossed = await variant.run(q1, { model: countingModel().port, retriever: corpus.retriever.forQuestion(q1.id), durable: store.durable('t1') });
    expect(crossed.error?.message).toContain(`thread t1 holds a run of ${workflow.id} on question ${q1.id} (`);

    // Its own run still gets its result back, with no call.
    const again = countingModel();
    const own = await workflow.run(q1, { model: again.port, retriever: corpus.retriever.forQuestion(q1.id), durable: store.durable('t1') });
    expect(own.answer).toBe(first.answer);
    expect(again.calls()).toBe(0);
    await store.close();
  }, 60_000);
});
