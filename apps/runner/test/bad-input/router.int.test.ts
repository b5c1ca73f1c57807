import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ROUTER_FILE } from '@multihop/router';
import { hasStack, kind, runCli, scratch } from './harness';

/**
 * The router area of the bad-input suite: `multihop train router` and the router workflow's
 * settings, each through the real `multihop` bin. One message per case names the directory,
 * option, setting or file, and says what to do.
 */

// A budget against a hang, not a bound on speed: under CI's load a test of seven CLI commands took over 60 s.
jest.setTimeout(300_000);

const cwd = scratch('bad-input-router-');
const db = join(cwd, 'db');
const QUESTION = ['run', '--workflow', 'router', '--question', 'Who wrote Hamlet?', '--db', db];

function expectOneLine(r: { code: number | null; stderr: string }, code: number, ...parts: string[]): void {
  expect(hasStack(r.stderr)).toBe(false);
  for (const part of parts) expect(r.stderr).toContain(part);
  expect(r.code).toBe(code);
}

describe('the router', () => {
  it(kind('router/from-missing'), async () => {
    const missing = join(cwd, 'no-such-eval');
    const r = await runCli(['train', 'router', '--from', missing, '--out', join(cwd, 'r.json')], { cwd });
    expectOneLine(r, 2, `--from ${missing}: does not exist`);
    expect(existsSync(join(cwd, 'r.json'))).toBe(false);
  });

  it(kind('router/from-not-eval'), async () => {
    const dir = join(cwd, 'not-an-eval');
    mkdirSync(dir, { recursive: true });
    const r = await runCli(['train', 'router', '--from', dir, '--out', join(cwd, 'r.json')], { cwd });
    expectOneLine(r, 2, `--from ${dir}: no run.json and results.jsonl here`);
    // An eval started but with no pair finished yet.
    const started = join(cwd, 'started-eval');
    mkdirSync(started, { recursive: true });
    writeFileSync(join(started, 'run.json'), JSON.stringify({ dataset: 'hotpotqa-train', setting: 'closed', model: 'offline' }));
    writeFileSync(join(started, 'results.jsonl'), '');
    expectOneLine(await runCli(['train', 'router', '--from', started, '--out', join(cwd, 'r.json')], { cwd }), 2, `--from ${started}: results.jsonl holds no results yet`);
  });

  it(kind('router/without-from'), async () => {
    const r = await runCli(['train', 'router', '--dataset', 'hotpotqa-train', '--out', join(cwd, 'r.json')], { cwd });
    expectOneLine(r, 2, 'trainer router learns from finished evals: give --from <eval dir>');
    // Neither: the router's own message, not the --dataset other trainers need.
    const bare = await runCli(['train', 'router', '--out', join(cwd, 'r.json')], { cwd });
    expectOneLine(bare, 2, 'trainer router learns from finished evals: give --from <eval dir>');
    expect(bare.stderr).not.toContain('--dataset');
  });

  it(kind('router/from-with-run-options'), async () => {
    // The evals chose their questions, setting and model: options that would choose them are refused, before any eval is read.
    const r = await runCli(['train', 'router', '--from', cwd, '--dataset', 'musique-dev', '--limit', '3', '--out', join(cwd, 'r.json')], { cwd });
    expectOneLine(r, 2, 'train router learns from the evals given with --from, which fixed their questions, setting and model when they ran: --dataset, --limit are for a trainer that runs questions itself (to keep part of each eval\'s questions: --part K/N)');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const model = await runCli(['train', 'router', '--from', cwd, '--setting', 'closed', '--model', 'offline', '--out', join(cwd, 'r.json')], { cwd });
    expectOneLine(model, 2, ': --setting, --model are for a trainer that runs questions itself');
    expect(existsSync(join(cwd, 'r.json'))).toBe(false);
  });

  it(kind('router/lambda-not-number'), async () => {
    const r = await runCli(['train', 'router', '--from', cwd, '--out', join(cwd, 'r.json'), '--lambda', 'abc'], { cwd });
    expectOneLine(r, 2, '--lambda must be a number, got "abc"');
  });

  it(kind('router/too-few-questions'), async () => {
    const out = join(cwd, 'small-eval');
    const evaluated = await runCli(['eval', '--workflows', 'direct,cot', '--dataset', 'hotpotqa-train', '--limit', '3', '--setting', 'closed', '--db', db, '--out', out], { cwd });
    expect(evaluated.code).toBe(0);
    const r = await runCli(['train', 'router', '--from', out, '--out', join(cwd, 'r.json')], { cwd });
    expectOneLine(r, 2, `the router needs at least 20 questions every candidate ran without an outage, each answer judged; the evals given (${out}) have 3`);
    expect(existsSync(join(cwd, 'r.json'))).toBe(false);
    // A part that none of the three questions falls in.
    const none = await runCli(['train', 'router', '--from', out, '--part', '7/100', '--out', join(cwd, 'r.json')], { cwd });
    expectOneLine(none, 2, `--from ${out}: no question of this eval falls in part 7 of 100`);
  });

  it(kind('router/file-missing'), async () => {
    const file = join(cwd, 'none.json');
    const r = await runCli([...QUESTION, '--set', `router.file=${file}`], { cwd });
    expectOneLine(r, 2, `router file ${file} does not exist; train one with: multihop train router --from <eval dir>`);
  });

  it(kind('router/file-not-router'), async () => {
    const file = join(cwd, 'policy.json');
    writeFileSync(file, JSON.stringify({ format: 'mao-arag-planner-policy' }));
    const r = await runCli([...QUESTION, '--set', `router.file=${file}`], { cwd });
    expectOneLine(r, 2, `${file}: field format: expected "multihop-router", got "mao-arag-planner-policy"`);
    // The shipped file with one candidate's cost correction damaged: the field is named.
    const shipped = JSON.parse(readFileSync(DEFAULT_ROUTER_FILE, 'utf8')) as { candidates: Array<Record<string, unknown>> };
    shipped.candidates[2]!['costSmearing'] = -1;
    const damaged = join(cwd, 'damaged-router.json');
    writeFileSync(damaged, JSON.stringify(shipped));
    const d = await runCli([...QUESTION, '--set', `router.file=${damaged}`], { cwd });
    expectOneLine(d, 2, `${damaged}: field candidates[2].costSmearing: expected a number > 0, got -1`);
    // One candidate listed twice (a hand-merged file): named, not LangGraph's "node … is registered twice".
    const twice = JSON.parse(readFileSync(DEFAULT_ROUTER_FILE, 'utf8')) as { candidates: Array<Record<string, unknown>> };
    twice.candidates[3] = { ...twice.candidates[0]! };
    const repeated = join(cwd, 'repeated-router.json');
    writeFileSync(repeated, JSON.stringify(twice));
    expectOneLine(await runCli([...QUESTION, '--set', `router.file=${repeated}`], { cwd }), 2, `${repeated}: field candidates[3].workflow: "${String(twice.candidates[0]!['workflow'])}" is candidates[0]'s too; each candidate once`);
  });

  it(kind('router/pool-unknown'), async () => {
    const r = await runCli([...QUESTION, '--set', 'router.pool=cheapest'], { cwd });
    expectOneLine(r, 2, '--set router.pool=cheapest', 'expected one of ""|"all"|"front"');
    const t = await runCli(['train', 'router', '--from', cwd, '--out', join(cwd, 'r.json'), '--set', 'router.pool=cheapest'], { cwd });
    expectOneLine(t, 2, '--set router.pool=cheapest: router.pool = "cheapest" is not valid', '"auto"|"all"|"front"');
    expect(existsSync(join(cwd, 'r.json'))).toBe(false);
  });

  it(kind('router/training-setting-out-of-range'), async () => {
    const seed = await runCli(['train', 'router', '--from', cwd, '--out', join(cwd, 'r.json'), '--seed', '-3'], { cwd });
    expectOneLine(seed, 2, '--seed -3: router.seed = -3 is not valid', '>=0');
    const repeats = await runCli(['train', 'router', '--from', cwd, '--out', join(cwd, 'r.json'), '--set', 'router.repeats=0'], { cwd });
    expectOneLine(repeats, 2, '--set router.repeats=0: router.repeats = 0 is not valid', '>=1');
    expect(existsSync(join(cwd, 'r.json'))).toBe(false);
  });

  it(kind('router/candidate-missing-in-eval'), async () => {
    // Two evals of the same dataset; the second did not run cot.
    const both = join(cwd, 'eval-both');
    const one = join(cwd, 'eval-one');
    expect((await runCli(['eval', '--workflows', 'direct,cot,single-turn-rag', '--dataset', 'hotpotqa-train', '--limit', '22', '--setting', 'closed', '--db', db, '--out', both], { cwd })).code).toBe(0);
    expect((await runCli(['eval', '--workflows', 'direct,single-turn-rag', '--dataset', 'hotpotqa-train', '--offset', '22', '--limit', '3', '--setting', 'closed', '--db', db, '--out', one], { cwd })).code).toBe(0);
    const named = await runCli(['train', 'router', '--from', both, '--from', one, '--set', 'router.candidates=direct,cot', '--out', join(cwd, 'r-two-evals.json')], { cwd });
    expectOneLine(named, 2, `router.candidates: cot did not run in ${one}`);
    expect(existsSync(join(cwd, 'r-two-evals.json'))).toBe(false);
    // Not named: cot is no candidate, and the log says why; every question of both evals is kept.
    const trained = await runCli(['train', 'router', '--from', both, '--from', one, '--set', 'router.repeats=1', '--out', join(cwd, 'r-two-evals.json')], { cwd });
    expect(trained.code).toBe(0);
    expect(trained.stderr).toContain(`not a candidate: cot (did not run in ${one})`);
    const file = JSON.parse(readFileSync(join(cwd, 'r-two-evals.json'), 'utf8')) as { candidates: Array<{ workflow: string }>; training: { questions: number } };
    expect({ candidates: file.candidates.map((c) => c.workflow), questions: file.training.questions }).toEqual({ candidates: ['direct', 'single-turn-rag'], questions: 25 });
    // cot run on one of the second eval's three questions (as an eval stopped part-way): it is a
    // candidate of both, the two questions it has no run on are left out and the log says where,
    // and the router file trained above is replaced, which the log says too.
    expect((await runCli(['eval', '--workflows', 'cot', '--dataset', 'hotpotqa-train', '--offset', '22', '--limit', '1', '--setting', 'closed', '--db', db, '--out', one], { cwd })).code).toBe(0);
    const again = await runCli(['train', 'router', '--from', both, '--from', one, '--set', 'router.repeats=1', '--out', join(cwd, 'r-two-evals.json')], { cwd });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(`train router: will replace the router file ${join(cwd, 'r-two-evals.json')} (trained `);
    expect(again.stderr).toContain(`left out 2 questions some candidate has no run on (an eval stopped before it finished?): 2 of ${one}`);
    const retrained = JSON.parse(readFileSync(join(cwd, 'r-two-evals.json'), 'utf8')) as typeof file;
    expect({ candidates: retrained.candidates.map((c) => c.workflow), questions: retrained.training.questions }).toEqual({ candidates: ['direct', 'cot', 'single-turn-rag'], questions: 23 });
  });

  it(kind('router/file-bad-numbers'), async () => {
    const shipped = () => JSON.parse(readFileSync(DEFAULT_ROUTER_FILE, 'utf8')) as { scaler: { std: number[] }; candidates: Array<{ quality: { weights: Array<number | null> } }> };
    const zero = shipped();
    zero.scaler.std[3] = 0;
    const zeroFile = join(cwd, 'std-zero-router.json');
    writeFileSync(zeroFile, JSON.stringify(zero));
    expectOneLine(await runCli([...QUESTION, '--set', `router.file=${zeroFile}`], { cwd }), 2, `${zeroFile}: field scaler.std: expected 27 numbers > 0`);
    const hole = shipped();
    hole.candidates[1]!.quality.weights[0] = null;
    const holeFile = join(cwd, 'null-weight-router.json');
    writeFileSync(holeFile, JSON.stringify(hole));
    expectOneLine(await runCli([...QUESTION, '--set', `router.file=${holeFile}`], { cwd }), 2, `${holeFile}: field candidates[1].quality: expected 27 weights and a bias, all numbers`);
  });

  it(kind('router/file-no-training'), async () => {
    const { training: _, ...rest } = JSON.parse(readFileSync(DEFAULT_ROUTER_FILE, 'utf8')) as Record<string, unknown>;
    const file = join(cwd, 'untrained-router.json');
    writeFileSync(file, JSON.stringify(rest));
    expectOneLine(await runCli(['chart', 'router', '--set', `router.file=${file}`], { cwd }), 2, `${file}: field training.model: expected the model whose evals it was trained on`);
  });

  it(kind('router/l2-zero'), async () => {
    const r = await runCli(['train', 'router', '--from', cwd, '--out', join(cwd, 'r.json'), '--set', 'router.l2=0'], { cwd });
    expectOneLine(r, 2, '--set router.l2=0: router.l2 = 0 is not valid', '>0');
  });

  it(kind('router/out-not-router-file'), async () => {
    const out = join(cwd, 'out-eval');
    expect((await runCli(['eval', '--workflows', 'direct,cot', '--dataset', 'hotpotqa-train', '--limit', '2', '--setting', 'closed', '--db', db, '--out', out], { cwd })).code).toBe(0);
    const notes = join(cwd, 'NOTES.md');
    writeFileSync(notes, '# my notes\n');
    expectOneLine(await runCli(['train', 'router', '--from', out, '--out', notes], { cwd }), 2, `--out ${notes}: the file exists and is not a router file; give another --out, or remove it first`);
    expect(readFileSync(notes, 'utf8')).toBe('# my notes\n');
    const policy = join(cwd, 'planner.json');
    writeFileSync(policy, JSON.stringify({ format: 'mao-arag-planner-policy' }));
    expectOneLine(await runCli(['train', 'router', '--from', out, '--out', policy], { cwd }), 2, `--out ${policy}: the file exists and is not a router file (format "mao-arag-planner-policy")`);
    expectOneLine(await runCli(['train', 'router', '--from', out, '--out', cwd], { cwd }), 2, `--out ${cwd}: is a directory`);
    const nowhere = join(cwd, 'no-such-dir', 'router.json');
    expectOneLine(await runCli(['train', 'router', '--from', out, '--out', nowhere], { cwd }), 2, `--out ${nowhere}: the directory ${join(cwd, 'no-such-dir')} does not exist`);
  });

  it(kind('router/lambda-negative'), async () => {
    const r = await runCli([...QUESTION, '--set', 'router.lambda=-0.5'], { cwd });
    expectOneLine(r, 2, '--set router.lambda=-0.5: router.lambda = -0.5 is not valid: expected λ ≥ 0, or −1 for the λ in the router file');
  });

  it(kind('router/candidate-not-trained'), async () => {
    const r = await runCli([...QUESTION, '--set', 'router.candidates=direct,mao-arag-fixed:AG'], { cwd });
    expectOneLine(r, 2, 'router.candidates: mao-arag-fixed:AG not among the candidates', 'retrain with them');
  });

  it(kind('router/single-candidate'), async () => {
    const r = await runCli([...QUESTION, '--set', 'router.candidates=single-turn-rag'], { cwd });
    expectOneLine(r, 2, 'router.candidates names one workflow (single-turn-rag): a router among one always runs it; name two or more (comma-separated), or run single-turn-rag itself');
  });
});
