import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ModelOutputError, RunAbortedError } from '../errors';
import { createModel, parseReply } from './createModel';
import type { ChatMessage, PromptTemplate, Provider, ProviderRequest } from './port';
import { createScriptedProvider } from './scripted';
import { ConcurrencyLimiter } from './limiter';

const answerSchema = z.object({ answer: z.string().min(1), confidence: z.number().min(0).max(1) });

const answerPrompt: PromptTemplate<z.infer<typeof answerSchema>> = {
  id: 'test.answer',
  role: 'writer',
  version: '1',
  schema: answerSchema,
  render: (vars): ChatMessage[] => [{ role: 'user', content: `Answer: ${String(vars['question'])}` }],
};

const verdictSchema = z.object({ decision: z.enum(['yes', 'no']) });

/** A plain-text reply form: one `Decision:` line. */
const verdictPrompt: PromptTemplate<z.infer<typeof verdictSchema>> = {
  id: 'test.verdict',
  role: 'judge',
  version: '1',
  schema: verdictSchema,
  reply: {
    instructions: 'Decision: <yes|no>',
    parse: (text) => {
      const line = /^decision:\s*(\S+)/im.exec(text);
      return line ? { ok: true, value: { decision: line[1]!.toLowerCase() as 'yes' } } : { ok: false, issues: 'no "Decision:" line' };
    },
    format: (value) => `Decision: ${value.decision}`,
  },
  render: (vars): ChatMessage[] => [{ role: 'user', content: `Is ${String(vars['x'])} right?` }],
};

describe('createModel', () => {
  it('passes a call\'s temperature to the provider and keeps replies at different temperatures apart in the cache', async () => {
    const provider = createScriptedProvider({ replies: { writer: ['{"answer":"cool","confidence":1}', '{"answer":"hot","confidence":1}'] } });
    const model = createModel({ provider, cache: mkdtempSync(join(tmpdir(), 'multihop-cache-temp-')) });
    expect((await model.call({ prompt: answerPrompt, vars: { question: 'q' } })).output.answer).toBe('cool');
    expect((await model.call({ prompt: answerPrompt, vars: { question: 'q' }, temperature: 0.9 })).output.answer).toBe('hot');
    expect((await model.call({ prompt: answerPrompt, vars: { question: 'q' }, temperature: 0.9 })).usage.cached).toBe(true);
    expect(provider.requests.map((r) => r.temperature)).toEqual([undefined, 0.9]);
  });

  it('reads a plain-text reply with the prompt\'s own reply format, and tells the provider not to force JSON', async () => {
    const provider = createScriptedProvider({ replies: { judge: ['Looks fine.\nDecision: Yes'] } });
    const result = await createModel({ provider }).call({ prompt: verdictPrompt, vars: { x: 'Paris' } });
    expect(result.output).toEqual({ decision: 'yes' });
    expect(provider.requests[0]?.format).toBe('text');
  });

  it('repairs a plain-text reply in its own format, then checks the parsed value against the schema', async () => {
    const provider = createScriptedProvider({ replies: { judge: ['I would say so.', 'Decision: maybe', 'Decision: no'] } });
    const model = createModel({ provider });
    const repaired = await model.call({ prompt: verdictPrompt, vars: { x: 'Lyon' } }).catch((e: unknown) => e);
    // "maybe" parses as a line but breaks the schema: two attempts, both unusable.
    expect(repaired).toBeInstanceOf(ModelOutputError);
    expect((repaired as ModelOutputError).details.raw).toEqual(['I would say so.', 'Decision: maybe']);
    const repair = provider.requests[1] as ProviderRequest;
    expect(repair.messages.at(-1)?.content).toContain('no "Decision:" line');
    expect(repair.messages.at(-1)?.content).toContain('in exactly this format:\nDecision: <yes|no>');
    expect(repair.messages.at(-1)?.content).not.toContain('JSON');
  });

  it('returns the parsed, validated object from a fenced reply', async () => {
    const provider = createScriptedProvider({ replies: { writer: ['```json\n{"answer":"Paris","confidence":0.9}\n```'] } });
    const model = createModel({ provider });
    const result = await model.call({ prompt: answerPrompt, vars: { question: 'capital of France?' } });
    expect(result.output).toEqual({ answer: 'Paris', confidence: 0.9 });
    expect(result.usage).toMatchObject({ role: 'writer', attempts: 1, cached: false });
  });

  it('repairs a schema violation once, showing the model the validation error', async () => {
    const provider = createScriptedProvider({
      replies: { writer: ['{"answer":"Paris","confidence":7}', '{"answer":"Paris","confidence":0.7}'] },
    });
    const result = await createModel({ provider }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    expect(result.output.confidence).toBe(0.7);
    expect(result.usage.attempts).toBe(2);
    const repair = provider.requests[1] as ProviderRequest;
    expect(repair.attempt).toBe(1);
    expect(repair.messages.at(-2)).toEqual({ role: 'assistant', content: '{"answer":"Paris","confidence":7}' });
    expect(repair.messages.at(-1)?.content).toMatch(/confidence/);
    // The reply the repair mended was paid for: it is kept with what was wrong with it.
    expect(result.repaired).toEqual({ raw: '{"answer":"Paris","confidence":7}', issues: expect.stringContaining('confidence') });
  });

  it('reads the reply after a reasoning model\'s <think> draft, and takes an unclosed draft for no reply', async () => {
    const provider = createScriptedProvider({
      replies: {
        writer: [
          '<think>First draft: {"answer":"WRONG","confidence":0.1}</think>\n\n{"answer":"Paris","confidence":0.9}',
          '<think>still thinking about {"answer":"Lyon","confidence":0.2}',
          '{"answer":"Lyon","confidence":0.8}',
        ],
      },
    });
    const model = createModel({ provider });
    const first = await model.call({ prompt: answerPrompt, vars: { question: 'capital of France?' } });
    expect([first.output.answer, first.text]).toEqual(['Paris', '{"answer":"Paris","confidence":0.9}']);
    expect(first.raw).toContain('First draft');
    const second = await model.call({ prompt: answerPrompt, vars: { question: 'second city?' } });
    expect(second.output.answer).toBe('Lyon');
    expect(second.repaired).toEqual({ raw: '<think>still thinking about {"answer":"Lyon","confidence":0.2}', issues: 'the reply was empty' });
  });

  it('reads only what follows a </think> whose <think> the chat template put in the prompt (R1, QwQ)', async () => {
    const provider = createScriptedProvider({ replies: { writer: ['Draft: {"answer":"WRONG","confidence":0.1}\n</think>\n\n{"answer":"Paris","confidence":0.9}'] } });
    const result = await createModel({ provider }).call({ prompt: answerPrompt, vars: { question: 'capital of France?' } });
    expect(result.output.answer).toBe('Paris');
    expect(result.usage.attempts).toBe(1);
  });

  it('refuses a reply cut off at the token limit at once, naming it, and says when a reply was empty', async () => {
    const requests: ProviderRequest[] = [];
    const cut: Provider = { id: 'cut', generate: async (r) => (requests.push(r), { text: '{"answer":"Par', model: 'm', finishReason: 'length' }) };
    const error = (await createModel({ provider: cut }).call({ prompt: answerPrompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ModelOutputError;
    expect(error).toBeInstanceOf(ModelOutputError);
    expect(error.message).toContain('was cut off at the token limit (finish_reason "length")');
    expect(error.details.raw).toEqual(['{"answer":"Par']);
    expect(requests).toHaveLength(1);
    const thinking: Provider = { id: 'thinking', generate: async () => ({ text: '', reasoning: 'Paris, surely', model: 'm', finishReason: 'stop' }) };
    const empty = (await createModel({ provider: thinking }).call({ prompt: answerPrompt, vars: { question: 'q' } }).catch((e: unknown) => e)) as ModelOutputError;
    expect(empty.message).toContain('the reply was empty (the server sent only reasoning text (reasoning_content); finish_reason "stop")');
  });

  it('fails after the repair round with ModelOutputError keeping both raw replies', async () => {
    const provider = createScriptedProvider({ replies: { writer: ['I think it is Paris.', '{"answer": ""}'] } });
    const call = createModel({ provider }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    await expect(call).rejects.toBeInstanceOf(ModelOutputError);
    const error = (await call.catch((e: unknown) => e)) as ModelOutputError;
    expect(error.details.raw).toEqual(['I think it is Paris.', '{"answer": ""}']);
    expect(error.details.role).toBe('writer');
    // zod's issues, one per line in the details, are one line in the message.
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(/after one repair round: ✖ .+ at answer; ✖ .+ at confidence$/);
    expect(provider.requests).toHaveLength(2);
  });

  it('estimates and marks tokens when the provider reports no usage', async () => {
    const provider = createScriptedProvider({ replies: { writer: ['{"answer":"Paris","confidence":1}'] } });
    const { usage } = await createModel({ provider }).call({ prompt: answerPrompt, vars: { question: 'capital?' } });
    expect(usage.estimated).toBe(true);
    expect(usage.promptTokens).toBeGreaterThan(0);
    expect(usage.completionTokens).toBe(Math.ceil('{"answer":"Paris","confidence":1}'.length / 4));
  });

  it('uses the provider usage when reported', async () => {
    const provider = createScriptedProvider({
      replies: { writer: ['{"answer":"Paris","confidence":1}'] },
      usage: { promptTokens: 120, completionTokens: 9 },
    });
    const { usage } = await createModel({ provider }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    expect(usage).toMatchObject({ promptTokens: 120, completionTokens: 9, estimated: false });
  });

  it('routes roles to their own providers', async () => {
    const main = createScriptedProvider({ id: 'main', replies: { writer: ['{"answer":"A","confidence":1}'] } });
    const esc = createScriptedProvider({ id: 'esc-model', replies: { esc: ['{"answer":"B","confidence":1}'] } });
    const model = createModel({ provider: main, roles: { esc } });
    expect((await model.call({ prompt: answerPrompt, vars: {}, role: 'esc' })).output.answer).toBe('B');
    expect((await model.call({ prompt: answerPrompt, vars: {} })).output.answer).toBe('A');
    expect(model.modelFor('esc')).toBe('esc-model');
    expect(model.modelFor('writer')).toBe('main');
  });

  it('answers a repeated call from the on-disk cache without calling the provider', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-cache-'));
    const provider = createScriptedProvider({ replies: { writer: ['{"answer":"Paris","confidence":1}'] } });
    const first = await createModel({ provider, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    // A new port over the same directory: as a second evaluation run would be.
    const second = await createModel({ provider, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    expect(provider.requests).toHaveLength(1);
    expect(second.output).toEqual(first.output);
    expect(second.usage.cached).toBe(true);
    const other = createModel({ provider, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'another' } });
    await expect(other).rejects.toThrow(/ran out of replies/);
  });

  it('takes the JSON object a reply gives after citing passages like [1] and [2], and shows the object\'s issues when none fits', async () => {
    const provider = createScriptedProvider({ replies: { writer: ['From [1] and [2]: {"answer":"Paris","confidence":0.9}'] } });
    const result = await createModel({ provider }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    expect(result.output).toEqual({ answer: 'Paris', confidence: 0.9 });
    expect(result.usage.attempts).toBe(1);
    const broken = parseReply('See [3]: {"answer":"Paris"}', answerSchema);
    expect(broken.ok).toBe(false);
    expect(broken.ok ? '' : broken.issues).toContain('confidence');
    expect(broken.ok ? '' : broken.issues).not.toContain('received array');
    // An object inside the one taken is not a candidate of its own, nor one inside a malformed object (a first hop's draft): that gets a repair round naming the fault.
    expect(parseReply('{"result": {"answer":"x","confidence":1}}', answerSchema).ok).toBe(false);
    const malformed = parseReply('{"first_hop": {"answer":"Lilith","confidence":1}, "answer":"a spirit", "confidence":1 /* done */}', answerSchema);
    expect(malformed).toEqual({ ok: false, issues: expect.stringMatching(/^the reply's JSON object is not valid JSON \(/) });
  });

  it('stops a call that waits for a request slot when its run is aborted, without waiting for the slot', async () => {
    let release!: () => void;
    const provider: Provider = {
      id: 'busy',
      async generate() {
        await new Promise<void>((r) => (release = r));
        return { text: '{"answer":"x","confidence":0}', model: 'busy' };
      },
    };
    const model = createModel({ provider, concurrency: 1 });
    const first = model.call({ prompt: answerPrompt, vars: { question: 'first' } });
    const controller = new AbortController();
    const second = model.call({ prompt: answerPrompt, vars: { question: 'second' }, signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(new Error('this run\'s --timeout passed'));
    const error = await second;
    expect(error).toBeInstanceOf(RunAbortedError);
    // The first call still holds the slot: the second gave up before it was freed, and the slot stays usable.
    release();
    await expect(first).resolves.toMatchObject({ output: { answer: 'x' } });
    const third = model.call({ prompt: answerPrompt, vars: { question: 'third' } });
    await new Promise((r) => setTimeout(r, 0));
    release();
    await expect(third).resolves.toMatchObject({ output: { answer: 'x' } });
  });

  it('keeps one abort listener per run however many of its calls wait for a slot, and stops them all at its abort', async () => {
    const provider: Provider = { id: 'never', generate: () => new Promise(() => undefined) };
    const model = createModel({ provider, concurrency: 1 });
    void model.call({ prompt: answerPrompt, vars: { question: 'holds the slot' } });
    const controller = new AbortController();
    let listeners = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => ((listeners += 1), add(...args))) as AbortSignal['addEventListener'];
    const waiting = Array.from({ length: 16 }, (_, i) => model.call({ prompt: answerPrompt, vars: { question: `fan-out ${i}` }, signal: controller.signal }).catch((e: unknown) => e));
    await new Promise((r) => setTimeout(r, 0));
    expect(listeners).toBe(1);
    controller.abort(new Error('stopped'));
    for (const error of await Promise.all(waiting)) expect(error).toBeInstanceOf(RunAbortedError);
  });

  it('keeps at most `concurrency` provider requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const provider: Provider = {
      id: 'slow',
      async generate() {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 10));
        inFlight--;
        return { text: '{"answer":"x","confidence":0}', model: 'slow' };
      },
    };
    const model = createModel({ provider, concurrency: 3 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => model.call({ prompt: answerPrompt, vars: { question: String(i) } })));
    expect(peak).toBe(3);
  });

  it('hands a finished task\'s slot to the first waiter: a call made at that moment queues, and never runs beside it', async () => {
    // Concurrency 1: a task holds the slot, one waits; a third call comes a few microtasks after the first ends.
    for (let depth = 0; depth < 6; depth++) {
      const limiter = new ConcurrencyLimiter(1);
      const order: string[] = [];
      let inFlight = 0;
      let peak = 0;
      const task = (name: string, until: Promise<unknown> = new Promise((r) => setTimeout(r, 5))) => async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        order.push(name);
        await until;
        inFlight--;
      };
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const first = limiter.run(task('first', gate));
      const queued = limiter.run(task('queued'));
      let later: Promise<unknown> = gate;
      for (let i = 0; i < depth; i++) later = later.then(() => undefined);
      const newcomer = later.then(() => limiter.run(task('newcomer')));
      release();
      await Promise.all([first, queued, newcomer]);
      expect({ depth, peak, order }).toEqual({ depth, peak: 1, order: ['first', 'queued', 'newcomer'] });
    }
  });
});

describe('a response cache that cannot be written', () => {
  it('keeps the paid reply: the call answers, and one warning names the cache directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-cache-unwritable-'));
    const file = join(dir, 'a-file');
    require('node:fs').writeFileSync(file, 'not a directory');
    const warnings: string[] = [];
    const emitWarning = jest.spyOn(process, 'emitWarning').mockImplementation(((message: string, type: string) => void warnings.push(`${type}: ${message}`)) as typeof process.emitWarning);
    try {
      const provider = createScriptedProvider({ replies: { writer: ['{"answer":"A","confidence":1}', '{"answer":"B","confidence":1}'] }, usage: { promptTokens: 100, completionTokens: 10 } });
      const model = createModel({ provider, cache: join(file, 'cache') });
      const first = await model.call({ prompt: answerPrompt, vars: { question: 'q1' } });
      const second = await model.call({ prompt: answerPrompt, vars: { question: 'q2' } });
      expect([first.output.answer, second.output.answer]).toEqual(['A', 'B']);
      expect(first.usage).toMatchObject({ promptTokens: 100, completionTokens: 10 });
      expect(warnings).toEqual([expect.stringMatching(new RegExp(`^MultihopCacheWarning: the response cache .*a-file/cache cannot be written \\(ENOTDIR\\)`))]);
    } finally {
      emitWarning.mockRestore();
    }
  });
});

describe('the response cache key', () => {
  it('keeps sampled candidates of one prompt apart and finds a repaired reply again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-cache-key-'));
    const provider = createScriptedProvider({
      replies: { writer: ['{"answer":"A","confidence":1}', '{"answer":"B","confidence":1}', 'oops', '{"answer":"C","confidence":1}'] },
    });
    const model = createModel({ provider, cache: dir });
    const a = await model.call({ prompt: answerPrompt, vars: { question: 'q', sample: 0 } });
    const b = await model.call({ prompt: answerPrompt, vars: { question: 'q', sample: 1 } });
    expect([a.output.answer, b.output.answer]).toEqual(['A', 'B']);
    expect((await model.call({ prompt: answerPrompt, vars: { question: 'q', sample: 1 } })).usage.cached).toBe(true);

    const repaired = await model.call({ prompt: answerPrompt, vars: { question: 'other' } });
    expect(repaired).toMatchObject({ output: { answer: 'C' }, usage: { attempts: 2 } });
    const again = await model.call({ prompt: answerPrompt, vars: { question: 'other' } });
    expect(again).toMatchObject({ output: { answer: 'C' }, usage: { cached: true, attempts: 2 } });
    expect(provider.requests).toHaveLength(4);
  });

  it('replays a repaired call as it happened: both rounds\' tokens, two attempts and the mended reply', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-cache-repair-'));
    const provider = createScriptedProvider({ replies: { writer: ['{"answer":"Paris","confidence":7}', '{"answer":"Paris","confidence":0.7}'] }, usage: { promptTokens: 100, completionTokens: 10 } });
    const fresh = await createModel({ provider, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    const replay = await createModel({ provider, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    expect(provider.requests).toHaveLength(2);
    expect(fresh.usage).toMatchObject({ promptTokens: 200, completionTokens: 20, attempts: 2, cached: false });
    const { cached, latencyMs, ...same } = replay.usage;
    expect(cached).toBe(true);
    expect(same).toEqual((({ cached: _c, latencyMs: _l, ...rest }) => rest)(fresh.usage));
    expect(replay.repaired).toEqual(fresh.repaired);
    expect(replay.output).toEqual(fresh.output);
  });

  it('caches nothing of a call that failed, so a re-run asks again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-cache-failed-'));
    const provider = createScriptedProvider({ replies: { writer: ['oops', 'still not JSON', '{"answer":"Paris","confidence":1}'] } });
    await expect(createModel({ provider, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'q' } })).rejects.toBeInstanceOf(ModelOutputError);
    const retried = await createModel({ provider, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    expect(retried).toMatchObject({ output: { answer: 'Paris' }, usage: { cached: false, attempts: 1 } });
  });

  it('does not share entries between providers with the same model name but other settings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-cache-fp-'));
    const cold = createScriptedProvider({ id: 'openai:m', replies: { writer: ['{"answer":"cold","confidence":1}'] } });
    const hot = { ...createScriptedProvider({ id: 'openai:m', replies: { writer: ['{"answer":"hot","confidence":1}'] } }), fingerprint: 'openai:m@temperature=1' };
    await createModel({ provider: cold, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    const other = await createModel({ provider: hot, cache: dir }).call({ prompt: answerPrompt, vars: { question: 'q' } });
    expect(other).toMatchObject({ output: { answer: 'hot' }, usage: { cached: false } });
  });
});
