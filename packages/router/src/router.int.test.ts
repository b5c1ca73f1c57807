import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routeChoice, totalTokens, type EvalOutcome, type WorkflowContext } from '@multihop/core';
import { manifest as baselines } from '@multihop/baselines/manifest';
import { offlineHandlers } from '@multihop/baselines/offline';
import { scoreAnswer } from '@multihop/metrics';
import { offlineModel } from '@multihop/offline-model';
import { HashingEmbedder } from '@multihop/retriever';
import { overlapRetriever } from '@multihop/conformance';
import { sharedDatasetsDir } from '@multihop/testing';
import { questionFeatures } from './features';
import { expectedTokens, scale } from './predictor';
import { loadRouterFile, saveRouterFile } from './routerFile';
import { preferred, trainRouter } from './trainRouter';
import { fitProjection } from './embedding';
import { routerTrainer } from './trainer';
import { createRouterWorkflow } from './workflows';

// A budget against a hang, not a bound on speed: tests here have taken 60 s under CI's load (12–19 s idle).
jest.setTimeout(300_000);

// Real runs of three baselines on HotpotQA train questions (their own paragraphs, the offline
// model), scored with the official F1: the outcomes the router learns from, then routes with.
const model = offlineModel({ handlers: offlineHandlers });
const context: WorkflowContext = {
  workflowIds: () => baselines.workflows.map((w) => w.id),
  workflow: (id) => baselines.workflows.find((w) => w.id === id)!.create(),
};
const candidates = ['direct', 'single-turn-rag', 'ircot'];
// The first 34 questions of the shared HotpotQA train file, each with its own ten paragraphs and its gold answer.
const sample = (JSON.parse(readFileSync(join(sharedDatasetsDir(), 'hotpotqa', 'train-100.json'), 'utf8')) as Array<{ _id: string; question: string; answer: string; context: Array<[string, string[]]> }>)
  .slice(0, 34)
  .map((row) => ({
    question: { id: row._id, text: row.question },
    answer: row.answer,
    passages: row.context.map(([title, sentences], i) => ({ id: `${row._id}:${i}`, title, text: sentences.join('').trim() })),
  }));

// The outcomes of the first 30 questions, run once for both tests.
let ran: Promise<EvalOutcome[]> | undefined;
const trainingOutcomes = () => (ran ??= outcomesOf(sample.slice(0, 30)));
const source = { dir: 'runs', dataset: 'hotpotqa-train', setting: 'closed', model: 'offline', offset: 0, questions: 30, questionIds: sample.slice(0, 30).map((q) => q.question.id), workflows: candidates };

async function outcomesOf(questions: typeof sample, workflows: readonly string[] = candidates): Promise<EvalOutcome[]> {
  const out: EvalOutcome[] = [];
  for (const { question, answer, passages } of questions) {
    for (const id of workflows) {
      const result = await context.workflow(id).run(question, { model, retriever: overlapRetriever(passages) });
      const f1 = scoreAnswer(result.answer, [answer]).f1;
      out.push({
        dataset: 'hotpotqa-train', questionId: question.id, question: question.text, workflow: id, correct: null, em: 0, f1,
        tokens: totalTokens(result.usage), llmCalls: result.usage.llmCalls, latencyMs: 0, status: result.status,
      });
    }
  }
  return out;
}

describe('the router on real runs', () => {
  it('learns from outcomes deterministically, records them, and routes a question to the run of its top prediction', async () => {
    const outcomes = await trainingOutcomes();
    const settings = { seed: 2, folds: 5, repeats: 1, candidates: '', pool: 'all' as const, embedding: 0, embedder: 'hashing' };
    const file = trainRouter(outcomes, [source], settings);
    expect(file.training).toMatchObject({ target: 'f1', questions: 30, seed: 2, model: 'offline' });
    expect(file.candidates.map((c) => c.workflow)).toEqual(candidates);
    expect(trainRouter(outcomes, [source], settings).candidates).toEqual(file.candidates);
    // The expected tokens are the mean's, not the median's: on its training questions each
    // candidate's predicted tokens average out to its real ones (the smearing factor), where
    // exp of the log-token fit alone falls short for a candidate whose tokens vary.
    const trainedOn = sample.slice(0, 30).map((q) => q.question.text);
    for (const model of file.candidates) {
      const real = outcomes.filter((o) => o.workflow === model.workflow).reduce((s, o) => s + o.tokens, 0) / 30;
      const predicted = (m: typeof model) => trainedOn.reduce((s, q) => s + expectedTokens(m, scale(file.scaler, questionFeatures(q))), 0) / 30;
      const { costSmearing: _, ...median } = model;
      expect(model.costSmearing).toBeGreaterThanOrEqual(1);
      expect(Math.abs(predicted(model) - real) / real).toBeLessThan(0.03);
      expect(Math.abs(predicted(model) - real)).toBeLessThanOrEqual(Math.abs(predicted(median) - real));
    }
    // ircot's tokens vary with its steps: without the factor its mean is under-predicted.
    const ircot = file.candidates.find((c) => c.workflow === 'ircot')!;
    expect(ircot.costSmearing).toBeGreaterThan(1.01);
    const path = join(mkdtempSync(join(tmpdir(), 'multihop-router-')), 'router.json');
    saveRouterFile(path, file);
    expect(loadRouterFile(path).lambda).toBe(file.lambda);

    const router = createRouterWorkflow({ file: path }, context);
    for (const { question, passages } of sample.slice(30, 34)) {
      const routed = await router.run(question, { model, retriever: overlapRetriever(passages) });
      const route = routed.trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'route')!;
      const predictions = route.data['predictions'] as Array<{ workflow: string; value: number }>;
      expect(route.data['choice']).toBe(predictions[0]!.workflow);
      const alone = await context.workflow(predictions[0]!.workflow).run(question, { model, retriever: overlapRetriever(passages) });
      expect({ answer: routed.answer, evidence: routed.evidenceIds, calls: routed.usage.llmCalls }).toEqual({ answer: alone.answer, evidence: alone.evidenceIds, calls: alone.usage.llmCalls });
    }

    // The policy an eval replays (core's routeChoice over predictAll) chooses what the graph (rank) chooses, at every λ its training compared.
    const lambdas = router.policy!.lambdas;
    expect(lambdas).toContain(file.lambda);
    const choices = new Set<string>();
    for (const lambda of lambdas) {
      const at = createRouterWorkflow({ file: path, lambda }, context);
      for (const { question, passages } of sample.slice(30, 34)) {
        const routed = await at.run(question, { model, retriever: overlapRetriever(passages) });
        const route = routed.trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'route')!;
        expect([lambda, routeChoice(await at.policy!.predict(question.text), lambda)]).toEqual([lambda, route.data['choice']]);
        choices.add(String(route.data['choice']));
      }
    }
    // Across λ the choice moves (from a dearer candidate to direct), so the comparison covers more than one candidate.
    expect(choices.size).toBeGreaterThan(1);
  });

  it('refuses a candidate named twice, a file of another version, an edited feature name, and a router left with one installed candidate, by name', async () => {
    const outcomes = await trainingOutcomes();
    const settings = { seed: 1, folds: 5, repeats: 1, candidates: '', pool: 'all' as const, embedding: 0, embedder: 'hashing' };
    expect(() => trainRouter(outcomes, [source], { ...settings, candidates: 'direct,direct' })).toThrow('router.candidates names direct more than once; name each candidate once');
    const file = trainRouter(outcomes, [source], settings);
    const dir = mkdtempSync(join(tmpdir(), 'multihop-router-'));
    const path = join(dir, 'router.json');
    saveRouterFile(path, file);
    expect(() => createRouterWorkflow({ file: path, candidates: 'ircot,ircot' }, context)).toThrow('router.candidates names ircot more than once; name each candidate once');
    const written = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & { featureSpec: { names: string[] } };
    const variant = (name: string, edit: (f: typeof written) => void) => {
      const copy = JSON.parse(JSON.stringify(written)) as typeof written;
      edit(copy);
      writeFileSync(join(dir, name), JSON.stringify(copy));
      return join(dir, name);
    };
    expect(() => loadRouterFile(variant('v2.json', (f) => (f['version'] = 2)))).toThrow(/field version: expected 1 \(the version this package reads\), got 2/);
    const renamed = variant('names.json', (f) => (f.featureSpec.names[0] = 'words'));
    expect(() => loadRouterFile(renamed)).toThrow(`the first that differs is names[0], "words" where this package reads ${JSON.stringify(file.featureSpec.names[0])}`);
    // Installed here: direct alone of the three (a team with one of the methods).
    const one: WorkflowContext = { workflowIds: () => ['direct', 'cot'], workflow: context.workflow };
    expect(() => createRouterWorkflow({ file: path }, one)).toThrow(`router: of the workflows ${path} routes to, only direct is installed here (not single-turn-rag, ircot): a router among one always runs it`);
    // Two of three: it routes among those two and says which it left out.
    const two: WorkflowContext = { workflowIds: () => ['direct', 'ircot'], workflow: context.workflow };
    const router = createRouterWorkflow({ file: path }, two);
    expect({ candidates: router.candidates, notInstalled: router.notInstalled }).toEqual({ candidates: ['direct', 'ircot'], notInstalled: ['single-turn-rag'] });
  });

  it("learns the judge's verdicts where the evals have them, leaving out (by eval) a question an answer of which has none, and refuses a question two evals hold", async () => {
    // Verdicts stand in for a judge's: right when F1 ≥ 0.5.
    const judged = (await trainingOutcomes()).map((o) => ({ ...o, correct: (o.f1 >= 0.5 ? 1 : 0) as 0 | 1 }));
    const settings = { seed: 2, folds: 5, repeats: 1, candidates: '', pool: 'all' as const, embedding: 0, embedder: 'hashing' };
    // One answer the judge gave no verdict on (its call failed): that question is left out, the target stays the judge's.
    const lines: string[] = [];
    const file = trainRouter(judged.map((o, i) => (i === 4 ? { ...o, correct: null } : o)), [source], settings, (line) => lines.push(line));
    expect(file.training).toMatchObject({ target: 'correctness', questions: 29 });
    expect(lines).toContainEqual(expect.stringMatching(/^left out 1 question on which some candidate's answer has no verdict \(.*\): 1 of runs; a re-run of that eval with the same --out judges the answers not judged yet and asks again where the judge's call failed/));
    // An eval not judged, one of whose runs failed on its workflow's own account (scored 0): still F1, its 0 is no verdict.
    const unjudged = (await trainingOutcomes()).map((o, i) => (i === 4 ? { ...o, status: 'error' as const, ownFailure: true as const, correct: 0 as const, f1: 0 } : o));
    expect(trainRouter(unjudged, [source], settings).training).toMatchObject({ target: 'f1', questions: 30 });
    // A second eval holding one of the same questions (another workflow's run of it): refused, naming both.
    const again = { ...source, dir: 'runs-again', questions: 1, questionIds: [judged[0]!.questionId], workflows: ['react'] };
    expect(() => trainRouter([...judged, { ...judged[0]!, workflow: 'react' }], [source, again], settings)).toThrow(
      new RegExp(`^1 question is in more than one of the evals given \\(e\\.g\\. hotpotqa-train ${judged[0]!.questionId}, in runs and runs-again\\): each question must come from one eval`),
    );
  });

  it('repeated cross-validation: each λ row is the mean of the rows of single draws with seeds seed, seed+1, ...', async () => {
    const outcomes = await trainingOutcomes();
    const base = { folds: 5, candidates: '', pool: 'all' as const, embedding: 0, embedder: 'hashing', l2: 30 };
    const drawn = [2, 3, 4].map((seed) => trainRouter(outcomes, [source], { ...base, seed, repeats: 1 }).training.lambda.grid);
    const repeated = trainRouter(outcomes, [source], { ...base, seed: 2, repeats: 3 });
    expect(repeated.training).toMatchObject({ seed: 2, folds: 5, repeats: 3 });
    const grid = repeated.training.lambda.grid;
    expect(grid.map((r) => r.lambda)).toEqual(drawn[0]!.map((r) => r.lambda));
    grid.forEach((row, i) => {
      const mean = (pick: (r: (typeof grid)[number]) => number) => drawn.reduce((s, g) => s + pick(g[i]!), 0) / drawn.length;
      expect(row.quality).toBeCloseTo(mean((r) => r.quality), 12);
      expect(row.tokens).toBeCloseTo(mean((r) => r.tokens), 9);
      expect(row.datasets[0]!.quality).toBeCloseTo(mean((r) => r.datasets[0]!.quality), 12);
    });
    // The draws differ (else averaging them would change nothing), and the first is the single draw's.
    expect(drawn[1]).not.toEqual(drawn[0]);
    expect(trainRouter(outcomes, [source], { ...base, seed: 2, repeats: 1 }).training.lambda.grid).toEqual(drawn[0]);
  });

  it('routes among the Pareto front of its candidates’ training means when trained so, and cross-validation chooses the pool', async () => {
    // cot beside the three: a dearer way to the same kind of answer, so the front may leave it out.
    const outcomes = [...(await trainingOutcomes()), ...(await outcomesOf(sample.slice(0, 30), ['cot']))];
    const four = [...candidates, 'cot'];
    const base = { seed: 2, folds: 5, repeats: 1, candidates: '', embedding: 0, embedder: 'hashing' };
    // The front, computed here from the outcomes themselves: no other workflow as good and as cheap on average, better on one.
    const means = four.map((w) => {
      const mine = outcomes.filter((o) => o.workflow === w);
      return { w, f1: mine.reduce((s, o) => s + o.f1, 0) / mine.length, tokens: mine.reduce((s, o) => s + o.tokens, 0) / mine.length };
    });
    const frontAmong = (ids: readonly string[]) => {
      const mine = means.filter((m) => ids.includes(m.w));
      return mine.filter((a) => !mine.some((b) => b !== a && b.f1 >= a.f1 && b.tokens <= a.tokens && (b.f1 > a.f1 || b.tokens < a.tokens))).map((m) => m.w);
    };
    const front = frontAmong(four);
    expect(front.length).toBeLessThan(four.length);

    const file = trainRouter(outcomes, [{ ...source, workflows: four }], { ...base, pool: 'front' });
    expect(file.pool).toBe('front');
    expect(file.candidates.map((c) => c.workflow).sort()).toEqual([...four].sort());
    expect(new Set(file.training.lambda.grid.map((r) => r.pool))).toEqual(new Set(['front']));
    const dir = mkdtempSync(join(tmpdir(), 'multihop-router-'));
    const path = join(dir, 'front.json');
    saveRouterFile(path, file);
    const fourInstalled: WorkflowContext = { ...context, workflowIds: () => [...candidates, 'cot'] };
    const router = createRouterWorkflow({ file: path }, fourInstalled);
    // Its candidates stay the four (an eval's oracle and best single workflow are taken over them); it routes among the front.
    expect([...router.candidates!].sort()).toEqual([...four].sort());
    const q = sample[30]!.question.text;
    const routedAmong = async (w: ReturnType<typeof createRouterWorkflow>) => (await w.policy!.predict(q)).map((p) => p.workflow).sort();
    expect(await routedAmong(router)).toEqual([...front].sort());
    for (const { question, passages } of sample.slice(30, 34)) {
      const routed = await router.run(question, { model, retriever: overlapRetriever(passages) });
      const route = routed.trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'route')!;
      expect((route.data['predictions'] as Array<{ workflow: string }>).map((p) => p.workflow).sort()).toEqual([...front].sort());
    }
    // router.pool=all routes among every candidate again. Candidates named in router.candidates
    // are all routed among, unless router.pool=front asks for the front of those named.
    expect(await routedAmong(createRouterWorkflow({ file: path, pool: 'all' }, fourInstalled))).toEqual([...four].sort());
    const outside = four.find((w) => !front.includes(w))!;
    const pair = [outside, front.find((w) => means.find((m) => m.w === w)!.tokens > means.find((m) => m.w === outside)!.tokens) ?? front[0]!];
    const pairFront = frontAmong(pair);
    expect(await routedAmong(createRouterWorkflow({ file: path, candidates: pair.join(',') }, fourInstalled))).toEqual([...pair].sort());
    expect(await routedAmong(createRouterWorkflow({ file: path, candidates: pair.join(','), pool: 'front' }, fourInstalled))).toEqual([...pairFront].sort());
    // The front of the installed ones: with direct not installed, the front of the other three.
    const withoutDirect = four.filter((w) => w !== 'direct');
    const frontOfThree = frontAmong(withoutDirect);
    expect(frontOfThree).not.toEqual(front.filter((w) => w !== 'direct'));
    expect(await routedAmong(createRouterWorkflow({ file: path }, { ...context, workflowIds: () => withoutDirect }))).toEqual([...frontOfThree].sort());
    // A file trained on every candidate can be told to route among the front; one without the training means cannot, by name.
    const allPath = join(dir, 'all.json');
    saveRouterFile(allPath, trainRouter(outcomes, [{ ...source, workflows: four }], { ...base, pool: 'all' }));
    expect(await routedAmong(createRouterWorkflow({ file: allPath }, fourInstalled))).toEqual([...four].sort());
    expect(await routedAmong(createRouterWorkflow({ file: allPath, pool: 'front' }, fourInstalled))).toEqual([...front].sort());
    const bare = JSON.parse(readFileSync(allPath, 'utf8'));
    delete bare.candidates[1].training;
    writeFileSync(join(dir, 'bare.json'), JSON.stringify(bare));
    expect(await routedAmong(createRouterWorkflow({ file: join(dir, 'bare.json') }, fourInstalled))).toEqual([...four].sort());
    expect(() => createRouterWorkflow({ file: join(dir, 'bare.json'), pool: 'front' }, fourInstalled)).toThrow(`router.pool=front: ${join(dir, 'bare.json')}: field candidates[1].training: expected the mean quality and tokens`);

    // auto: both pools are cross-validated, and the file is the row the selection rule prefers.
    const auto = trainRouter(outcomes, [{ ...source, workflows: four }], { ...base, pool: 'auto' });
    const grid = auto.training.lambda.grid;
    expect(grid.filter((r) => r.pool === 'all').length).toBeGreaterThan(0);
    expect(grid.filter((r) => r.pool === 'all').length).toBe(grid.filter((r) => r.pool === 'front').length);
    const pick = grid.reduce((a, b) => (preferred(b, a) ? b : a));
    expect(auto.training.bestSingle.crossValidated).toEqual(pick);
    expect([auto.lambda, auto.training.l2, auto.pool ?? 'all']).toEqual([pick.lambda, pick.l2, pick.pool]);
    // With λ given, L2 and the pool at that λ are chosen by the same rule: the given λ of the pick gives the same file.
    const given = trainRouter(outcomes, [{ ...source, workflows: four }], { ...base, pool: 'auto', lambda: pick.lambda });
    expect([given.training.l2, given.pool ?? 'all', given.training.lambda.chosenBy]).toEqual([pick.l2, pick.pool, 'given']);
    expect(given.candidates).toEqual(auto.candidates);

    // A pool the loader does not know is refused by name.
    writeFileSync(join(dir, 'bad-pool.json'), JSON.stringify({ ...file, pool: 'cheapest' }));
    expect(() => loadRouterFile(join(dir, 'bad-pool.json'))).toThrow(`${join(dir, 'bad-pool.json')}: field pool: expected "all" or "front", got "cheapest"`);
  });

  it('with embedding features: reads the question through the principal components of its embedding, and refuses another embedder', async () => {
    const outcomes = await trainingOutcomes();
    const dir = mkdtempSync(join(tmpdir(), 'multihop-router-'));
    const embedders = new Map([['hashing', new HashingEmbedder()], ['hashing:256', new HashingEmbedder({ dimensions: 256 })]]);
    const embedded: string[] = [];
    const embedder = (spec: string) => {
      embedded.push(spec);
      return embedders.get(spec)!;
    };
    const train = (out: string, settings: Record<string, unknown>, withEmbedder = true) =>
      routerTrainer.trainFromEvals!({ outcomes, sources: [source], out: join(dir, out), settings: { seed: 2, ...settings }, ...(withEmbedder ? { embedder } : {}) });
    await expect(train('none.json', { embedding: 4 }, false)).rejects.toThrow('router.embedding: this caller offers no embedder');
    const result = await train('router.json', { embedding: 4 });
    expect(result.metrics['embeddingComponents']).toBe(4);
    expect(embedded).toEqual(['hashing']);
    const file = loadRouterFile(result.file);
    const projection = file.embedding!;
    expect(projection).toMatchObject({ spec: 'hashing', embedder: 'hashing-v1:512', dimensions: 512 });
    expect(file.featureSpec.names.slice(-4)).toEqual([1, 2, 3, 4].map((i) => `question embedding: principal component ${i}`));
    expect([file.featureSpec.names.length, file.scaler.mean.length, file.candidates[0]!.quality.weights.length]).toEqual([31, 31, 31]);
    // The same evals give the same file.
    const again = loadRouterFile((await train('again.json', { embedding: 4 })).file);
    expect(again.embedding).toEqual(projection);
    expect(again.candidates).toEqual(file.candidates);

    // The components are orthonormal directions of largest variance of the 30 training questions'
    // embeddings, in decreasing order, each beyond any of 50 random directions.
    const vectors = await new HashingEmbedder().embed(sample.slice(0, 30).map((q) => q.question.text));
    const dot = (a: readonly number[], b: readonly number[]) => a.reduce((s, x, j) => s + x * b[j]!, 0);
    const variance = (u: readonly number[]) => vectors.reduce((s, v) => s + dot(u, v.map((x, j) => x - projection.mean[j]!)) ** 2, 0) / vectors.length;
    projection.components.forEach((u, i) => projection.components.forEach((w, j) => expect(Math.abs(dot(u, w) - (i === j ? 1 : 0))).toBeLessThan(1e-9)));
    const variances = projection.components.map(variance);
    for (let i = 1; i < 4; i++) expect(variances[i]!).toBeLessThanOrEqual(variances[i - 1]!);
    let state = 7;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
    for (let t = 0; t < 50; t++) {
      const r = Array.from({ length: 512 }, random);
      const norm = Math.hypot(...r);
      expect(variance(r.map((x) => x / norm))).toBeLessThan(variances[0]!);
    }

    // With fewer dimensions than questions the directions come from the d×d matrix instead: the same properties hold.
    const narrow = await new HashingEmbedder({ dimensions: 16 }).embed(sample.slice(0, 30).map((q) => q.question.text));
    const small = fitProjection(narrow, 4, { spec: 'hashing:16', embedder: 'hashing-v1:16' });
    const spread = (u: readonly number[]) => narrow.reduce((s, v) => s + dot(u, v.map((x, j) => x - small.mean[j]!)) ** 2, 0);
    small.components.forEach((u, i) => small.components.forEach((w, j) => expect(Math.abs(dot(u, w) - (i === j ? 1 : 0))).toBeLessThan(1e-9)));
    for (let i = 1; i < 4; i++) expect(spread(small.components[i]!)).toBeLessThanOrEqual(spread(small.components[i - 1]!));
    // Questions whose embeddings vary in fewer directions than asked for are refused, naming how many.
    const twoQuestions = [...vectors.slice(0, 2), ...vectors.slice(0, 2), ...vectors.slice(0, 2)];
    expect(() => fitProjection(twoQuestions, 2, { spec: 'hashing', embedder: 'hashing-v1:512' })).toThrow("router.embedding: the 6 training questions' embeddings vary in only 1 direction; ask for at most 1 components");

    // Routing embeds the question: the trace says with what, and the eval's replay agrees with the graph.
    const router = createRouterWorkflow({ file: result.file }, { ...context, embedder });
    for (const { question, passages } of sample.slice(30, 34)) {
      const routed = await router.run(question, { model, retriever: overlapRetriever(passages) });
      const route = routed.trace.find((e) => e.kind === 'decision' && e.data['decision'] === 'route')!;
      expect(route.data['embedding']).toEqual({ embedder: 'hashing-v1:512', components: 4 });
      expect(route.data['choice']).toBe(routeChoice(await router.policy!.predict(question.text), file.lambda));
      const alone = await context.workflow(String(route.data['choice'])).run(question, { model, retriever: overlapRetriever(passages) });
      expect(routed.answer).toBe(alone.answer);
    }
    // The embedding is read: its predictions differ from the wording-only router's.
    const wordingOnly = createRouterWorkflow({ file: (await train('wording.json', {})).file }, context);
    const q = sample[31]!.question.text;
    expect(await router.policy!.predict(q)).not.toEqual(await wordingOnly.policy!.predict(q));

    // Another embedder, or none, is refused by name; so is a damaged projection.
    const other = { ...context, embedder: () => embedders.get('hashing:256')! };
    expect(() => createRouterWorkflow({ file: result.file }, other)).toThrow(`was trained with the embedder hashing-v1:512 (spec "hashing"), but that spec gives hashing-v1:256 here`);
    expect(() => createRouterWorkflow({ file: result.file }, context)).toThrow('was trained with embedding features (hashing-v1:512), and this caller offers no embedder');
    const damaged = JSON.parse(readFileSync(result.file, 'utf8'));
    damaged.embedding.components[2] = damaged.embedding.components[2].slice(1);
    writeFileSync(join(dir, 'damaged.json'), JSON.stringify(damaged));
    expect(() => loadRouterFile(join(dir, 'damaged.json'))).toThrow(`${join(dir, 'damaged.json')}: field embedding.components[2]: expected 512 numbers`);
    const unnamed = JSON.parse(readFileSync(result.file, 'utf8'));
    unnamed.featureSpec.names = unnamed.featureSpec.names.slice(0, 27);
    writeFileSync(join(dir, 'unnamed.json'), JSON.stringify(unnamed));
    expect(() => loadRouterFile(join(dir, 'unnamed.json'))).toThrow('field featureSpec: trained on another feature set (version 1, 27 features; this package reads version 1, 31 features with 4 embedding components)');
  });
});
