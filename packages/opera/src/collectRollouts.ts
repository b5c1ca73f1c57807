import { candidateModel, goldAnswers, groupAdvantages, ModelOutputError, MultihopError, type ModelPort, type PromptTemplate, type Question, type RewardBreakdown, type RolloutOptions, type RolloutRecord, type RunResult } from '@multihop/core';
import { operaAnalysisAnswerPrompt, operaPlanPrompt, operaRewritePrompt } from './prompts';
import { analysisVars } from './agents/AnalysisAnswerAgent';
import { rewriteVars } from './agents/RewriteAgent';
import { MAPGRPO_STAGES, type MapgrpoRole } from './mapgrpoStages';
import type { OperaContext } from './machine';
import { analysisReward, planReward, rewriteReward } from './rewards';
import { memoryLines, type TrajectoryEntry } from './TrajectoryMemory';
import { createOperaWorkflow, OPERA_DEFAULTS } from './workflows';
import type { OperaSettings } from './machine';

export interface OperaRolloutOptions extends RolloutOptions {
  settings?: Partial<OperaSettings>;
}

interface Candidate {
  sample: number;
  vars: Record<string, unknown>;
  text: string;
  reward: RewardBreakdown;
  extra?: Record<string, unknown>;
}

/**
 * MAPGRPO rollouts of one question (opera.md, Mechanism 2), one group of G candidates per role,
 * in stage order:
 *
 * Candidate 0 of each group is drawn at the role's configured temperature, candidates 1…G−1 at
 * `options.temperature` (core's `candidateModel`).
 *
 * 1. Plan Agent: G plans (`sample` = 0…G−1), each executed by the current (greedy) executors,
 *    scored by the plan reward on its first proposal and its execution.
 * 2. Analysis-Answer Agent: with the plan fixed (the greedy run), G verdicts on the final
 *    sub-goal's first retrieval (the step whose gold answer the dataset exposes).
 * 3. Rewrite Agent: with plan and analysis fixed, G rewrites of the first retrieval the
 *    analysis judged insufficient; each is retrieved and scored by NDCG against the step's
 *    gold passages. A question whose greedy run never failed a retrieval has no rewrite group.
 *
 * No weights are updated; candidates 0 are the greedy outputs.
 */
export async function collectRollouts(question: Question, options: OperaRolloutOptions): Promise<RolloutRecord[]> {
  const settings: OperaSettings = { ...OPERA_DEFAULTS, ...options.settings };
  const gold = goldAnswers(question);
  const G = options.group;
  const records: RolloutRecord[] = [];
  const emit = (role: MapgrpoRole, prompt: PromptTemplate<unknown>, candidates: Candidate[], groundTruth: Record<string, unknown>, extraInfo: Record<string, unknown>) => {
    const stage = MAPGRPO_STAGES.find((s) => s.role === role)!.stage;
    const advantages = groupAdvantages(candidates.map((c) => c.reward.total), options.advantages);
    candidates.forEach((c, i) => {
      records.push({
        group_id: `${question.id}/${role}`,
        question_id: question.id,
        data_source: options.dataset,
        stage,
        role,
        prompt_id: prompt.id,
        prompt_version: prompt.version,
        sample: c.sample,
        prompt: prompt.render(c.vars),
        completion: [{ role: 'assistant', content: c.text }],
        reward: c.reward.total,
        reward_components: c.reward.components,
        reward_weights: c.reward.weights,
        advantage: Math.round((advantages[i] ?? 0) * 1e6) / 1e6 || 0,
        reward_model: { style: 'rule', ground_truth: groundTruth },
        extra_info: { question: question.text, ...extraInfo, ...(c.extra ?? {}) },
      });
    });
  };

  // Stage 1: Plan Agent.
  const planCandidates: Candidate[] = [];
  let greedy: RunResult | undefined;
  for (let sample = 0; sample < G; sample++) {
    const workflow = createOperaWorkflow('full', { ...settings, varsFor: (role) => (role === 'opera-plan' ? { sample } : {}) });
    const model = candidateModel(options.model, sample, { temperature: options.temperature, roles: ['opera-plan'] });
    const result = await workflow.run(question, { model, retriever: options.retriever });
    if (result.status === 'error' && result.error?.code !== 'MODEL_OUTPUT') {
      // A run broken by the provider or the retriever says nothing about the plan: no sample.
      throw new MultihopError(result.error?.code ?? 'ROLLOUT', `rollout of ${question.id}: the plan-stage run failed (${result.error?.message ?? 'unknown error'})`);
    }
    if (sample === 0) greedy = result;
    const history = (result.data?.['planHistory'] as OperaContext['planHistory'] | undefined) ?? [];
    const first = history[0];
    const memory = (result.data?.['memory'] as TrajectoryEntry[] | undefined) ?? [];
    const planCall = result.trace.find((e) => e.kind === 'llm' && e.data['promptId'] === operaPlanPrompt.id);
    planCandidates.push({
      sample,
      vars: { question: question.text },
      text: planCall ? JSON.stringify(planCall.data['output']) : '',
      reward: planReward({
        plan: { steps: first?.steps ?? [] },
        goldHops: question.hops,
        executed: memory,
        prediction: result.answer,
        gold,
        maxSteps: settings.maxSteps,
      }),
      extra: { run_answer: result.answer, run_status: result.status, plan_source: result.data?.['planSource'] },
    });
  }
  emit('opera-plan', operaPlanPrompt as PromptTemplate<unknown>, planCandidates, { answers: gold, hops: question.hops ?? null }, {});

  const memory = (greedy?.data?.['memory'] as TrajectoryEntry[] | undefined) ?? [];
  const plan = (greedy?.data?.['plan'] as Array<{ id: string }> | undefined) ?? [];
  // A plan step maps onto the dataset's gold decomposition (MuSiQue) when the plan has as many
  // steps; then the step has its own gold answer and passage, else the whole question's stand in.
  const goldStep = (stepId: string) => {
    const at = plan.findIndex((s) => s.id === stepId);
    return question.decomposition && plan.length === question.decomposition.length && at >= 0 ? question.decomposition[at] : undefined;
  };
  const hopGold = (stepId: string): string[] => {
    const step = goldStep(stepId);
    if (step && step.supportingIds.length > 0) return step.supportingIds;
    const at = plan.findIndex((s) => s.id === stepId);
    return plan.length === question.supportingIds.length && at >= 0 ? [question.supportingIds[at]!] : question.supportingIds;
  };

  // Stage 2: Analysis-Answer Agent, on the final sub-goal's first retrieval.
  const lastIndex = memory.map((e) => e.attempts.length > 0).lastIndexOf(true);
  const last = memory[lastIndex];
  if (last && last.attempts[0]) {
    const attempt = last.attempts[0];
    const stepGold = hopGold(last.stepId);
    const goldStatus = attempt.hits.some((h) => stepGold.includes(h.passageId ?? h.id)) ? 'yes' : 'no';
    const isFinal = plan.at(-1)?.id === last.stepId;
    const stepAnswer = goldStep(last.stepId)?.answer;
    const groundingText = attempt.hits.filter((h) => stepGold.includes(h.passageId ?? h.id)).map((h) => h.text).join(' ');
    const vars = analysisVars({ question: question.text, subGoal: last.subGoal, memory: memoryLines(memory.slice(0, lastIndex)), hits: attempt.hits });
    const candidates: Candidate[] = [];
    for (let sample = 0; sample < G; sample++) {
      const reply = await callOrUndefined(candidateModel(options.model, sample, { temperature: options.temperature }), operaAnalysisAnswerPrompt, { ...vars, sample });
      candidates.push({
        sample,
        vars,
        text: reply?.text ?? '',
        reward: analysisReward({ output: reply?.output, goldStatus, ...(isFinal ? { goldAnswers: gold } : stepAnswer ? { goldAnswers: [stepAnswer] } : { groundingText }) }),
      });
    }
    emit('opera-analysis-answer', operaAnalysisAnswerPrompt as PromptTemplate<unknown>, candidates, {
      gold_status: goldStatus,
      answers: isFinal ? gold : stepAnswer ? [stepAnswer] : null,
      step_gold_passages: stepGold,
    }, { step: last.stepId, sub_goal: last.subGoal, final_step: isFinal });
  }

  // Stage 3: Rewrite Agent, on the first insufficient retrieval.
  const failedEntry = memory.find((e) => e.attempts.some((a) => a.status === 'no'));
  const failedAt = failedEntry?.attempts.findIndex((a) => a.status === 'no') ?? -1;
  const failed = failedEntry?.attempts[failedAt];
  if (failedEntry && failed) {
    const stepGold = hopGold(failedEntry.stepId);
    const vars = rewriteVars({
      subGoal: failedEntry.subGoal,
      query: failed.query,
      analysis: failed.analysis,
      previousQueries: failedEntry.attempts.slice(0, failedAt + 1).map((a) => a.query),
    });
    const candidates: Candidate[] = [];
    for (let sample = 0; sample < G; sample++) {
      const reply = await callOrUndefined(candidateModel(options.model, sample, { temperature: options.temperature }), operaRewritePrompt, { ...vars, sample });
      const hits = reply ? await options.retriever.search(reply.output.query, { level: 'sentence', k: settings.topK }) : [];
      const retrieved = hits.map((h) => h.passageId ?? h.id);
      candidates.push({
        sample,
        vars,
        text: reply?.text ?? '',
        reward: rewriteReward({ output: reply?.output, failedQuery: failed.query, retrievedPassageIds: retrieved, gold: stepGold, k: settings.topK }),
        extra: { retrieved_passage_ids: retrieved },
      });
    }
    emit('opera-rewrite', operaRewritePrompt as PromptTemplate<unknown>, candidates, { step_gold_passages: stepGold, k: settings.topK }, {
      step: failedEntry.stepId,
      sub_goal: failedEntry.subGoal,
    });
  }
  return records;
}

async function callOrUndefined<T>(model: ModelPort, prompt: PromptTemplate<T>, vars: Record<string, unknown>): Promise<{ output: T; text: string } | undefined> {
  try {
    const result = await model.call({ prompt, vars });
    return { output: result.output, text: result.text };
  } catch (error) {
    // A candidate the model could not produce in the schema scores 0 on format, like any
    // malformed sample. Anything else (provider down, abort) is no sample at all: it must not
    // become a zero-reward line of training data.
    if (error instanceof ModelOutputError) return undefined;
    throw error;
  }
}
