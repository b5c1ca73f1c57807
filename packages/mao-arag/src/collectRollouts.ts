import { candidateModel, goldAnswers, groupAdvantages, MultihopError, type Question, type RewardBreakdown, type RolloutOptions, type RolloutRecord } from '@multihop/core';
import { promptPlanner } from './agents/Planner';
import type { MaoAragSettings, PlanDecision } from './graph';
import { maoPlannerPrompt, maoSubPlannerPrompt } from './prompts';
import { measureCostScale, rewardOfRun, type CostScale } from './rewards';
import { MAO_ARAG_DEFAULTS } from './settings';
import { createMaoAragWorkflow } from './workflows';

export interface MaoRolloutOptions extends RolloutOptions {
  settings?: Partial<MaoAragSettings> & { alpha?: number; formatPenalty?: number };
  /** CP's normalisers; measured on this question (COSTLIEST_WORKFLOWS) when not given. */
  costScale?: CostScale;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6 || 0;

/**
 * PPO rollouts of MAO-ARAG's LLM planner for one question (mao-arag.md §3.2), in OPERA's JSONL
 * contract: G episodes, each planned by the prompted planner (`sample` = 0…G−1 in its
 * variables; sample 0 at the planner's configured temperature, greedy when the config says 0, the
 * others at `options.temperature`), executed, and scored R = F1 − α·CP − FP. One record per
 * planner decision: the observation is the rendered planner prompt, the action the workflow
 * text as written. Top-level decisions form the group (`<id>/mao-arag-planner`, group-relative
 * advantages); a sub-question's decision carries its episode's return and advantage (the
 * authors credit every turn from the plan to the answer). `extra_info.answered_at_turn` is the
 * turn the answer was produced at, `extra_info.turn` the decision's own.
 */
export async function collectRollouts(question: Question, options: MaoRolloutOptions): Promise<RolloutRecord[]> {
  const { alpha = MAO_ARAG_DEFAULTS.alpha, formatPenalty = MAO_ARAG_DEFAULTS.formatPenalty, ...bounds } = options.settings ?? {};
  const settings = { maxTurns: MAO_ARAG_DEFAULTS.maxTurns, maxSubQuestions: MAO_ARAG_DEFAULTS.maxSubQuestions, retrievalK: MAO_ARAG_DEFAULTS.retrievalK, ...bounds };
  const scale = options.costScale ?? (await measureCostScale({ model: options.model, retrieverFor: () => options.retriever, questions: [question], settings }));
  const gold = goldAnswers(question);
  const episodes: Array<{ sample: number; decisions: PlanDecision[]; reward: RewardBreakdown; answer: string; answeredAtTurn: number; status: string }> = [];
  for (let sample = 0; sample < options.group; sample++) {
    const planner = promptPlanner((request) => (request.level === 'top' ? { sample } : {}));
    const workflow = createMaoAragWorkflow({ kind: 'no-train' }, { ...settings, alpha, formatPenalty, planner });
    const model = candidateModel(options.model, sample, { temperature: options.temperature, roles: [maoPlannerPrompt.role] });
    const result = await workflow.run(question, { model, retriever: options.retriever });
    if (result.status === 'error') {
      // A run broken by the provider or the retriever says nothing about the plan: no sample.
      throw new MultihopError(result.error?.code ?? 'ROLLOUT', `rollout of ${question.id}: the run failed (${result.error?.message ?? 'unknown error'})`);
    }
    episodes.push({
      sample,
      decisions: (result.data?.['workflows'] as PlanDecision[] | undefined) ?? [],
      reward: rewardOfRun(result, question, scale, alpha),
      answer: result.answer,
      answeredAtTurn: Number(result.data?.['answeredAtTurn'] ?? 0),
      status: result.status,
    });
  }
  const advantages = groupAdvantages(episodes.map((e) => e.reward.total), options.advantages);
  const records: RolloutRecord[] = [];
  episodes.forEach((episode, i) => {
    for (const decision of episode.decisions) {
      const prompt = decision.level === 'top' ? maoPlannerPrompt : maoSubPlannerPrompt;
      records.push({
        group_id: decision.level === 'top' ? `${question.id}/mao-arag-planner` : `${question.id}/mao-arag-planner/sample-${episode.sample}/turn-${decision.turn}`,
        question_id: question.id,
        data_source: options.dataset,
        stage: 1,
        role: 'mao-arag-planner',
        prompt_id: prompt.id,
        prompt_version: prompt.version,
        sample: episode.sample,
        prompt: prompt.render({ question: decision.question }),
        completion: [{ role: 'assistant', content: decision.text }],
        reward: episode.reward.total,
        reward_components: episode.reward.components,
        reward_weights: episode.reward.weights,
        advantage: round(advantages[i] ?? 0),
        reward_model: { style: 'rule', ground_truth: { answers: gold, alpha, format_penalty: formatPenalty, cost_scale: scale } },
        extra_info: {
          question: question.text,
          level: decision.level,
          turn: decision.turn,
          answered_at_turn: episode.answeredAtTurn,
          sub_question: decision.level === 'sub' ? decision.question : null,
          valid: decision.valid,
          problems: decision.problems,
          executed: decision.executed,
          run_answer: episode.answer,
          run_status: episode.status,
        },
      });
    }
  });
  return records;
}
