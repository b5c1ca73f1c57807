import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyUsage, InputError } from '@multihop/core';
import { ResultsLog, type ResultRow } from './ResultsLog';

const config = { dataset: 'hotpotqa-dev', setting: 'closed', model: 'offline' };
const metrics = { em: 0, f1: 0, acc: 0, recall_at_5: 1, full_recall_at_5: 0.5, ndcg_at_5: 0.6, all_pass: 0 };
const row = (questionId: string, extra: Partial<ResultRow> = {}): ResultRow => ({
  workflow: 'ircot', questionId, question: 'q', prediction: 'p', gold: ['g'], status: 'ok', metrics, usage: emptyUsage(), evidenceIds: [], latencyMs: 1, trace: 't', ...extra,
});

describe('ResultsLog', () => {
  it('runs a pair again after a passing failure and keeps its newest line; a method failure stays a result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-log-'));
    const log = ResultsLog.open(dir, config);
    log.append(row('a', { status: 'error', errorCode: 'PROVIDER', error: 'PROVIDER: 503' }));
    log.append(row('b', { status: 'error', errorCode: 'MODEL_OUTPUT', error: 'MODEL_OUTPUT: broke its schema' }));
    const reopened = ResultsLog.open(dir, config);
    expect(reopened.has('ircot', 'a')).toBe(false);
    expect(reopened.has('ircot', 'b')).toBe(true);
    reopened.append(row('a'));
    const last = ResultsLog.open(dir, config);
    expect(last.rows.map((r) => `${r.questionId}:${r.status}`).sort()).toEqual(['a:ok', 'b:error']);
    expect(readFileSync(join(dir, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('names the file, line and field of a broken line, and refuses another model’s directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-log-'));
    ResultsLog.open(dir, config).append(row('a'));
    appendFileSync(join(dir, 'results.jsonl'), '{"workflow":"ircot","questionId":"b","status":"ok"}\n');
    expect(() => ResultsLog.open(dir, config)).toThrow(InputError);
    expect(() => ResultsLog.open(dir, config)).toThrow(/results\.jsonl:2: field metrics is missing/);
    expect(() => ResultsLog.open(dir, { ...config, model: 'openai:x' })).toThrow(/holds results for model "offline", not "openai:x"/);
    writeFileSync(join(dir, 'run.json'), '{ broken');
    expect(() => ResultsLog.open(dir, config)).toThrow(/run\.json: not valid JSON/);
  });

  it('refuses to resume a workflow whose method changed since its runs here (its chart or prompt versions), and records a new one\'s', () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-log-'));
    ResultsLog.open(dir, { ...config, definitions: { ircot: 'aaaa' } }).append(row('a'));
    expect(ResultsLog.open(dir, { ...config, definitions: { ircot: 'aaaa', react: 'cccc' } }).has('ircot', 'a')).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')).definitions).toEqual({ ircot: 'aaaa', react: 'cccc' });
    expect(() => ResultsLog.open(dir, { ...config, definitions: { ircot: 'bbbb' } })).toThrow(/ircot ran here as its method was then \(definition aaaa\), and its chart or prompts have changed since \(now bbbb\)/);
  });

  it('compares the model of the roles the eval calls: a per-role model for another role neither refuses a resume nor hides a change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'multihop-log-'));
    const roles = new Set(['ircot', 'reranker']);
    // A directory written before ids were cut to the roles called: it names a role no workflow here calls.
    ResultsLog.open(dir, { ...config, model: 'offline;hera-answerer=openai:a', fingerprints: { default: 'offline', roles: { 'hera-answerer': 'openai:a@u' } } }, roles).append(row('a'));
    expect(ResultsLog.open(dir, { ...config, fingerprints: { default: 'offline', roles: {} } }, roles).has('ircot', 'a')).toBe(true);
    // Given no roles (a workflow outside the catalogue), every role counts, as before.
    expect(() => ResultsLog.open(dir, config)).toThrow(/holds results for model "offline;hera-answerer=openai:a", not "offline" \(role hera-answerer was openai:a, now offline\)/);
    // A role the workflows call: its model, or its endpoint, changed is refused, naming the role.
    expect(() => ResultsLog.open(dir, { ...config, model: 'offline;ircot=openai:b' }, roles)).toThrow(/\(role ircot was offline, now openai:b\); use another --out/);
    expect(() => ResultsLog.open(dir, { ...config, fingerprints: { default: 'offline', roles: { reranker: 'openai:b@u' } } }, roles)).toThrow(/set up otherwise: role reranker was offline, now openai:b@u/);
    // And so is another default model, whatever the roles.
    expect(() => ResultsLog.open(dir, { ...config, model: 'openai:c' }, roles)).toThrow(/default model was offline, now openai:c/);
  });
});

it('lets one eval at a time write a directory, and takes over the lock of a killed one', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'multihop-log-lock-'));
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
  try {
    writeFileSync(join(dir, 'eval.lock'), `${other.pid}\n`);
    expect(() => ResultsLog.open(dir, config)).toThrow(new RegExp(`being written by another eval \\(process ${other.pid}\\)`));
  } finally {
    other.kill('SIGKILL');
  }
  const gone = spawnSync(process.execPath, ['-e', 'process.pid']).pid;
  writeFileSync(join(dir, 'eval.lock'), `${gone}\n`);
  const log = ResultsLog.open(dir, config);
  expect(readFileSync(join(dir, 'eval.lock'), 'utf8').trim()).toBe(String(process.pid));
  log.close();
  expect(existsSync(join(dir, 'eval.lock'))).toBe(false);
});
