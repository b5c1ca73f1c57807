import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDatasetsDir, startOpenAICompatibleServer } from '@multihop/testing';
import type { Summary } from './eval/summarize';
import { cli } from '../test/cli';

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();
process.env['LANCEDB_LOG'] ??= 'error';
const dir = mkdtempSync(join(tmpdir(), 'multihop-cli-options-'));
const db = join(dir, 'db');
// Two questions of HotpotQA train (5a7decc75542995f4f40230f, 5a77ec115542992a6e59dff7) as a Bamboogle-style CSV: no passages, so closed-book.
const csv = join(dir, 'two.csv');
writeFileSync(csv, 'Question,Answer\nWhat language were books being translated into during the era of Haymo of Faversham?,Latin\nIf Gallu is a demon Lilu is what?,a spirit\n');

describe('eval and sweep options a new user meets, through the CLI', () => {
  it('--judge openai:<model> asks that endpoint in the paper\'s plain-text form, without JSON mode, and names the judge', async () => {
    const server = await startOpenAICompatibleServer(() => ({ content: 'Explanation: the prediction names the same thing.\nDecision: Yes' }));
    const saved = { key: process.env['OPENAI_API_KEY'], url: process.env['OPENAI_BASE_URL'] };
    process.env['OPENAI_API_KEY'] = 'local';
    process.env['OPENAI_BASE_URL'] = server.baseURL;
    try {
      const out = join(dir, 'judged');
      const done = await cli('eval', '--workflows', 'direct', '--dataset', csv, '--judge', 'openai:judge-m', '--model', 'offline', '--out', out, '--db', db);
      expect(done.code).toBe(0);
      expect(server.requests).toHaveLength(2);
      for (const request of server.requests) {
        expect(request.body.model).toBe('judge-m');
        expect(request.body.response_format).toBeUndefined();
        expect(JSON.stringify(request.body.messages)).toContain('Decision: <yes|no>');
      }
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
      expect(summary.judge).toMatchObject({ model: 'openai:judge-m', label: 'openai:judge-m', offline: false, calls: 2, errors: 0 });
      expect(summary.workflows['direct']!.correctness).toBe(1);
      expect(summary.corpus).toMatchObject({ setting: 'closed-book', passages: 0 });
      expect(done.out).toContain('Judge: **openai:judge-m**');
    } finally {
      await server.close();
      process.env['OPENAI_API_KEY'] = saved.key;
      process.env['OPENAI_BASE_URL'] = saved.url;
      if (saved.key === undefined) delete process.env['OPENAI_API_KEY'];
      if (saved.url === undefined) delete process.env['OPENAI_BASE_URL'];
    }
  });

  it('--judge wins over a multihop.config.json that gives the judge role its own model, offline included', async () => {
    const server = await startOpenAICompatibleServer(() => ({ content: 'Explanation: the prediction names the same thing.\nDecision: Yes' }));
    const config = join(dir, 'judge-role.config.json');
    writeFileSync(config, JSON.stringify({ model: 'offline', roles: { judge: 'openai:file-judge' } }));
    const saved = { key: process.env['OPENAI_API_KEY'], url: process.env['OPENAI_BASE_URL'], config: process.env['MULTIHOP_CONFIG'] };
    Object.assign(process.env, { OPENAI_API_KEY: 'local', OPENAI_BASE_URL: server.baseURL, MULTIHOP_CONFIG: config });
    try {
      const flagged = await cli('eval', '--workflows', 'direct', '--dataset', csv, '--judge', 'openai:judge-m', '--out', join(dir, 'judge-flag'), '--db', db);
      expect(flagged.code).toBe(0);
      expect(server.requests.map((r) => r.body.model)).toEqual(['judge-m', 'judge-m']);
      expect(flagged.out).toContain('Judge: **openai:judge-m**');

      const offline = await cli('eval', '--workflows', 'direct', '--dataset', csv, '--judge', 'offline', '--out', join(dir, 'judge-offline'), '--db', db);
      expect(offline.code).toBe(0);
      expect(server.requests).toHaveLength(2);
      const summary = JSON.parse(readFileSync(join(dir, 'judge-offline', 'summary.json'), 'utf8')) as Summary;
      expect(summary.judge).toMatchObject({ model: 'offline', offline: true });

      // Without the flag, the file's judge role judges.
      const filed = await cli('eval', '--workflows', 'direct', '--dataset', csv, '--out', join(dir, 'judge-file'), '--db', db);
      expect(filed.code).toBe(0);
      expect(server.requests.slice(2).map((r) => r.body.model)).toEqual(['file-judge', 'file-judge']);
      // The runs never call the judge: under --judge offline the file's judge is not built, nor its key asked for, and the
      // run is the offline model's throughout; the directory judged by the file's judge resumes under another judge.
      delete process.env['OPENAI_API_KEY'];
      const keyless = await cli('eval', '--workflows', 'direct', '--dataset', csv, '--judge', 'offline', '--out', join(dir, 'judge-keyless'), '--db', db);
      expect(keyless.code).toBe(0);
      const plain = JSON.parse(readFileSync(join(dir, 'judge-keyless', 'summary.json'), 'utf8')) as Summary;
      expect({ model: plain.model, offline: plain.offline }).toEqual({ model: expect.not.stringContaining('file-judge'), offline: true });
      const rejudged = await cli('eval', '--workflows', 'direct', '--dataset', csv, '--judge', 'offline', '--out', join(dir, 'judge-file'), '--db', db);
      expect(rejudged.code).toBe(0);
      expect(rejudged.err).toContain('2 of 2 pairs already in');
    } finally {
      await server.close();
      for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url], ['MULTIHOP_CONFIG', saved.config]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('--set takes a workflow id holding : or + (MAO-ARAG\'s fixed workflows), and an API key no HTTP header can carry is refused by its variable', async () => {
    const chart = await cli('chart', 'mao-arag-fixed:R+AG', '--set', 'mao-arag-fixed:R+AG.retrievalK=3', '--format', 'json');
    expect(chart.code).toBe(0);
    expect(JSON.parse(chart.out)).toMatchObject({ id: 'mao-arag-fixed:R+AG' });
    const saved = process.env['OPENAI_API_KEY'];
    process.env['OPENAI_API_KEY'] = 'sk-proj-ab…yz';
    try {
      const run = await cli('run', '--workflow', 'direct', '--question', 'Who wrote Hamlet?', '--model', 'openai:gpt-4o-mini', '--db', db);
      expect(run.code).toBe(2);
      expect(run.err).toContain('OPENAI_API_KEY holds a character an HTTP header cannot carry ("…", U+2026, at character 11)');
    } finally {
      if (saved === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = saved;
    }
  });

  it('checks the config file\'s cache before any pair runs, naming the field, and refuses an empty --cache', async () => {
    const aFile = join(dir, 'a-file');
    writeFileSync(aFile, 'x');
    const config = join(dir, 'cache-through-a-file.config.json');
    writeFileSync(config, JSON.stringify({ model: 'offline', cache: join(aFile, 'cache') }));
    const saved = process.env['MULTIHOP_CONFIG'];
    process.env['MULTIHOP_CONFIG'] = config;
    try {
      const refused = await cli('eval', '--workflows', 'direct', '--dataset', csv, '--out', join(dir, 'never-cache'), '--db', db);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(`${config}: field cache ${join(aFile, 'cache')}: cannot read ${join(aFile, 'cache')}: a part of the path is a file, not a directory (ENOTDIR)`);
    } finally {
      if (saved === undefined) delete process.env['MULTIHOP_CONFIG'];
      else process.env['MULTIHOP_CONFIG'] = saved;
    }
    const empty = await cli('eval', '--workflows', 'direct', '--dataset', csv, '--cache', '', '--out', join(dir, 'never-empty'), '--db', db);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('--cache: give a directory (an empty path would fill the working directory)');
  });

  it('says what is wrong with --offset, --set, --corpus in the closed setting, and sweep\'s --param', async () => {
    const fail = async (...argv: string[]) => {
      const r = await cli(...argv, '--db', db, ...(argv[0] === 'run' ? [] : ['--out', join(dir, 'never')]));
      expect(r.code).toBe(2);
      return r.err;
    };
    expect(await fail('eval', '--workflows', 'direct', '--dataset', csv, '--offset', '5')).toContain('--offset 5 skips every question: two has 2');
    expect(await fail('eval', '--workflows', 'direct', '--dataset', csv, '--offset=-1')).toContain('--offset must be a non-negative integer, got -1');
    // par2-rag names the workflow (strict) as well as the method; a method-wide setting no workflow has is refused too.
    expect(await fail('eval', '--workflows', 'par2-rag', '--dataset', csv, '--set', 'par2-rag.hopbudget=7')).toContain(
      '--set par2-rag.hopbudget=7: par2-rag has no setting "hopbudget" (did you mean "hopBudget"?); its settings: subQueries, retrieveK, rerankK, hopBudget',
    );
    expect(await fail('eval', '--workflows', 'par2-coverage-anchor', '--dataset', csv, '--set', 'par2-rag.hopBudget=7')).toContain(
      'no workflow of par2-rag that this command runs has a setting "hopBudget"',
    );
    expect(await fail('eval', '--workflows', 'par2-rag', '--dataset', csv, '--set', 'hopBudget=7')).toContain('expected <workflow or method>.<setting>=<value>');
    expect(await fail('eval', '--workflows', 'direct', '--dataset', csv, '--set', 'opera.maxRewrites=3')).toContain('opera is not among the workflows this command runs (direct)');
    expect(await fail('run', '--workflow', 'direct', '--dataset', 'hotpotqa-dev', '--id', 'x', '--setting', 'closed', '--corpus', csv)).toContain(
      '--corpus gives every question one shared corpus (the open setting)',
    );
    expect(await fail('sweep', '--workflow', 'par2-rag', '--dataset', csv)).toContain('sweep needs --param <setting>=<v1>,<v2>,...');
    expect(await fail('sweep', '--workflow', 'par2-rag', '--dataset', csv, '--param', 'hopBudget')).toContain('--param hopBudget: expected <setting>=<v1>,<v2>,...');
    expect(await fail('sweep', '--workflow', 'par2-rag', '--dataset', csv, '--param', 'hopBudget=3,3')).toContain('--param hopBudget=3,3: a value appears twice');
    expect(await fail('sweep', '--workflow', 'par2-rag', '--dataset', csv, '--param', 'hopBudget=3', '--param', 'hopBudget=5')).toContain('--param hopBudget is given twice');
    expect(await fail('sweep', '--workflow', 'par2-rag', '--dataset', csv, '--param', 'hops=3,5')).toContain('par2-rag has no setting "hops"');
    expect(await fail('train', 'mao-arag-planner', '--dataset', csv, '--set', 'mao-arag.alpha=0.2')).toContain('train mao-arag-planner takes --set mao-arag-planner.<setting>=<value>');
  });
});
