import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routeChoice, totalTokens, type EvalOutcome, type WorkflowContext } from '@multihop/core';
import { manifest as baselines } from '@multihop/baselines/manifest';
import { offlineHandlers } from '@multihop/baselines/offline';
import { scoreAnswer } from '@multihop/metrics';
import { offlineModel } from '@multihop/offline-model';
import { overlapRetriever, sharedDatasetsDir } from '@multihop/testing';
import { questionFeatures } from './features';
import { expectedTokens, scale } from './predictor';
import { loadRouterFile, saveRouterFile } from './routerFile';
import { trainRouter } from './trainRouter';
import { createRouterWorkflow } from './workflows';

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

async function outcomesOf(questions: typeof sample): Promise<EvalOutcome[]> {
  const out: EvalOutcome[] = [];
  for (const { question, answer, passages } of questions) {
    for (const id of candidates) {
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
    const outcomes = await outcomesOf(sample.slice(0, 30));
    const source = { dir: 'runs', dataset: 'hotpotqa-train', setting: 'closed', model: 'offline', offset: 0, questions: 30, questionIds: sample.slice(0, 30).map((q) => q.question.id), workflows: candidates };
    const settings = { seed: 2, folds: 5, candidates: '' };
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
        expect([lambda, routeChoice(at.policy!.predict(question.text), lambda)]).toEqual([lambda, route.data['choice']]);
        choices.add(String(route.data['choice']));
      }
    }
    // Across λ the choice moves (from a dearer candidate to direct), so the comparison covers more than one candidate.
    expect(choices.size).toBeGreaterThan(1);
  });
});
