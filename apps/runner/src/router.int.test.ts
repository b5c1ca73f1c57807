import { copyFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '@multihop/core';
import { HashingEmbedder } from '@multihop/retriever';
import { sharedDatasetsDir, startOpenAICompatibleServer } from '@multihop/testing';
import { cli } from '../test/cli';
import { legacyJudgeKey } from './eval/judging';
import { rowTokens, type ResultRow } from './eval/ResultsLog';
import type { Summary } from './eval/summarize';

// A budget against a hang, not a bound on speed: tests here have taken 60 s under CI's load (12–19 s idle).
jest.setTimeout(300_000);

// The router's whole loop through the CLI, on real HotpotQA and MuSiQue train questions with the
// offline model and LanceDB on disk: evals of the candidates, `train router --from` those evals,
// then an eval of the router beside its candidates with the oracle row.
const db = mkdtempSync(join(tmpdir(), 'multihop-router-db-'));
const work = mkdtempSync(join(tmpdir(), 'multihop-router-'));
const candidates = 'direct,single-turn-rag,ircot';
const rowsOf = (dir: string) => readFileSync(join(dir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ResultRow);

process.env['MULTIHOP_DATASETS_DIR'] ??= sharedDatasetsDir();

describe('the router from evals to a routed eval', () => {
  const hotpot = join(work, 'hotpot-train');
  const musique = join(work, 'musique-train');
  const file = join(work, 'router.json');

  it('trains from two finished evals and records its data, model, λ and seed', async () => {
    for (const [dataset, out] of [['hotpotqa-train', hotpot], ['musique-train', musique]] as const) {
      const evaluated = await cli('eval', '--workflows', candidates, '--dataset', dataset, '--limit', '30', '--setting', 'closed', '--db', db, '--out', out);
      expect(evaluated.code).toBe(0);
    }
    const trained = await cli('train', 'router', '--from', hotpot, '--from', musique, '--out', file, '--seed', '3');
    expect(trained.err).toContain('60 questions × 3 candidates');
    expect(trained.code).toBe(0);
    expect(trained.out).toContain(`wrote ${file}`);
    const router = JSON.parse(readFileSync(file, 'utf8'));
    expect(router.candidates.map((c: { workflow: string }) => c.workflow)).toEqual(['direct', 'single-turn-rag', 'ircot']);
    expect(router.training).toMatchObject({ model: 'offline', target: 'correctness', questions: 60, seed: 3, folds: 5 });
    expect(router.training.data.map((d: { dataset: string; questions: number }) => [d.dataset, d.questions])).toEqual([['hotpotqa-train', 30], ['musique-train', 30]]);
    expect(router.training.data[0].questionIds).toHaveLength(30);
    expect(router.training.lambda.chosenBy).toBe('cross-validation');
    expect(router.training.lambda.grid.length).toBeGreaterThan(10);
    // Each candidate's training record is what its eval rows say.
    const hotpotRows = rowsOf(hotpot).concat(rowsOf(musique));
    for (const c of router.candidates) {
      const mine = hotpotRows.filter((r) => r.workflow === c.workflow);
      const tokens = mine.reduce((s, r) => s + rowTokens(r), 0) / mine.length;
      expect(c.training.tokens).toBeCloseTo(tokens, 6);
    }
    // Same evals, same seed: the same predictors and λ.
    const again = join(work, 'router-again.json');
    expect((await cli('train', 'router', '--from', hotpot, '--from', musique, '--out', again, '--seed', '3')).code).toBe(0);
    const second = JSON.parse(readFileSync(again, 'utf8'));
    expect({ candidates: second.candidates, lambda: second.lambda }).toEqual({ candidates: router.candidates, lambda: router.lambda });

    // λ and L2 are chosen dataset by dataset: no row of the study stays within more datasets' best single workflows' tokens, or, as many, has a larger summed margin over them.
    type Row = { lambda: number; l2: number; datasets: Array<{ dataset: string; met: boolean; quality: number; tokens: number; bestQuality: number; bestTokens: number }> };
    const grid = router.training.lambda.grid as Row[];
    const within = (r: Row) => r.datasets.filter((d) => d.tokens <= d.bestTokens).length;
    const margin = (r: Row) => r.datasets.reduce((s, d) => s + d.quality - d.bestQuality, 0);
    const chosen = grid.find((r) => r.lambda === router.lambda && r.l2 === router.training.l2)!;
    expect(chosen.datasets.map((d) => d.dataset)).toEqual(['hotpotqa-train', 'musique-train']);
    for (const r of grid) expect(within(r) < within(chosen) || (within(r) === within(chosen) && margin(r) <= margin(chosen) + 1e-9)).toBe(true);
    for (const d of chosen.datasets) expect(d.met).toBe(d.quality >= d.bestQuality - 1e-12 && d.tokens <= d.bestTokens);
  });

  it('--part K/N splits the questions by id, the same way in eval and in train', async () => {
    const parts = ['1/2', '2/2'].map((part) => join(work, `part-${part.replace('/', 'of')}`));
    const ids: string[][] = [];
    for (const [i, out] of parts.entries()) {
      const evaluated = await cli('eval', '--workflows', 'direct,cot', '--dataset', 'hotpotqa-train', '--limit', '40', '--part', `${i + 1}/2`, '--setting', 'closed', '--db', db, '--out', out);
      expect(evaluated.code).toBe(0);
      expect(evaluated.err).toContain(`(part ${i + 1} of 2 by id)`);
      const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
      expect(summary.part).toEqual({ part: i + 1, of: 2 });
      ids.push([...new Set(rowsOf(out).map((r) => r.questionId))]);
    }
    // The two parts are disjoint and together are the 40 questions.
    expect(ids[0]!.filter((id) => ids[1]!.includes(id))).toEqual([]);
    expect(ids[0]!.length + ids[1]!.length).toBe(40);
    expect(ids[0]!.length).toBeGreaterThan(8);
    // train --part picks the same questions out of an eval of all of them.
    const trained = await cli('train', 'router', '--from', hotpot, '--from', musique, '--part', '1/2', '--out', join(work, 'router-part.json'));
    expect(trained.err).toContain('(part 1 of 2 by id)');
    expect(trained.code).toBe(0);
    const record = JSON.parse(readFileSync(join(work, 'router-part.json'), 'utf8')).training.data[0];
    expect(record.part).toEqual({ part: 1, of: 2 });
    const first30 = new Set(rowsOf(hotpot).map((r) => r.questionId));
    expect(record.questionIds.sort()).toEqual(ids[0]!.filter((id) => first30.has(id)).sort());
    const refused = await cli('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-train', '--part', '3/2', '--db', db, '--out', join(work, 'x'));
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--part must be K/N');
    // A part that none of the selected questions falls in (the file's first question is in part 1 of 2).
    const empty = await cli('eval', '--workflows', 'direct', '--dataset', 'hotpotqa-train', '--limit', '1', '--part', '2/2', '--setting', 'closed', '--db', db, '--out', join(work, 'x'));
    expect(empty.code).toBe(2);
    expect(empty.err).toContain('--part 2/2: no question of hotpotqa-train from #1 falls in that part');
  });

  it('routes each question to one candidate, whose run it is, and the eval adds the oracle row', async () => {
    const out = join(work, 'routed');
    // Questions after the training ones: the router never saw them.
    const evaluated = await cli('eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--offset', '30', '--limit', '12', '--setting', 'closed', '--db', db, '--out', out, '--set', `router.file=${file}`);
    expect(evaluated.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary;
    expect(Object.keys(summary.workflows)).toEqual(['router', 'direct', 'single-turn-rag', 'ircot']);
    expect(summary.oracle).toMatchObject({ router: 'router', candidates: ['direct', 'single-turn-rag', 'ircot'], missing: [], n: 12 });
    // The oracle is at least as good as every candidate, and as the router.
    for (const w of Object.values(summary.workflows)) expect(summary.oracle!.correctness!).toBeGreaterThanOrEqual(w.correctness!);
    expect(summary.comparisons.filter((c) => c.metric === 'tokens').map((c) => c.b)).toEqual(['direct', 'single-turn-rag', 'ircot']);
    expect(evaluated.out).toContain("## Oracle: the best of router's candidates per question, in hindsight");
    // Its curve across λ, replayed from the candidates' runs: at the λ it ran with, the replay is
    // what it did (deterministic offline model), and the steepest λ ends on the cheapest candidate.
    const curve = summary.router_curve!;
    expect(curve).toMatchObject({ router: 'router', measure: 'correctness', n: 12 });
    const own = curve.points.filter((p) => p.routed_with);
    expect(own).toHaveLength(1);
    expect({ quality: own[0]!.quality, tokens: own[0]!.tokens }).toEqual({ quality: summary.workflows['router']!.correctness, tokens: summary.workflows['router']!.tokens });
    expect(curve.own).toEqual({ n: 12, quality: summary.workflows['router']!.correctness, tokens: summary.workflows['router']!.tokens, same_run: 12 });
    expect(evaluated.out).toContain('the replay at ★ chose the run it made on all 12.');
    expect(curve.points.map((p) => p.lambda)).toEqual([...curve.points.map((p) => p.lambda)].sort((a, b) => a - b));
    expect(Object.keys(curve.points.at(-1)!.choices)).toEqual(['direct']);
    expect(curve.best_single.quality).toBe(Math.max(...candidates.split(',').map((id) => summary.workflows[id]!.correctness!)));
    expect(evaluated.out).toContain("## router across λ, replayed from the candidates' runs");

    const rows = rowsOf(out);
    for (const row of rows.filter((r) => r.workflow === 'router')) {
      const trace = JSON.parse(readFileSync(join(out, row.trace), 'utf8')) as RunResult;
      const route = trace.trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'route')!;
      const choice = route.data['choice'] as string;
      const predictions = route.data['predictions'] as Array<{ workflow: string; quality: number; tokens: number; value: number }>;
      // The choice is the prediction with the highest quality − λ·tokens/1000.
      // Over the pool it routes among: every candidate, or the front of their training means.
      expect(predictions.map((p) => p.workflow).sort()).toEqual([...(curve.routes_among ?? candidates.split(','))].sort());
      expect(predictions[0]!.workflow).toBe(choice);
      for (const p of predictions) expect(p.quality >= 0 && p.quality <= 1).toBe(true);
      // The router's answer, evidence and tokens are its candidate's on the same question (deterministic offline model).
      const same = rows.find((r) => r.workflow === choice && r.questionId === row.questionId)!;
      expect({ answer: row.prediction, evidence: row.evidenceIds, tokens: rowTokens(row) }).toEqual({
        answer: same.prediction,
        evidence: same.evidenceIds,
        tokens: rowTokens(same),
      });
      expect(trace.trace.some((e) => e.kind === 'enter' && e.node === choice.replace(/:/g, '.'))).toBe(true);
    }
  });

  it('refuses to resume an eval whose router file was rewritten (retrained) in place since its runs, which are the old file\'s', async () => {
    const changing = join(work, 'router-changing.json');
    copyFileSync(file, changing);
    const out = join(work, 'routed-then-changed');
    const args = ['eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--offset', '30', '--limit', '8', '--setting', 'closed', '--db', db, '--out', out, '--set', `router.file=${changing}`];
    const first = await cli(...args);
    expect(first.code).toBe(0);
    expect(first.out).toContain('the replay at ★ chose the run it made on all 8.');
    const summary = readFileSync(join(out, 'summary.md'), 'utf8');
    // The same file retrained to a steep λ, then the same command: refused, and nothing in the directory changes.
    writeFileSync(changing, JSON.stringify({ ...JSON.parse(readFileSync(changing, 'utf8')), lambda: 1000 }));
    const again = await cli(...args);
    expect(again.code).toBe(2);
    expect(again.err).toContain(`router ran here built from ${changing} as it was then (sha1 `);
    expect(again.err).toContain('and that file has changed since (sha1 ');
    expect(again.err).toContain("its runs here are the old file's; use another --out for the new file, or restore the old one");
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toBe(summary);
    // In another directory the new file runs: every question to direct at λ 1000.
    const elsewhere = await cli(...args.slice(0, -3), join(work, 'routed-new-file'), '--set', `router.file=${changing}`);
    expect(elsewhere.code).toBe(0);
    expect(rowsOf(join(work, 'routed-new-file')).filter((r) => r.workflow === 'router').length).toBe(8);
  });

  it('warns, on stderr and in the summary, when the router is evaluated on its own training questions or on another model than it learnt', async () => {
    const onTraining = join(work, 'routed-on-training');
    const first = await cli('eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--limit', '3', '--setting', 'closed', '--db', db, '--out', onTraining, '--set', `router.file=${file}`);
    expect(first.code).toBe(0);
    const seen = "3 of these 3 questions were among router's training questions: its figures on them are not held-out ones";
    expect(first.err).toContain(`eval: warning: ${seen}`);
    expect(readFileSync(join(onTraining, 'summary.md'), 'utf8')).toContain(`**Warning**: ${seen}`);
    // A file whose training record names another model (as one trained on a real model's evals does).
    const trained = JSON.parse(readFileSync(file, 'utf8')) as { training: { model: string } };
    const other = join(work, 'router-other-model.json');
    writeFileSync(other, JSON.stringify({ ...trained, training: { ...trained.training, model: 'openai:gpt-4o-mini' } }));
    const second = await cli('eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--offset', '40', '--limit', '2', '--setting', 'closed', '--db', db, '--out', join(work, 'routed-other-model'), '--set', `router.file=${other}`);
    expect(second.code).toBe(0);
    expect(second.err).toContain("eval: warning: router was trained on evals of openai:gpt-4o-mini, and this eval runs offline: its predictions of each candidate's quality and cost are the other model's");
    expect(second.err).not.toContain('training questions');
    expect(second.err).not.toContain('setting');
    // Trained on closed-setting evals, evaluated in the open setting: the costs and qualities it learnt are the other setting's.
    const open = await cli('eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--offset', '42', '--limit', '1', '--setting', 'open', '--db', db, '--out', join(work, 'routed-open'), '--set', `router.file=${file}`);
    expect(open.code).toBe(0);
    expect(open.err).toContain("eval: warning: router was trained on evals in the closed setting, and this eval runs in the open one: its predictions of each candidate's quality and cost are the other setting's");
  });

  it('trains with the question embedding as features, through the offline embedder or an OpenAI-compatible endpoint, and routes with it', async () => {
    const embedded = join(work, 'router-embedded.json');
    const trained = await cli('train', 'router', '--from', hotpot, '--from', musique, '--out', embedded, '--seed', '3', '--set', 'router.embedding=4', '--set', 'router.embedder=hashing:64');
    expect(trained.err).toContain('embedded 60 questions with hashing-v1:64');
    expect(trained.err).toContain('features: 27 of the wording and 4 principal components of hashing-v1:64');
    expect(trained.code).toBe(0);
    expect(trained.out).toContain('embeddingComponents 4');
    const router = JSON.parse(readFileSync(embedded, 'utf8'));
    expect(router.embedding).toMatchObject({ spec: 'hashing:64', embedder: 'hashing-v1:64', dimensions: 64 });
    expect(router.embedding.components).toHaveLength(4);

    // The routed eval embeds each question: the trace says with what, and the replay is what it did.
    const out = join(work, 'routed-embedded');
    const evaluated = await cli('eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--offset', '30', '--limit', '8', '--setting', 'closed', '--db', db, '--out', out, '--set', `router.file=${embedded}`);
    expect(evaluated.code).toBe(0);
    expect(evaluated.out).toContain('the replay at ★ chose the run it made on all 8.');
    for (const row of rowsOf(out).filter((r) => r.workflow === 'router')) {
      const trace = JSON.parse(readFileSync(join(out, row.trace), 'utf8')) as RunResult;
      expect(trace.trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'route')!.data['embedding']).toEqual({ embedder: 'hashing-v1:64', components: 4 });
    }

    // The same vectors served over the OpenAI wire format (base64 float32, as the client asks) give the same components.
    const hashing = new HashingEmbedder({ dimensions: 64 });
    const server = await startOpenAICompatibleServer(async (request) => {
      const input = request.body['input'] as string[];
      const vectors = await hashing.embed(input);
      const encode = (v: number[]) => (request.body['encoding_format'] === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v);
      return { raw: JSON.stringify({ object: 'list', model: 'local-embed', data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: encode(v) })), usage: { prompt_tokens: 1, total_tokens: 1 } }) };
    });
    const saved = { base: process.env['OPENAI_BASE_URL'], key: process.env['OPENAI_API_KEY'] };
    process.env['OPENAI_BASE_URL'] = server.baseURL;
    process.env['OPENAI_API_KEY'] = 'none';
    const viaEndpoint = join(work, 'router-endpoint.json');
    try {
      const wire = await cli('train', 'router', '--from', hotpot, '--from', musique, '--out', viaEndpoint, '--seed', '3', '--set', 'router.embedding=4', '--set', 'router.embedder=openai:local-embed:64');
      expect(wire.code).toBe(0);
      const embedded = () => server.requests.filter((r) => r.path === '/v1/embeddings').flatMap((r) => r.body['input'] as string[]);
      expect(embedded()).toHaveLength(60);
      const endpointRouter = JSON.parse(readFileSync(viaEndpoint, 'utf8'));
      expect(endpointRouter.embedding).toMatchObject({ spec: 'openai:local-embed:64', embedder: `openai:local-embed:64@${server.baseURL}`, dimensions: 64 });
      endpointRouter.embedding.components.forEach((u: number[], i: number) => u.forEach((x, j) => expect(Math.abs(x - router.embedding.components[i][j])).toBeLessThan(1e-4)));
      // Routed through the endpoint: each question is embedded once, though both the run and the eval's replay across λ read it.
      const routed = join(work, 'routed-endpoint');
      const viaWire = await cli('eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--offset', '30', '--limit', '4', '--setting', 'closed', '--db', db, '--out', routed, '--set', `router.file=${viaEndpoint}`);
      expect(viaWire.code).toBe(0);
      expect(viaWire.out).toContain('the replay at ★ chose the run it made on all 4.');
      const questions = rowsOf(routed).filter((r) => r.workflow === 'router').map((r) => r.question);
      expect(embedded().slice(60).sort()).toEqual([...questions].sort());
      // A router file is bound to its embedder: the endpoint's file, read with the offline embedder's spec in its place, is refused.
      const swapped = join(work, 'router-swapped.json');
      writeFileSync(swapped, JSON.stringify({ ...endpointRouter, embedding: { ...endpointRouter.embedding, spec: 'hashing:64' } }));
      const refused = await cli('run', '--workflow', 'router', '--question', 'Who wrote Hamlet?', '--db', db, '--set', `router.file=${swapped}`);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(`was trained with the embedder openai:local-embed:64@${server.baseURL} (spec "hashing:64"), but that spec gives hashing-v1:64 here`);
      // The endpoint gone after the runs: the same command again runs nothing, and its replay across λ
      // cannot embed the questions (a new workflow has none cached). The summary is still written, without the curve.
      await server.close();
      const again = await cli('eval', '--workflows', `router,${candidates}`, '--dataset', 'hotpotqa-train', '--offset', '30', '--limit', '4', '--setting', 'closed', '--db', db, '--out', routed, '--set', `router.file=${viaEndpoint}`);
      expect(again.code).toBe(0);
      expect(again.err).toContain(`eval: warning: router's curve across λ is left out: its policy could not predict (embedder openai:local-embed at ${server.baseURL}/embeddings failed after 3 attempt(s): connection refused`);
      const summary = JSON.parse(readFileSync(join(routed, 'summary.json'), 'utf8')) as Summary;
      expect([summary.router_curve, summary.oracle?.n]).toEqual([undefined, 4]);
    } finally {
      for (const [name, value] of [['OPENAI_BASE_URL', saved.base], ['OPENAI_API_KEY', saved.key]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await server.close();
    }
    // An endpoint embedder that cannot be set up (no OPENAI_API_KEY) is refused before anything runs, naming the router file.
    const key = process.env['OPENAI_API_KEY'];
    delete process.env['OPENAI_API_KEY'];
    try {
      const noKey = await cli('run', '--workflow', 'router', '--question', 'Who wrote Hamlet?', '--db', db, '--set', `router.file=${viaEndpoint}`);
      expect(noKey.code).toBe(2);
      expect(noKey.err).toContain(`router: ${viaEndpoint} embeds questions with "openai:local-embed:64" (openai:local-embed:64@${server.baseURL}), which cannot be set up here: OpenAIEmbedder needs`);
    } finally {
      if (key !== undefined) process.env['OPENAI_API_KEY'] = key;
    }
    const badSpec = await cli('train', 'router', '--from', hotpot, '--out', join(work, 'x.json'), '--set', 'router.embedding=4', '--set', 'router.embedder=word2vec');
    expect(badSpec.code).toBe(2);
    expect(badSpec.err).toContain('"word2vec" is not an embedder spec; expected hashing, hashing:<dimensions> or openai:<model>:<dimensions>');
  });

  it('warns when the evals it learns from were judged by different judges', async () => {
    // The musique eval judged again, by a judge over the OpenAI wire that says yes to every answer.
    const server = await startOpenAICompatibleServer(async () => ({ content: 'Explanation: it names the answer.\nDecision: yes' }));
    const saved = { base: process.env['OPENAI_BASE_URL'], key: process.env['OPENAI_API_KEY'] };
    process.env['OPENAI_BASE_URL'] = server.baseURL;
    process.env['OPENAI_API_KEY'] = 'none';
    try {
      const rejudged = join(work, 'musique-other-judge');
      cpSync(musique, rejudged, { recursive: true });
      const judged = await cli('eval', '--workflows', candidates, '--dataset', 'musique-train', '--limit', '30', '--setting', 'closed', '--db', db, '--out', rejudged, '--judge', 'openai:local-judge');
      expect(judged.code).toBe(0);
      const trained = await cli('train', 'router', '--from', hotpot, '--from', rejudged, '--out', join(work, 'mixed-judges.json'));
      expect(trained.code).toBe(0);
      expect(trained.err).toMatch(/train router: warning: the evals were judged differently \(offline, openai:local-judge\S*\); the router learns one judge's idea of a correct answer/);
    } finally {
      for (const [name, value] of [['OPENAI_BASE_URL', saved.base], ['OPENAI_API_KEY', saved.key]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await server.close();
    }
  });

  it('refuses what it cannot use, naming the directory, the setting or the file', async () => {
    const notEval = await cli('train', 'router', '--from', work, '--out', join(work, 'x.json'));
    expect(notEval.code).toBe(2);
    expect(notEval.err).toContain(`--from ${work}: no run.json and results.jsonl here`);
    const noFrom = await cli('train', 'router', '--dataset', 'hotpotqa-train', '--out', join(work, 'x.json'));
    expect(noFrom.err).toContain('trainer router learns from finished evals: give --from <eval dir>');
    // One eval given twice would be learnt from twice, the second replacing the first: refused, naming it.
    const sameEval = await cli('train', 'router', '--from', hotpot, '--from', hotpot, '--out', join(work, 'x.json'));
    expect(sameEval.code).toBe(2);
    expect(sameEval.err).toMatch(new RegExp(`30 questions are in more than one of the evals given \\(e\\.g\\. hotpotqa-train \\S+, in ${hotpot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, given twice\\): each question must come from one eval`));
    const twice = await cli('train', 'router', '--from', hotpot, '--out', join(work, 'x.json'), '--lambda', '0.05', '--set', 'router.lambda=0.1');
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('--lambda 0.05 and --set router.lambda=0.1 set router.lambda twice, to 0.05 and 0.1: give it once');
    const lonelyEmbedder = await cli('train', 'router', '--from', hotpot, '--out', join(work, 'x.json'), '--set', 'router.embedder=hashing:256');
    expect(lonelyEmbedder.code).toBe(2);
    expect(lonelyEmbedder.err).toContain('router.embedder=hashing:256: an embedder is used only with router.embedding=K');
    const unknownCandidate = await cli('train', 'router', '--from', hotpot, '--out', join(work, 'x.json'), '--set', 'router.candidates=direct,opera');
    expect(unknownCandidate.err).toContain('router.candidates: opera not in the evals given');
    const missingFile = await cli('run', '--workflow', 'router', '--question', 'Who wrote Hamlet?', '--db', db, '--set', `router.file=${join(work, 'none.json')}`);
    expect(missingFile.code).toBe(2);
    expect(missingFile.err).toContain('does not exist; train one with: multihop train router --from <eval dir>');
    const notTrainedOn = await cli('run', '--workflow', 'router', '--question', 'Who wrote Hamlet?', '--db', db, '--set', `router.file=${file}`, '--set', 'router.candidates=react');
    expect(notTrainedOn.err).toContain(`router.candidates: react not among the candidates ${file} was trained on`);
  });

  it('refuses an eval judged under an earlier judge prompt, and trains on it once a re-run of the eval has judged it again', async () => {
    const old = join(work, 'hotpot-old-judge');
    cpSync(hotpot, old, { recursive: true });
    // What an eval judged before judge prompt version 4 holds: the same verdicts, under the key of then.
    const rows = new Map(rowsOf(old).map((r) => [`${r.workflow}\u0000${r.questionId}`, r]));
    const verdicts = readFileSync(join(old, 'judgements.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { workflow: string; questionId: string; key: string });
    expect(verdicts.length).toBe(rows.size);
    writeFileSync(join(old, 'judgements.jsonl'), verdicts.map((v) => JSON.stringify({ ...v, key: legacyJudgeKey(rows.get(`${v.workflow}\u0000${v.questionId}`)!) })).join('\n') + '\n');
    const refused = await cli('train', 'router', '--from', old, '--from', musique, '--out', join(work, 'x.json'));
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`--from ${old}: ${rows.size} of its answers were judged with an earlier version of the judge prompt`);
    expect(refused.err).toContain('re-run the eval that wrote it with the same --out');
    const rerun = await cli('eval', '--workflows', candidates, '--dataset', 'hotpotqa-train', '--limit', '30', '--setting', 'closed', '--db', db, '--out', old);
    expect(rerun.code).toBe(0);
    expect(rowsOf(old)).toEqual(rowsOf(hotpot)); // no pair ran again
    expect((await cli('train', 'router', '--from', old, '--from', musique, '--out', join(work, 'rejudged.json'), '--seed', '3')).code).toBe(0);
  });
});
