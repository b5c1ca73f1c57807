import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedDatasetsDir, startOpenAICompatibleServer, type StubReply } from '@multihop/testing';
import { cli } from '../test/cli';
import type { PredictionRow } from './commands/predict';

// A test split made from real HotpotQA train questions (shared/datasets/hotpotqa/train-100.json):
// their gold taken away, as a test file comes, searched over the train sample's corpus file.
const train = JSON.parse(readFileSync(join(sharedDatasetsDir(), 'hotpotqa', 'train-100.json'), 'utf8')) as Array<{ _id: string; question: string; answer: string; type: string; context: Array<[string, string[]]> }>;
const sample = train.slice(0, 4);
const corpusFile = join(sharedDatasetsDir(), 'hotpotqa', 'train-100.corpus.json');
const dir = mkdtempSync(join(tmpdir(), 'multihop-predict-'));
const db = join(dir, 'db');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const questionList = file('test-questions.jsonl', jsonl(sample.map((r) => ({ id: r._id, question: r.question }))));
const rowsOf = (out: string) => readFileSync(join(out, 'predictions.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as PredictionRow);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('multihop predict: a question set without gold, answered and scored on nothing', () => {
  const out = join(dir, 'predicted');
  const args = ['predict', '--workflows', 'single-turn-rag,par2-rag', '--dataset', questionList, '--corpus', corpusFile, '--db', db, '--out', out];

  it('answers every question with every workflow, and writes the answers per workflow, the traces and a summary of what the runs cost', async () => {
    const { code, out: stdout, err } = await cli(...args);
    expect(code).toBe(0);
    expect(err).toContain(`predict: single-turn-rag, par2-rag on 4 test-questions questions (no gold answers: nothing is scored)`);
    const rows = rowsOf(out);
    expect(rows.map((r) => `${r.workflow} ${r.questionId}`).sort()).toEqual(sample.flatMap((q) => [`par2-rag ${q._id}`, `single-turn-rag ${q._id}`]).sort());
    for (const row of rows) {
      expect(row.status).not.toBe('error');
      expect(row).not.toHaveProperty('metrics');
      expect(row).not.toHaveProperty('gold');
      expect(row.evidenceIds.length).toBeGreaterThan(0);
      expect(existsSync(join(out, row.trace))).toBe(true);
    }
    for (const workflow of ['single-turn-rag', 'par2-rag']) {
      const answers = JSON.parse(readFileSync(join(out, 'answers', `${workflow}.json`), 'utf8')) as Record<string, string>;
      expect(Object.keys(answers).sort()).toEqual(sample.map((q) => q._id).sort());
      expect(answers).toEqual(Object.fromEntries(rows.filter((r) => r.workflow === workflow).map((r) => [r.questionId, r.prediction])));
    }
    // The figures are the offline model's and say so; no quality column, since there is no gold.
    expect(stdout).toContain("These are the offline model's answers and figures, not a language model's.");
    expect(stdout).toMatch(/^\| par2-rag \| 4 \| \d\/\d\/0 \| [^|]+ \| [\d.]+ \| \d+\* \| \d+ \|$/m);
    expect(stdout).not.toMatch(/\bEM\b|\bF1\b|Correct/);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { questions: number; with_gold: number; pairs: number; incomplete: boolean; workflows: Array<{ workflow: string; n: number; status: Record<string, number>; stopped_early: Record<string, number> }> };
    expect(summary).toMatchObject({ questions: 4, with_gold: 0, pairs: 8, incomplete: false });
    // How each run ended, with the reasons the partial ones stopped: the same names as eval's summary.json.
    for (const w of summary.workflows) {
      const mine = rows.filter((r) => r.workflow === w.workflow);
      expect(w.status).toEqual({ ok: mine.filter((r) => r.status === 'ok').length, partial: mine.filter((r) => r.status === 'partial').length, error: 0 });
      expect(Object.values(w.stopped_early).reduce((a, b) => a + b, 0)).toBe(mine.filter((r) => r.stopReason).length);
    }
  }, 300_000);

  it('resumes: the same command runs nothing again; other settings into the same directory are refused', async () => {
    const before = readFileSync(join(out, 'predictions.jsonl'), 'utf8');
    const again = await cli(...args);
    expect(again.code).toBe(0);
    expect(again.err).toContain('8 of 8 pairs already in');
    expect(readFileSync(join(out, 'predictions.jsonl'), 'utf8')).toBe(before);
    const other = await cli(...args, '--set', 'par2-rag.hopBudget=2');
    expect(other.code).toBe(2);
    expect(other.err).toContain(`${out} holds predictions of par2-rag with settings`);
    // Another question file of the same name is another dataset: its corpus table is another.
    const sameName = join(dir, 'elsewhere', 'test-questions.jsonl');
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(sameName, jsonl(train.slice(10, 12).map((r) => ({ id: r._id, question: r.question }))));
    const renamed = await cli('predict', '--workflows', 'single-turn-rag,par2-rag', '--dataset', sameName, '--corpus', corpusFile, '--db', db, '--out', out);
    expect(renamed.code).toBe(2);
    expect(renamed.err).toMatch(/holds predictions made with corpus "test-questions-[0-9a-f]{8}\.train-100\.corpus-[0-9a-f]{8}-open", not "test-questions-[0-9a-f]{8}\.train-100\.corpus-[0-9a-f]{8}-open"/);
    expect(readFileSync(join(out, 'predictions.jsonl'), 'utf8')).toBe(before);
  }, 300_000);

  it('refuses a second predict on the directory while the first runs, a --cache it cannot write, and names an eval directory as one', async () => {
    // The lock names a live process: this test's parent.
    writeFileSync(join(out, 'predict.lock'), `${process.ppid}\n`);
    const locked = await cli(...args);
    expect(locked.code).toBe(2);
    expect(locked.err).toContain(`${out} is being written by another predict (process ${process.ppid}); wait for it or stop it, then re-run to resume`);
    rmSync(join(out, 'predict.lock'));
    const notDir = file('not-a-dir', 'x');
    const cache = await cli(...args, '--cache', notDir);
    expect(cache.code).toBe(2);
    expect(cache.err).toContain(`--cache ${notDir} is a file, not a directory`);
    // Each command names the other's directory as what it is.
    const evalDir = join(dir, 'an-eval');
    expect((await cli('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-train', '--limit', '1', '--db', db, '--out', evalDir)).code).toBe(0);
    expect(await cli('predict', '--workflows', 'direct', '--dataset', 'hotpotqa-train', '--limit', '1', '--db', db, '--out', evalDir)).toMatchObject({ code: 2, err: expect.stringContaining(`${evalDir} holds an eval (multihop eval or sweep), not predictions`) });
    expect(await cli('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-train', '--limit', '1', '--db', db, '--out', out)).toMatchObject({ code: 2, err: expect.stringContaining(`${out} holds predictions (multihop predict), not an eval`) });
    // Without --out, a budget or a setting changed gets a directory of its own, as eval's does.
    const { defaultRunDir } = require('./eval/evaluate') as typeof import('./eval/evaluate');
    const plain = { dataset: 'hotpotqa-train', setting: 'open', modelId: 'offline', workflows: [{ id: 'direct', overrides: {} }] };
    expect(new Set([defaultRunDir('predict', plain), defaultRunDir('predict', { ...plain, budget: { maxLlmCalls: 1 } }), defaultRunDir('predict', { ...plain, workflows: [{ id: 'direct', overrides: { k: 2 } }] })]).size).toBe(3);
  }, 300_000);

  it('report refuses the directory as a predict one, and says where its answers are', async () => {
    const report = await cli('report', out);
    expect(report.code).toBe(2);
    expect(report.err).toContain(`${join(out, 'summary.json')}: a multihop predict directory (answers without gold: nothing scored, so no eval to draw); its answers are in predictions.jsonl`);
    expect(existsSync(join(out, 'report.html'))).toBe(false);
  });

  it('eval refuses the same file, naming predict; run --id answers one of its questions with no gold shown', async () => {
    const refused = await cli('eval', '--workflows', 'single-turn-rag', '--dataset', questionList, '--corpus', corpusFile, '--db', db, '--out', join(dir, 'eval'));
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('`multihop predict --workflows ... --dataset FILE --corpus CORPUS` answers every question without scoring');
    const one = await cli('run', '--workflow', 'single-turn-rag', '--dataset', questionList, '--id', sample[1]!._id, '--corpus', corpusFile, '--db', db);
    expect(one.code).toBe(0);
    expect(one.out).toContain(`Question: ${sample[1]!.question}`);
    expect(one.out).not.toMatch(/^Gold/m);
    const json = await cli('run', '--workflow', 'single-turn-rag', '--dataset', questionList, '--id', sample[1]!._id, '--corpus', corpusFile, '--db', db, '--json');
    expect(JSON.parse(json.out)).not.toHaveProperty('metrics');
  }, 300_000);

  it('a 2Wiki-style test file (each question with its paragraphs, no answer): in the closed setting each question searches its own', async () => {
    const testFile = file('test.json', JSON.stringify(sample.map(({ _id, question, type, context }) => ({ _id, question, type, context }))));
    // Its paragraphs can be ingested ahead, as any dataset's (ingest reads no answers).
    const ingested = await cli('ingest', '--dataset', testFile, '--setting', 'closed', '--db', db);
    expect(ingested.code).toBe(0);
    expect(ingested.out).toMatch(/^corpus test-[0-9a-f]{8}-closed: added \d+ passage rows/);
    const closed = join(dir, 'closed');
    const { code, err } = await cli('predict', '--workflows', 'single-turn-rag', '--dataset', testFile, '--setting', 'closed', '--db', db, '--out', closed);
    expect([code, err.includes('nothing is scored')]).toEqual([0, true]);
    const rows = rowsOf(closed);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const titles = new Set(sample.find((q) => q._id === row.questionId)!.context.map(([title]) => title));
      const trace = JSON.parse(readFileSync(join(closed, row.trace), 'utf8')) as { evidence: Array<{ title: string }> };
      expect(trace.evidence.length).toBeGreaterThan(0);
      for (const passage of trace.evidence) expect(titles.has(passage.title)).toBe(true);
    }
  }, 300_000);

  it('against an endpoint that is down, says the directory is incomplete and what to re-run; the re-run answers them, and another endpoint or budget is refused', async () => {
    let down = true;
    const server = await startOpenAICompatibleServer((): StubReply => (down ? { status: 503, content: 'the server is overloaded' } : { content: '{"answer":"an answer"}' }));
    const saved = { key: process.env['OPENAI_API_KEY'], url: process.env['OPENAI_BASE_URL'], retries: process.env['MULTIHOP_MAX_RETRIES'] };
    Object.assign(process.env, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL, MULTIHOP_MAX_RETRIES: '0' });
    try {
      const outage = join(dir, 'outage');
      const args = ['predict', '--workflows', 'direct', '--dataset', questionList, '--corpus', corpusFile, '--db', db, '--model', 'openai:m', '--out', outage];
      const failed = await cli(...args);
      expect(failed.code).toBe(1);
      expect(failed.err).toContain('predict: 4 pairs failed for a reason a re-run may mend (PROVIDER 4), so their answers are missing from answers/: re-run the same command to run them again; the first: PROVIDER:');
      expect(JSON.parse(readFileSync(join(outage, 'summary.json'), 'utf8'))).toMatchObject({ incomplete: true, retryable: 4 });
      expect(JSON.parse(readFileSync(join(outage, 'answers', 'direct.json'), 'utf8'))).toEqual({});
      // The endpoint is back: the re-run runs the four again, and their new lines are the ones read.
      down = false;
      const back = await cli(...args);
      expect(back.code).toBe(0);
      expect(back.err).not.toContain('re-run the same command');
      expect(rowsOf(outage)).toHaveLength(8);
      expect(JSON.parse(readFileSync(join(outage, 'answers', 'direct.json'), 'utf8'))).toEqual(Object.fromEntries(sample.map((q) => [q._id, 'an answer'])));
      expect(JSON.parse(readFileSync(join(outage, 'summary.json'), 'utf8'))).toMatchObject({ incomplete: false, retryable: 0 });
      // The same model id elsewhere, or under a budget, is other predictions.
      process.env['OPENAI_BASE_URL'] = 'http://127.0.0.1:9/v1';
      expect((await cli(...args)).err).toContain(`${outage} holds predictions of model "openai:m" set up otherwise`);
      process.env['OPENAI_BASE_URL'] = server.baseURL;
      expect((await cli(...args, '--max-llm-calls', '1')).err).toContain(`${outage} holds predictions made under the budget "none", not "--max-llm-calls 1"`);
    } finally {
      for (const [name, value] of [['OPENAI_API_KEY', saved.key], ['OPENAI_BASE_URL', saved.url], ['MULTIHOP_MAX_RETRIES', saved.retries]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await server.close();
    }
  }, 300_000);

  it('a question list given no corpus runs closed-book, and says so where the figures are', async () => {
    const out = join(dir, 'no-corpus');
    const { code, out: stdout, err } = await cli('predict', '--workflows', 'direct', '--dataset', questionList, '--db', db, '--out', out);
    expect(code).toBe(0);
    expect(err).toContain('closed-book (nothing to search: give --corpus FILE)');
    expect(stdout).toContain('# Predictions: test-questions (closed-book: the questions searched nothing)');
    expect(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))).toMatchObject({ searched: 'closed-book' });
  }, 300_000);

  it('a file where some questions have gold says so, and still scores nothing', async () => {
    const mixed = file('mixed.jsonl', jsonl(sample.map((r, i) => (i === 0 ? { id: r._id, question: r.question, answer: r.answer } : { id: r._id, question: r.question }))));
    const { code, err } = await cli('predict', '--workflows', 'direct', '--dataset', mixed, '--corpus', corpusFile, '--db', db, '--out', join(dir, 'mixed'));
    expect(code).toBe(0);
    expect(err).toContain('on 4 mixed questions (1 with gold answers, not scored here: multihop eval scores them)');
  }, 300_000);
});
