import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors';
import { createModelFromEnv, loadModelConfig, parseModelSpec } from './config';
import type { Provider } from './port';

const offline = (): Provider => ({ id: 'offline', generate: async () => ({ text: '{}', model: 'offline' }) });

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
    });
    expect(resolved.describe.default).toBe('openai:gpt-4o-mini');
    expect(resolved.offline).toBe(false);
  });

  it('names the missing key variable', () => {
    expect(() => createModelFromEnv({ env: { MULTIHOP_MODEL: 'openai:gpt-4o-mini' }, offline })).toThrow(
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
    const resolved = createModelFromEnv({ env: { OPENAI_API_KEY: 'k', MULTIHOP_MODEL: 'openai:other' }, model: 'offline', configPath: path, offline });
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
