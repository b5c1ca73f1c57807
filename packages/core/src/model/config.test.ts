import { z } from 'zod';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors';
import { editDistance } from '../suggest';
import { closest, createModelFromEnv, loadModelConfig, parseModelSpec, type OpenAIProviderSettings } from './config';
import type { Provider } from './port';

const offline = (): Provider => ({ id: 'offline', generate: async () => ({ text: '{}', model: 'offline' }) });
// What the config resolved for each OpenAI-compatible provider it asked for; the provider itself
// lives in @multihop/provider-openai and has its own tests against a local server.
const built: OpenAIProviderSettings[] = [];
const openai = (settings: OpenAIProviderSettings): Provider => {
  built.push(settings);
  return { id: `openai:${settings.model}`, generate: async () => ({ text: '{}', model: settings.model }) };
};
beforeEach(() => built.splice(0));

function configFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'multihop-config-')), 'multihop.config.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('model selection', () => {
  it('is offline when nothing is configured', () => {
    const resolved = createModelFromEnv({ env: {}, offline, configPath: undefined });
    expect(resolved.describe.default).toBe('offline');
    expect(resolved.offline).toBe(true);
  });

  it('reads MULTIHOP_MODEL, OPENAI_BASE_URL and OPENAI_API_KEY', () => {
    const resolved = createModelFromEnv({
      env: { MULTIHOP_MODEL: 'openai:gpt-4o-mini', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      offline,
      openai,
    });
    expect(resolved.describe.default).toBe('openai:gpt-4o-mini');
    expect(resolved.offline).toBe(false);
    expect(built).toEqual([expect.objectContaining({ model: 'gpt-4o-mini', apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1' })]);
  });

  it('says which package to pass when openai is selected without a provider factory', () => {
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k' }, offline })).toThrow(/@multihop\/provider-openai/);
  });

  it('names the missing key variable', () => {
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:gpt-4o-mini' }, offline, openai })).toThrow(
      /OPENAI_API_KEY is not set; MULTIHOP_MODEL selects openai:gpt-4o-mini/,
    );
  });

  it('names the key variable when the key holds a character an HTTP header cannot carry (a key pasted cut short)', () => {
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:gpt-4o-mini', OPENAI_API_KEY: 'sk-proj-ab…yz' }, offline, openai })).toThrow(
      'OPENAI_API_KEY holds a character an HTTP header cannot carry ("…", U+2026, at character 11): was the key pasted cut short ("sk-…")? MULTIHOP_MODEL selects openai:gpt-4o-mini',
    );
    // Whitespace around the key is not its own (fetch trims it); printable ASCII is any key's.
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: ' sk-AbC_9-x~ \n' }, offline, openai })).not.toThrow();
  });

  it('names the variable holding an unknown provider', () => {
    expect(() => parseModelSpec('anthropic:claude', 'MULTIHOP_MODEL')).toThrow(ConfigError);
    expect(() => parseModelSpec('anthropic:claude', 'MULTIHOP_MODEL')).toThrow(/MULTIHOP_MODEL: unknown model provider "anthropic"/);
    expect(() => parseModelSpec('openai:', '--model')).toThrow(/--model: "openai:" names no model/);
    expect(() => parseModelSpec('gpt-4o-mini', 'MULTIHOP_MODEL')).toThrow('MULTIHOP_MODEL: "gpt-4o-mini" names no provider; write openai:gpt-4o-mini (any OpenAI-compatible endpoint) or offline');
    expect(() => parseModelSpec('ofline', '--model')).toThrow('--model: unknown model provider "ofline" in "ofline" (did you mean "offline"?)');
    expect(() => parseModelSpec('opeani:gpt-4o', '--model')).toThrow('--model: unknown model provider "opeani" in "opeani:gpt-4o" (did you mean "openai"?); use "offline" or "openai:<model>"');
  });

  it('gives roles their own models from the config file, and the flag wins over the environment', () => {
    const path = configFile({ model: 'offline', roles: { esc: 'openai:gpt-5-mini', judge: { provider: 'openai', model: 'gpt-4o' } } });
    const resolved = createModelFromEnv({ env: { OPENAI_API_KEY: 'k', MULTIHOP_MODEL: 'openai:other' }, model: 'offline', configPath: path, offline, openai });
    expect(resolved.describe).toEqual({ default: 'offline', roles: { esc: 'openai:gpt-5-mini', judge: 'openai:gpt-4o' } });
    expect(resolved.port.modelFor('esc')).toBe('openai:gpt-5-mini');
    expect(resolved.port.modelFor('writer')).toBe('offline');
    expect(resolved.offline).toBe(false);
  });

  it('rejects a bad config file naming the file and the field', () => {
    const path = configFile({ roles: { esc: { provider: 'openai', model: 'x', temperature: 9 } } });
    expect(() => loadModelConfig(path)).toThrow(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: field roles.esc.temperature`));
    const broken = configFile('{ "model": ');
    expect(() => loadModelConfig(broken)).toThrow(/multihop.config.json: not valid JSON \(Unexpected end of JSON input\)/);
  });

  it('reads a config file saved with a byte-order mark and Windows line ends, as Notepad saves it', () => {
    const path = configFile('\uFEFF{\r\n  "model": "offline",\r\n  "roles": { "esc": "openai:gpt-5-mini" }\r\n}\r\n');
    expect(loadModelConfig(path)).toMatchObject({ model: 'offline', roles: { esc: 'openai:gpt-5-mini' } });
  });

  it('gives a nested field\'s full path, what it expects and what it got, from the union branch the value fits', () => {
    const expectError = (content: unknown, message: RegExp) => {
      const path = configFile(content);
      let error: unknown;
      try {
        loadModelConfig(path);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message.startsWith(`${path}: `)).toBe(true);
      expect((error as Error).message).toMatch(message);
    };
    expectError({ roles: { 'par2-esc': { provider: 'openai', model: 'x', timeoutMs: 'abc' } } }, /field roles\.par2-esc\.timeoutMs: expected a positive integer \(milliseconds\), got string "abc"$/);
    expectError({ model: { provider: 'openai', model: 'x', timeoutMs: 1.5 } }, /field model\.timeoutMs: expected a positive integer \(milliseconds\), got number 1\.5$/);
    expectError({ model: { provider: 'anthropic', model: 'x' } }, /field model\.provider: expected "offline" or "openai", got string "anthropic"$/);
    expectError({ model: 5 }, /field model: expected "offline", "openai:<model>" or an object .*, got number 5$/);
    expectError({ roles: { judge: { provider: 'openai', model: 'x', temprature: 0 } } }, /field roles\.judge\.temprature: unknown field; did you mean "temperature"\? \(known fields here: provider, model, /);
    expectError({ modle: 'offline' }, /field modle: unknown field; did you mean "model"\?/);
    expectError({ model: { provider: 'openai', model: 'x', baseURL: 'localhost:8000' } }, /field model\.baseURL: expected an http\(s\) URL/);
    expectError({ settings: { 'par2-rag': { hopBudget: null } } }, /field settings\.par2-rag\.hopBudget: expected a number, a string or true\/false, got null$/);
    expectError({ concurrency: 0, cache: 3 }, /field concurrency: expected a positive integer, got number 0 \(and 1 more problem\)$/);
    // An empty cache path would put the cache's shard folders in the working directory.
    expectError({ cache: '' }, /field cache: expected a directory path \(a non-empty string\), got string ""$/);
    expectError([], /field \(top level\): expected a JSON object with the fields model, roles, .*, got an array$/);
  });

  it('checks role names against the roles the workflows call, suggesting the nearest', () => {
    const known = ['par2-esc', 'par2-planner', 'judge', 'direct'];
    const typo = configFile({ roles: { 'par2-escc': 'openai:o4-mini' } });
    expect(() => createModelFromEnv({ env: { OPENAI_API_KEY: 'k' }, configPath: typo, offline, openai, knownRoles: known })).toThrow(
      `${typo}: field roles.par2-escc: no workflow calls a role "par2-escc"; did you mean "par2-esc"? (known roles: direct, judge, par2-esc, par2-planner)`,
    );
    const short = configFile({ roles: { esc: 'openai:o4-mini' } });
    expect(() => createModelFromEnv({ env: { OPENAI_API_KEY: 'k' }, configPath: short, offline, openai, knownRoles: () => known })).toThrow(/did you mean "par2-esc"\?/);
    const far = configFile({ roles: { summariser: 'offline' } });
    expect(() => createModelFromEnv({ env: {}, configPath: far, offline, knownRoles: known })).toThrow(/no workflow calls a role "summariser" \(known roles: /);
    const good = configFile({ roles: { 'par2-esc': 'openai:o4-mini', judge: 'offline' } });
    expect(createModelFromEnv({ env: { OPENAI_API_KEY: 'k' }, configPath: good, offline, openai, knownRoles: known }).describe.roles).toEqual({ 'par2-esc': 'openai:o4-mini', judge: 'offline' });
    expect(editDistance('par2-escc', 'par2-esc')).toBe(1);
    expect(closest('jduge', known)).toBe('judge');
    expect(closest('xyz', known)).toBeUndefined();
  });

  it('bounds a call\'s whole time from the spec\'s callDeadlineMs, else MULTIHOP_CALL_DEADLINE_MS, and checks the variable', () => {
    createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k', MULTIHOP_CALL_DEADLINE_MS: '5000' }, offline, openai });
    const path = configFile({ model: { provider: 'openai', model: 'm', callDeadlineMs: 900 } });
    createModelFromEnv({ env: { OPENAI_API_KEY: 'k', MULTIHOP_CALL_DEADLINE_MS: '5000' }, configPath: path, offline, openai });
    expect(built.map((b) => b.callDeadlineMs)).toEqual([5000, 900]);
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k', MULTIHOP_CALL_DEADLINE_MS: '3s' }, offline, openai })).toThrow(
      /MULTIHOP_CALL_DEADLINE_MS must be a positive integer .*got "3s"/,
    );
  });

  it('keeps the config file\'s settings for its own model when MULTIHOP_MODEL or --model names that model, and only then', () => {
    const path = configFile({ model: { provider: 'openai', model: 'm', baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 2000, maxRetries: 1, temperature: 0, maxTokens: 512 } });
    createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k' }, configPath: path, offline, openai });
    createModelFromEnv({ env: { OPENAI_API_KEY: 'k' }, model: 'openai:m', configPath: path, offline, openai });
    createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:other', OPENAI_API_KEY: 'k' }, configPath: path, offline, openai });
    const settings = (b: OpenAIProviderSettings) => [b.model, b.baseURL, b.timeoutMs, b.maxRetries, b.temperature, b.maxTokens];
    expect(built.map(settings)).toEqual([
      ['m', 'http://127.0.0.1:9/v1', 2000, 1, 0, 512],
      ['m', 'http://127.0.0.1:9/v1', 2000, 1, 0, 512],
      ['other', undefined, undefined, undefined, undefined, undefined],
    ]);
  });

  it('gives a role written as a string the file\'s settings when it names the file\'s model, and a caller\'s role model wins over the file\'s role', () => {
    const path = configFile({
      model: { provider: 'openai', model: 'm', baseURL: 'http://127.0.0.1:9/v1', temperature: 0 },
      roles: { judge: 'openai:m', esc: 'openai:big' },
    });
    const resolved = createModelFromEnv({ env: { OPENAI_API_KEY: 'k' }, configPath: path, offline, openai });
    expect(resolved.fingerprints.roles['judge']).toBe(resolved.fingerprints.default);
    const settings = (b: OpenAIProviderSettings) => [b.model, b.baseURL, b.temperature];
    expect(built.map(settings)).toEqual([['m', 'http://127.0.0.1:9/v1', 0], ['big', undefined, undefined]]);

    // A command line's --judge: over the file's judge role, offline or another model, with the file's settings when it names the file's model.
    const judged = createModelFromEnv({ env: { OPENAI_API_KEY: 'k' }, configPath: path, offline, openai, roleModels: { judge: { model: 'offline', source: '--judge' } } });
    expect(judged.port.modelFor('judge')).toBe('offline');
    expect(judged.port.modelFor('esc')).toBe('openai:big');
    const other = createModelFromEnv({ env: { OPENAI_API_KEY: 'k' }, configPath: path, offline, openai, roleModels: { judge: { model: 'openai:gpt-4o', source: '--judge' } } });
    expect(other.describe.roles['judge']).toBe('openai:gpt-4o');
    expect(() => createModelFromEnv({ env: {}, configPath: configFile({ model: 'offline' }), offline, openai, roleModels: { judge: { model: 'openai:gpt-4o', source: '--judge' } } })).toThrow(
      'OPENAI_API_KEY is not set; --judge selects openai:gpt-4o',
    );
  });

  it('takes one attempt\'s timeout and the retries from MULTIHOP_TIMEOUT_MS and MULTIHOP_MAX_RETRIES where the config gives none, and checks them', () => {
    createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k', MULTIHOP_TIMEOUT_MS: '2500', MULTIHOP_MAX_RETRIES: '0' }, offline, openai });
    const path = configFile({ model: { provider: 'openai', model: 'm', timeoutMs: 900 } });
    createModelFromEnv({ env: { OPENAI_API_KEY: 'k', MULTIHOP_TIMEOUT_MS: '2500' }, configPath: path, offline, openai });
    expect(built.map((b) => [b.timeoutMs, b.maxRetries])).toEqual([[2500, 0], [900, undefined]]);
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k', MULTIHOP_TIMEOUT_MS: '2s' }, offline, openai })).toThrow(/MULTIHOP_TIMEOUT_MS must be a positive integer .*got "2s"/);
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k', MULTIHOP_MAX_RETRIES: '11' }, offline, openai })).toThrow('MULTIHOP_MAX_RETRIES must be an integer from 0 to 10 (retries after a failed attempt), got "11"');
  });

  it('bounds requests in flight by the smaller of a caller\'s and the config file\'s concurrency', async () => {
    const path = configFile({ concurrency: 1 });
    let inFlight = 0;
    let most = 0;
    const slow = (): Provider => ({
      id: 'offline',
      generate: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight -= 1;
        return { text: '{}', model: 'offline' };
      },
    });
    const { port } = createModelFromEnv({ env: {}, configPath: path, offline: slow, concurrency: 4 });
    const prompt = { id: 't', role: 'r', version: '1', schema: z.object({}), render: () => [{ role: 'user' as const, content: 'x' }] };
    await Promise.all([1, 2, 3].map((i) => port.call({ prompt, vars: { i } })));
    expect(most).toBe(1);
  });

  it('refuses an OPENAI_BASE_URL that is not http(s), naming the variable', () => {
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: '127.0.0.1:8000/v1' }, offline, openai })).toThrow(
      'OPENAI_BASE_URL: "127.0.0.1:8000/v1" is not an http(s) URL; write it with its scheme, e.g. http://127.0.0.1:8000/v1',
    );
    createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:m', OPENAI_API_KEY: 'k', OPENAI_BASE_URL: '' }, offline, openai });
    expect(built.at(-1)?.baseURL).toBeUndefined();
  });
});
