import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDatasetsDir, startOpenAICompatibleServer, type OpenAICompatibleServer, type StubReply, type StubRequest } from '@multihop/testing';
import { rowTokens, type ResultRow, type RunConfig } from './eval/ResultsLog';
import type { Summary } from './eval/summarize';
import { cli } from '../test/cli';

// Run budgets from the command line, the provider's fingerprint in run.json, and a failed pair's
// completed calls kept for its re-run: the real CLI in process, with the offline model or a
// scripted OpenAI-compatible server on 127.0.0.1.

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
process.env['LANCEDB_LOG'] ??= 'error';
jest.setTimeout(120_000);

const dir = mkdtempSync(join(tmpdir(), 'multihop-eval-budget-'));
const db = join(dir, 'db');
// The first question of the HotpotQA dev sample ("What government position was held by the woman who portrayed Corliss Archer ...").
const base = ['--dataset', 'hotpotqa-dev', '--limit', '1', '--setting', 'closed', '--db', db];

const read = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const rowsOf = (out: string): ResultRow[] => readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ResultRow);

/** Runs `body` with these environment variables set (and puts the old values back). */
async function withEnv<T>(vars: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await body();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('eval --max-llm-calls, --max-tokens, --timeout', () => {
  it('stops each run at the budget: its pairs are partial with budget:maxLlmCalls, and the summary names the budget', async () => {
    const out = join(dir, 'budget');
    const done = await cli('eval', '--workflows', 'par2-rag,ircot', ...base, '--max-llm-calls', '1', '--out', out);
    expect(done.code).toBe(0);
    const rows = rowsOf(out);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'partial', stopReason: 'budget:maxLlmCalls' });
      expect(row.usage.llmCalls).toBe(1);
    }
    const summary = read<Summary>(join(out, 'summary.json'));
    expect(summary.budget).toEqual({ maxLlmCalls: 1 });
    expect(summary.workflows['par2-rag']).toMatchObject({ status: { ok: 0, partial: 1, error: 0 }, stop_reasons: { 'budget:maxLlmCalls': 1 } });
    expect(done.out).toContain('Budget of each run: --max-llm-calls 1');
    expect(read<RunConfig>(join(out, 'run.json')).budget).toEqual({ maxLlmCalls: 1 });
    // The same directory without the budget would mix budgeted runs with others: refused, naming both.
    const other = await cli('eval', '--workflows', 'par2-rag,ircot', ...base, '--out', out);
    expect(other.code).toBe(2);
    expect(other.err).toContain('this directory holds runs made with budget "--max-llm-calls 1", not "none"');
  });

  it('refuses a budget that is not a positive integer or number of seconds, naming the option', async () => {
    const refused = async (...flags: string[]) => {
      const r = await cli('eval', '--workflows', 'direct', ...base, '--out', join(dir, 'never'), ...flags);
      expect(r.code).toBe(2);
      return r.err.trim();
    };
    expect(await refused('--max-llm-calls', '0')).toBe('multihop: --max-llm-calls must be a positive integer, got 0');
    expect(await refused('--max-tokens', 'lots')).toBe('multihop: --max-tokens must be an integer, got "lots"');
    expect(await refused('--timeout', '-5')).toBe('multihop: --timeout must be a positive number of seconds, got "-5"');
    const run = await cli('run', '--workflow', 'direct', '--question', 'Who wrote Hamlet?', '--timeout', '30s');
    expect(run.code).toBe(2);
    expect(run.err.trim()).toBe('multihop: --timeout must be a positive number of seconds, got "30s"');
  });
});

describe('an eval against an OpenAI-compatible endpoint', () => {
  it("records the provider's fingerprint (endpoint, not the key) and refuses a re-run against another endpoint", async () => {
    server = await startOpenAICompatibleServer(() => ({ content: '{"answer":"Chief of Protocol"}' }));
    const out = join(dir, 'fingerprint');
    const args = ['eval', '--workflows', 'direct', ...base, '--model', 'openai:m', '--judge', 'offline', '--out', out];
    const first = await withEnv({ OPENAI_API_KEY: 'secret-key-1', OPENAI_BASE_URL: server.baseURL }, () => cli(...args));
    expect(first.code).toBe(0);
    const config = read<RunConfig>(join(out, 'run.json'));
    expect(config.model).toBe('openai:m');
    expect(config.fingerprints!.default).toContain(`"baseURL":"${server.baseURL}"`);
    expect(readFileSync(join(out, 'run.json'), 'utf8')).not.toContain('secret-key-1');
    // The same endpoint again: nothing to run.
    const again = await withEnv({ OPENAI_API_KEY: 'another-key', OPENAI_BASE_URL: server.baseURL }, () => cli(...args));
    expect(again.code).toBe(0);
    expect(again.err).toContain('1 of 1 pairs already in');
    // Another endpoint serving a model of the same name: refused before any call, naming both.
    const elsewhere = 'http://127.0.0.1:9/v1';
    const moved = await withEnv({ OPENAI_API_KEY: 'secret-key-1', OPENAI_BASE_URL: elsewhere }, () => cli(...args));
    expect(moved.code).toBe(2);
    expect(moved.err).toContain('this directory holds results of model "openai:m" set up otherwise: default model was');
    const [was, now] = moved.err.split(', now ');
    expect(was).toContain(`"baseURL":"${server.baseURL}"`);
    expect(now).toContain(`"baseURL":"${elsewhere}"`);
    expect(server.requests).toHaveLength(1);
  });

  it('judges afresh when the judge of the same name is set up otherwise (another endpoint), and reuses the verdicts when it is not', async () => {
    server = await startOpenAICompatibleServer(() => ({ content: 'Explanation: the gold is in the answer\nDecision: yes' }));
    const other = await startOpenAICompatibleServer(() => ({ content: 'Explanation: the gold is not in the answer\nDecision: no' }));
    try {
      const out = join(dir, 'judge-fingerprint');
      const args = ['eval', '--workflows', 'direct', ...base, '--judge', 'openai:judge', '--out', out];
      const at = (url: string) => withEnv({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: url }, () => cli(...args));
      expect((await at(server.baseURL)).code).toBe(0);
      expect((await at(other.baseURL)).code).toBe(0);
      expect((await at(other.baseURL)).code).toBe(0);
      expect([server.requests.length, other.requests.length]).toEqual([1, 1]);
      const keys = readFileSync(join(out, 'judgements.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { judge: string }).judge);
      expect(keys).toHaveLength(2);
      expect(new Set(keys).size).toBe(2);
      for (const key of keys) expect(key).toMatch(/^openai:judge@[0-9a-f]{8}$/);
      // The summary counts the verdicts of the judge it ran with: the second endpoint's "no".
      const summary = read<Summary>(join(out, 'summary.json'));
      expect(summary.judge).toMatchObject({ model: 'openai:judge', key: keys[1] });
      expect(summary.workflows['direct']).toMatchObject({ correctness: 0 });
      // An eval written before judges were told apart by set-up kept its verdicts under the bare
      // model id: they are the judge's own, as its runs are, and nothing is judged again.
      const legacy = join(dir, 'judge-legacy');
      const legacyArgs = ['eval', '--workflows', 'direct', ...base, '--judge', 'openai:judge', '--out', legacy];
      expect((await withEnv({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL }, () => cli(...legacyArgs))).code).toBe(0);
      const file = join(legacy, 'judgements.jsonl');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/"judge":"openai:judge@[0-9a-f]{8}"/g, '"judge":"openai:judge"'));
      const before = server.requests.length;
      expect((await withEnv({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL }, () => cli(...legacyArgs))).code).toBe(0);
      expect(server.requests.length).toBe(before);
      expect(read<Summary>(join(legacy, 'summary.json')).workflows['direct']).toMatchObject({ correctness: 1 });
    } finally {
      await other.close();
    }
  });

  it("leaves the judge's set-up out of the runs' identity: a judge role set up otherwise in the config judges afresh, and the runs are kept", async () => {
    server = await startOpenAICompatibleServer(() => ({ content: 'Explanation: the gold is in the answer\nDecision: yes' }));
    const out = join(dir, 'judge-role');
    const config = join(dir, 'judge-role.config.json');
    const at = (temperature: number) => {
      writeFileSync(config, JSON.stringify({ roles: { judge: { provider: 'openai', model: 'judge', baseURL: server!.baseURL, temperature } } }));
      return withEnv({ OPENAI_API_KEY: 'k', MULTIHOP_CONFIG: config }, () => cli('eval', '--workflows', 'direct', ...base, '--out', out));
    };
    expect((await at(0)).code).toBe(0);
    const second = await at(0.5);
    expect(second.code).toBe(0);
    expect(second.err).toContain('1 of 1 pairs already in');
    expect(server.requests.map((r) => (r.body as { temperature?: number }).temperature)).toEqual([0, 0.5]);
  });

  it("keeps a pair's completed calls when it fails at the provider: the re-run gets them back, and the summary counts the failed run's tokens", async () => {
    const firstStep = '{"thought":"Corliss Archer was played by Shirley Temple in Kiss and Tell.","answer":null}';
    let failing = true;
    const script = ({ index }: StubRequest): StubReply =>
      failing
        ? index === 0
          ? { content: firstStep }
          : { status: 503, content: 'the server is overloaded' }
        : { content: '{"thought":"Shirley Temple served as Chief of Protocol.","reasoning":"She was Chief of Protocol.","answer":"Chief of Protocol"}' };
    server = await startOpenAICompatibleServer(script);
    const out = join(dir, 'resume');
    const args = ['eval', '--workflows', 'ircot', ...base, '--model', 'openai:m', '--judge', 'offline', '--out', out];
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL };

    // Few retries, soon: the outage outlasts them.
    const failed = await withEnv({ ...env, MULTIHOP_MAX_RETRIES: '0' }, () => cli(...args));
    expect(failed.code).toBe(1);
    const [row] = rowsOf(out);
    expect(row).toMatchObject({ status: 'error', errorCode: 'PROVIDER', errorStatus: 503 });
    expect(server.requests).toHaveLength(2);
    const summary = read<Summary>(join(out, 'summary.json'));
    expect(summary.failed).toMatchObject({ runs: 1, retryable: 1, tokens: rowTokens(row!) });
    expect(summary.failed.tokens).toBeGreaterThan(0);
    expect(failed.out).toContain(`1 is left out of every figure here (n counts the runs scored) and spent ${rowTokens(row!)} tokens (prompt + completion), counted in no figure above; 1 of them may pass on a re-run`);

    // The endpoint is back: the re-run asks only for the call that failed; the completed one comes from the pair's journal.
    failing = false;
    const firstRequest = JSON.stringify(server.requests[0]!.body.messages);
    const resumed = await withEnv(env, () => cli(...args));
    expect(resumed.code).toBe(0);
    const retried = server.requests.slice(2);
    expect(retried).toHaveLength(1);
    expect(JSON.stringify(retried[0]!.body.messages)).not.toBe(firstRequest);
    const rows = rowsOf(out);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ status: 'ok', prediction: 'Chief of Protocol' });
    expect(rows[1]!.usage.llmCalls).toBe(2);
    const trace = read<{ trace: Array<{ kind: string; data: Record<string, unknown> }> }>(join(out, rows[1]!.trace));
    expect(trace.trace.filter((e) => e.kind === 'llm').map((e) => e.data['replayed'] === true)).toEqual([true, false]);
    expect(read<Summary>(join(out, 'summary.json')).failed).toMatchObject({ runs: 0, tokens: 0 });
  });

  it('does not send again a request the server rejected (400: a prompt over the context length), and says so', async () => {
    server = await startOpenAICompatibleServer(() => ({ status: 400, raw: JSON.stringify({ object: 'error', message: "This model's maximum context length is 4096 tokens.", code: 400 }) }));
    const out = join(dir, 'rejected');
    const args = ['eval', '--workflows', 'direct', ...base, '--model', 'openai:m', '--judge', 'offline', '--out', out];
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL };
    const first = await withEnv(env, () => cli(...args));
    expect(first.code).toBe(1);
    expect(first.err).toContain('none of them is retryable: see their error in results.jsonl');
    expect(rowsOf(out)).toEqual([expect.objectContaining({ status: 'error', errorCode: 'PROVIDER', errorStatus: 400 })]);
    expect(read<Summary>(join(out, 'summary.json')).failed).toMatchObject({ runs: 1, retryable: 0 });
    const sent = server.requests.length;
    const again = await withEnv(env, () => cli(...args));
    expect(again.err).toContain('1 of 1 pairs already in');
    expect(server.requests).toHaveLength(sent);
  });

  it('leaves out of the figures a run the server refused for a setting the configuration sends (a 400 naming temperature), says which, and runs it again once mended', async () => {
    let refuse = true;
    server = await startOpenAICompatibleServer(() =>
      refuse
        ? { status: 400, raw: JSON.stringify({ error: { message: "Unsupported value: 'temperature' does not support 0 with this model.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }) }
        : { content: '{"answer":"Chief of Protocol"}' },
    );
    const out = join(dir, 'setting-refused');
    const args = ['eval', '--workflows', 'direct', ...base, '--model', 'openai:m', '--judge', 'offline', '--out', out];
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL };
    const first = await withEnv(env, () => cli(...args));
    expect(first.code).toBe(1);
    expect(rowsOf(out)).toEqual([expect.objectContaining({ status: 'error', errorCode: 'PROVIDER', errorStatus: 400, errorSetting: 'temperature' })]);
    const summary = read<Summary>(join(out, 'summary.json'));
    expect(summary.failed).toMatchObject({ runs: 1, retryable: 1, setting_refused: { runs: 1, setting: 'temperature', error: expect.stringContaining("Unsupported value: 'temperature'") } });
    expect(summary.failed.scored_as_wrong).toBeUndefined();
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toContain('refused by the server for a setting the model configuration sends (`temperature`)');
    expect(first.err).toContain('the server refused 1 for a setting the model configuration sends (`temperature`): mend it in multihop.config.json (or the server) before the re-run');
    // The server mended: the same command runs the pair again, and it counts.
    refuse = false;
    const again = await withEnv(env, () => cli(...args));
    expect(again.code).toBe(0);
    expect(read<Summary>(join(out, 'summary.json')).failed.runs).toBe(0);
  });
});

describe('a per-role model for a role the eval\'s workflows never call', () => {
  it('is not part of the eval\'s model: it neither labels it, nor refuses its resume when added; a role they call still does', async () => {
    const config = join(dir, 'roles.config.json');
    const out = join(dir, 'roles');
    const env = { MULTIHOP_CONFIG: config, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    writeFileSync(config, JSON.stringify({ model: 'offline' }));
    expect((await withEnv(env, () => cli('eval', '--workflows', 'direct', ...base, '--out', out))).code).toBe(0);
    // The config gains a model for PAR²-RAG's planner, which `direct` never calls: the directory resumes, all offline.
    writeFileSync(config, JSON.stringify({ model: 'offline', roles: { 'par2-planner': 'openai:m' } }));
    const again = await withEnv(env, () => cli('eval', '--workflows', 'direct', ...base, '--out', out));
    expect(again.code).toBe(0);
    const summary = read<Summary>(join(out, 'summary.json'));
    expect({ model: summary.model, offline: summary.offline, partly: summary.offline_partly }).toEqual({ model: expect.not.stringContaining('par2-planner'), offline: true, partly: undefined });
    expect(read<RunConfig>(join(out, 'run.json')).model).toBe('offline');
    // And what `direct` was when it ran here (its chart and prompt versions), so a changed method is not resumed.
    expect(read<RunConfig>(join(out, 'run.json')).definitions).toEqual({ direct: expect.stringMatching(/^[0-9a-f]{16}$/) });
    // A directory whose `direct` ran as another definition (the method changed since) is refused through the CLI, naming it.
    const changedMethod = join(dir, 'roles-changed-method');
    writeFileSync(config, JSON.stringify({ model: 'offline' }));
    expect((await withEnv(env, () => cli('eval', '--workflows', 'direct', ...base, '--out', changedMethod))).code).toBe(0);
    const runJson = read<RunConfig>(join(changedMethod, 'run.json'));
    writeFileSync(join(changedMethod, 'run.json'), JSON.stringify({ ...runJson, definitions: { direct: '0000000000000000' } }));
    const stale = await withEnv(env, () => cli('eval', '--workflows', 'direct', ...base, '--out', changedMethod));
    expect(stale.code).toBe(2);
    expect(stale.err).toContain('direct ran here as its method was then (definition 0000000000000000), and its chart or prompts have changed since');
    writeFileSync(config, JSON.stringify({ model: 'offline', roles: { 'par2-planner': 'openai:m' } }));
    // A model for a role `direct` calls is a change of the eval's model, named by role.
    writeFileSync(config, JSON.stringify({ model: 'offline', roles: { direct: 'openai:m' } }));
    const changed = await withEnv(env, () => cli('eval', '--workflows', 'direct', ...base, '--out', out));
    expect(changed.code).not.toBe(0);
    expect(changed.err).toContain('(role direct was offline, now openai:m)');
  });
});

describe('an eval whose roles the offline model serves in part', () => {
  it('is marked partly offline in summary.json and the report, though its default model is a language model', async () => {
    // The default is an endpoint that is never called: every role `direct` calls is the offline model's.
    const config = join(dir, 'mixed.config.json');
    writeFileSync(config, JSON.stringify({ model: 'openai:m', roles: { direct: 'offline' } }));
    const out = join(dir, 'mixed');
    const env = { MULTIHOP_CONFIG: config, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
    const evaluated = await withEnv(env, () => cli('eval', '--workflows', 'direct', ...base, '--judge', 'offline', '--out', out));
    expect(evaluated.code).toBe(0);
    const summary = read<Summary>(join(out, 'summary.json'));
    expect({ offline: summary.offline, partly: summary.offline_partly }).toEqual({ offline: false, partly: true });
    expect(summary.model).toContain('served: direct');
    const report = await withEnv(env, () => cli('report', out));
    expect(report.code).toBe(0);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('questions, partly offline model)</title>');
    // The offline model alone (the budget test's eval): offline, and not "partly".
    const alone = read<Summary>(join(dir, 'budget', 'summary.json'));
    expect({ offline: alone.offline, partly: alone.offline_partly }).toEqual({ offline: true, partly: undefined });
  });
});
