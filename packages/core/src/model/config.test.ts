import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors';
import { createModelFromEnv, loadModelConfig, parseModelSpec, type OpenAIProviderSettings } from './config';
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

  it('names the variable holding an unknown provider', () => {
    expect(() => parseModelSpec('anthropic:claude', 'MULTIHOP_MODEL')).toThrow(ConfigError);
    expect(() => parseModelSpec('anthropic:claude', 'MULTIHOP_MODEL')).toThrow(/MULTIHOP_MODEL: unknown model provider "anthropic"/);
    expect(() => parseModelSpec('openai:', '--model')).toThrow(/--model: "openai:" names no model/);
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
    expect(() => loadModelConfig(broken)).toThrow(/cannot read model config/);
  });
});
