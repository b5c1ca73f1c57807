import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startOpenAICompatibleServer, type OpenAICompatibleServer, type StubReply, type StubRequest } from '@multihop/testing';
import { hasStack, kind, runCli, scratch, type CliResult } from './harness';

/**
 * The provider area of the bad-input suite: model selection, the config file and a misbehaving
 * OpenAI-compatible endpoint, each through the real `multihop` bin. The endpoint is a real HTTP
 * server on 127.0.0.1 (@multihop/testing), scripted per case.
 */

// A budget against a hang, not a bound on speed (CI's load slows these CLI runs 2–6×).
jest.setTimeout(300_000);

const QUESTION = ['run', '--workflow', 'direct', '--question', 'Who wrote Hamlet?'];
const ANSWER: StubReply = { content: '{"answer":"William Shakespeare"}' };

// One working directory for the cases that reach the corpus, so it is ingested once.
const cwd = scratch('bad-input-provider-');
let server: OpenAICompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(script: (request: StubRequest) => StubReply): Promise<OpenAICompatibleServer> {
  server = await startOpenAICompatibleServer(script);
  return server;
}

/** The CLI against `baseURL` with `--model openai:m` (or the given args), and a key set. */
function againstEndpoint(baseURL: string, args: readonly string[] = [...QUESTION, '--model', 'openai:m'], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { cwd, env: { OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'x', ...env } });
}

/** A config file in a directory of its own; the CLI finds it through MULTIHOP_CONFIG. */
function configFile(content: unknown): string {
  const file = join(scratch('bad-input-config-'), 'multihop.config.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

function withConfig(file: string, env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(QUESTION, { cwd, env: { MULTIHOP_CONFIG: file, OPENAI_API_KEY: 'x', ...env } });
}

/** A one-line `multihop: <message>` answer with exit code 2 and no stack. */
function expectOneLine(result: CliResult, message: string | RegExp): void {
  expect(hasStack(result.stderr)).toBe(false);
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^multihop: /);
  if (typeof message === 'string') expect(lines[0]).toContain(message);
  else expect(lines[0]).toMatch(message);
}

/** A run that reached the endpoint and failed there: exit 1, the error and its URL in the output, no stack. */
function expectProviderFailure(result: CliResult, url: string, message: RegExp): void {
  const all = `${result.stdout}\n${result.stderr}`;
  expect(hasStack(all)).toBe(false);
  expect(result.code).toBe(1);
  expect(all).toMatch(/\[error\]/);
  expect(all).toContain(`PROVIDER: openai:m (role direct) at ${url}`);
  expect(all).toMatch(message);
  expect(all).not.toMatch(/Cannot read properties/);
}

/** The stderr lines that announce a retry. */
const retryLines = (stderr: string) => stderr.split('\n').filter((l) => / failed, retrying in \d+ ms$/.test(l));

describe('bad input: provider and model configuration', () => {
  it(kind('provider/config-role-typo'), async () => {
    const file = configFile({ model: 'offline', roles: { 'par2-escc': 'openai:o4-mini' } });
    const result = await withConfig(file);
    expectOneLine(result, `multihop: ${file}: field roles.par2-escc: no workflow calls a role "par2-escc"; did you mean "par2-esc"? (known roles: `);
    // The list names the judge's role and the workflows' own.
    expect(result.stderr).toMatch(/known roles: .*\bjudge\b.*\bpar2-esc\b/);
    expect(result.stdout).toBe('');
  });

  it(kind('provider/config-nested-type'), async () => {
    const file = configFile({ model: 'offline', roles: { 'par2-esc': { provider: 'openai', model: 'o4-mini', timeoutMs: 'abc' } } });
    expectOneLine(await withConfig(file), `multihop: ${file}: field roles.par2-esc.timeoutMs: expected a positive integer (milliseconds), got string "abc"`);
  });

  it(kind('provider/config-unknown-provider'), async () => {
    const file = configFile({ model: { provider: 'anthropic', model: 'claude' } });
    expectOneLine(await withConfig(file), `multihop: ${file}: field model.provider: expected "offline" or "openai", got string "anthropic"`);
  });

  it(kind('provider/config-missing-model'), async () => {
    const file = configFile({ model: { provider: 'openai' } });
    expectOneLine(await withConfig(file), `multihop: ${file}: model.model: missing; provider "openai" needs the model name the endpoint serves`);
  });

  it(kind('provider/config-unknown-field'), async () => {
    const file = configFile({ modle: 'offline' });
    expectOneLine(await withConfig(file), `multihop: ${file}: field modle: unknown field; did you mean "model"? (known fields here: model, roles, concurrency, cache, settings)`);
  });

  it(kind('provider/config-invalid-json'), async () => {
    const file = configFile('{ "model": "offline",\n  "roles": { ');
    expectOneLine(await withConfig(file), new RegExp(`^multihop: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON \\(.*line 2,? column 14`));
    // A trailing comma: the line and column are named.
    const comma = configFile('{\n  "model": "offline",\n  "concurrency": 2,\n}\n');
    expectOneLine(await withConfig(comma), new RegExp(`^multihop: ${comma.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not valid JSON \\(.*line 4,? column 1`));
  });

  it(kind('provider/config-unreadable'), async () => {
    const file = join(scratch(), 'nowhere', 'multihop.config.json');
    expectOneLine(await withConfig(file), `multihop: ${file}: cannot be read (ENOENT: no such file or directory`);
  });

  it(kind('provider/missing-api-key'), async () => {
    const result = await runCli([...QUESTION, '--model', 'openai:gpt-4o-mini'], { cwd });
    expectOneLine(result, 'multihop: OPENAI_API_KEY is not set; --model selects openai:gpt-4o-mini (for a local server any non-empty value works)');
  });

  it(kind('provider/bad-model-string'), async () => {
    expectOneLine(await runCli([...QUESTION, '--model', 'openai:'], { cwd }), 'multihop: --model: "openai:" names no model; write openai:<model>, e.g. openai:gpt-4o-mini');
  });

  it(kind('provider/unknown-provider'), async () => {
    const result = await runCli(QUESTION, { cwd, env: { MULTIHOP_MODEL: 'anthropic:claude' } });
    expectOneLine(result, 'multihop: MULTIHOP_MODEL: unknown model provider "anthropic" in "anthropic:claude"; use "offline" or "openai:<model>"');
  });

  it(kind('provider/base-url-no-scheme'), async () => {
    const s = await serve(() => ANSWER);
    const bare = s.baseURL.replace(/^http:\/\//, '');
    const result = await againstEndpoint(bare);
    expectOneLine(result, `multihop: OPENAI_BASE_URL: "${bare}" is not an http(s) URL; write it with its scheme, e.g. http://${bare}`);
    // The other variables of the environment-only recipe: refused the same way, before any call.
    expectOneLine(await againstEndpoint(s.baseURL, undefined, { MULTIHOP_TIMEOUT_MS: '2s' }), "multihop: MULTIHOP_TIMEOUT_MS must be a positive integer (milliseconds: one attempt's timeout), got \"2s\"");
    expectOneLine(await againstEndpoint(s.baseURL, undefined, { MULTIHOP_MAX_RETRIES: '11' }), 'multihop: MULTIHOP_MAX_RETRIES must be an integer from 0 to 10 (retries after a failed attempt), got "11"');
    expect(s.requests).toHaveLength(0);
  });

  it(kind('provider/html-reply'), async () => {
    const page = '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    const s = await serve(() => ({ raw: page, headers: { 'content-type': 'text/html' } }));
    const url = `${s.baseURL}/chat/completions`;
    const result = await againstEndpoint(s.baseURL);
    expectProviderFailure(result, url, /failed after 1 attempt\(s\): it returned text\/html, not JSON \(title "502 Bad Gateway"\): "<!DOCTYPE html> <html><head>/);
  });

  it(kind('provider/no-choices'), async () => {
    const s = await serve(() => ({ raw: '{"object":"error","message":"model m is not loaded"}' }));
    const result = await againstEndpoint(s.baseURL);
    expectProviderFailure(result, `${s.baseURL}/chat/completions`, /returned a 200 reply with no `choices`, not a chat completion: "\{\\"object\\":\\"error\\",\\"message\\":\\"model m is not loaded\\"\}"/);
  });

  it(kind('provider/broken-json-reply'), async () => {
    const s = await serve(() => ({ raw: '{"id":"c1","choices":[{"index":0,"message":{"role":"assis' }));
    const result = await againstEndpoint(s.baseURL);
    expectProviderFailure(result, `${s.baseURL}/chat/completions`, /returned broken JSON \(.*\): "\{\\"id\\":\\"c1\\",\\"choices\\"/);
  });

  it(kind('provider/hanging-server'), async () => {
    const s = await serve(() => ({ hang: true }));
    const url = `${s.baseURL}/chat/completions`;
    const file = configFile({ model: { provider: 'openai', model: 'm', baseURL: s.baseURL, timeoutMs: 400, maxRetries: 2 } });
    const result = await withConfig(file);
    // Each retry is announced as it happens: the call, why, attempt n of m, the wait.
    const retries = retryLines(result.stderr);
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatch(new RegExp(`^multihop: openai:m \\(role direct, prompt [\\w.-]+\\) at ${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: timed out after 400 ms .*; attempt 1 of 3 failed, retrying in \\d+ ms$`));
    expect(retries[1]).toMatch(/attempt 2 of 3 failed, retrying in \d+ ms$/);
    expectProviderFailure(result, url, /failed after 3 attempt\(s\): timed out after 400 ms/);
    expect(s.requests).toHaveLength(3);
  });

  it(kind('provider/call-deadline'), async () => {
    const s = await serve(() => ({ hang: true }));
    // Default per-attempt timeout (60 s) and retries: only the deadline can end this call before
    // the test's own timeout, and it does so within the first attempt.
    const result = await againstEndpoint(s.baseURL, undefined, { MULTIHOP_CALL_DEADLINE_MS: '1500' });
    expectProviderFailure(result, `${s.baseURL}/chat/completions`, /gave up after 1 attempt\(s\): the call's deadline of 1500 ms \(all attempts and waits together; callDeadlineMs, MULTIHOP_CALL_DEADLINE_MS in the CLI\) has passed/);
    expect(s.requests).toHaveLength(1);
  });

  it(kind('provider/rate-limited-then-ok'), async () => {
    const s = await serve(({ index }) => (index === 0 ? { status: 429, content: 'Rate limit reached', headers: { 'retry-after-ms': '50' } } : ANSWER));
    const result = await againstEndpoint(s.baseURL);
    expect(hasStack(result.stderr)).toBe(false);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Answer:\s+William Shakespeare/);
    expect(retryLines(result.stderr)).toEqual([expect.stringMatching(/at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: 429 Rate limit reached; attempt 1 of 3 failed, retrying in 50 ms$/)]);
    expect(s.requests).toHaveLength(2);
  });

  it(kind('provider/server-error-retried'), async () => {
    const s = await serve(() => ({ status: 500, content: 'CUDA out of memory' }));
    const result = await againstEndpoint(s.baseURL);
    expect(retryLines(result.stderr)).toHaveLength(2);
    expectProviderFailure(result, `${s.baseURL}/chat/completions`, /failed after 3 attempt\(s\): 500 CUDA out of memory/);
    expect(s.requests).toHaveLength(3);
  });

  it(kind('provider/connection-refused'), async () => {
    const s = await serve(() => ANSWER);
    const closed = s.baseURL;
    await s.close();
    server = undefined;
    const result = await againstEndpoint(closed);
    expectProviderFailure(result, `${closed}/chat/completions`, /failed after 3 attempt\(s\): connection refused \(is the server running and listening on that port\?\)/);
  });

  it(kind('provider/unauthorized'), async () => {
    const s = await serve(() => ({ status: 401, content: 'Incorrect API key provided: x' }));
    const result = await againstEndpoint(s.baseURL);
    expectProviderFailure(result, `${s.baseURL}/chat/completions`, /failed after 1 attempt\(s\): 401 Incorrect API key provided: x \(the endpoint refused the API key: check OPENAI_API_KEY/);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/Troubleshooting URL/);
    expect(s.requests).toHaveLength(1);
  });

  it(kind('provider/eval-other-endpoint'), async () => {
    const s = await serve(() => ANSWER);
    const out = join(scratch(), 'eval');
    const args = ['eval', '--workflows', 'direct', '--dataset', 'hotpotqa-dev', '--limit', '1', '--model', 'openai:m', '--judge', 'offline', '--out', out];
    expect((await againstEndpoint(s.baseURL, args)).code).toBe(0);
    // Another server answering for a model of the same name: refused before any call, naming both endpoints.
    const elsewhere = 'http://127.0.0.1:9/v1';
    const moved = await againstEndpoint(elsewhere, args);
    expectOneLine(moved, 'this directory holds results of model "openai:m" set up otherwise: default model was {');
    const [was, now] = moved.stderr.split(', now ');
    expect(was).toContain(`"baseURL":"${s.baseURL}"`);
    expect(now).toContain(`"baseURL":"${elsewhere}"`);
    expect(s.requests).toHaveLength(1);
  });

  it(kind('provider/eval-outage'), async () => {
    // The endpoint answers the first question, then a proxy in front of it starts sending its error page.
    let healthy = false;
    const s = await serve(({ body }) =>
      healthy || JSON.stringify(body.messages).includes('Corliss Archer') ? ANSWER : { raw: '<html><title>503 Service Unavailable</title></html>', headers: { 'content-type': 'text/html' } },
    );
    const out = join(scratch(), 'eval');
    const args = ['eval', '--workflows', 'direct', '--dataset', 'hotpotqa-dev', '--limit', '2', '--concurrency', '1', '--model', 'openai:m', '--judge', 'offline', '--out', out];
    const first = await againstEndpoint(s.baseURL, args);
    expect(hasStack(first.stderr)).toBe(false);
    // It finishes (no crash, no signal) with exit 0: one pair succeeded (a banner names the failed one).
    expect(first.code).toBe(0);
    const rows = () => readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { questionId: string; status: string; errorCode?: string; error?: string; prediction: string });
    expect(existsSync(join(out, 'results.jsonl'))).toBe(true);
    const before = rows();
    expect(before).toHaveLength(2);
    const done = before.find((r) => r.status !== 'error')!;
    const failed = before.find((r) => r.status === 'error')!;
    expect(done.prediction).toBe('William Shakespeare');
    // Counted as a provider failure (retried on resume), saying what came back from where.
    expect(failed.errorCode).toBe('PROVIDER');
    expect(failed.error).toContain(`${s.baseURL}/chat/completions failed after 1 attempt(s): it returned text/html, not JSON (title "503 Service Unavailable")`);

    // Resumed once the endpoint is back: only the failed pair runs again; the finished one is kept.
    healthy = true;
    const calls = s.requests.length;
    const second = await againstEndpoint(s.baseURL, args);
    expect(hasStack(second.stderr)).toBe(false);
    expect(second.code).toBe(0);
    expect(s.requests.length - calls).toBe(1);
    const after = rows();
    expect(after[0]).toEqual(before[0]);
    const latest = new Map(after.map((r) => [r.questionId, r]));
    expect(latest.get(done.questionId)).toEqual(done);
    expect(latest.get(failed.questionId)).toMatchObject({ status: 'ok', prediction: 'William Shakespeare' });
  });

  it(kind('provider/judge-outage'), async () => {
    // The workflows run on the offline model; the judge is an endpoint that is down, then back.
    let healthy = false;
    const s = await serve(() =>
      healthy ? { content: 'Explanation: the same person.\nDecision: yes' } : { raw: '<html><title>503 Service Unavailable</title></html>', headers: { 'content-type': 'text/html' } },
    );
    const out = join(scratch(), 'eval');
    const args = ['eval', '--workflows', 'single-turn-rag', '--dataset', 'hotpotqa-dev', '--limit', '2', '--judge', 'openai:m', '--out', out];
    const judgements = () => readFileSync(join(out, 'judgements.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { questionId: string; correct: number | null; error?: string });

    // Down: no answer is judged, which is said plainly (not as unreadable replies), exit 1.
    const first = await againstEndpoint(s.baseURL, args);
    expect(hasStack(first.stderr)).toBe(false);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('eval: the judge (openai:m) gave no verdict on 2 of 2 answers (PROVIDER 2); they are left out of correctness, each error in judgements.jsonl; re-run the same command to ask the judge again about the 2 whose call failed');
    expect(first.stdout).toContain("2 answers have no verdict (the judge's call failed or its reply could not be read");
    expect(judgements().map((j) => [j.correct, j.error?.split(':')[0]])).toEqual([[null, 'PROVIDER'], [null, 'PROVIDER']]);

    // Back: the re-run runs no pair again and asks the judge about both answers.
    healthy = true;
    const calls = s.requests.length;
    const second = await againstEndpoint(s.baseURL, args);
    expect(hasStack(second.stderr)).toBe(false);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('gave no verdict');
    expect(s.requests.length - calls).toBe(2);
    expect(judgements().slice(2).map((j) => j.correct)).toEqual([1, 1]);
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).workflows['single-turn-rag']).toMatchObject({ correctness: 1, judged: 2, judge_errors: 0 });
  });
});
