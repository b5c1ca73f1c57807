import { candidateModel, goldAnswers, groupAdvantages, MultihopError, type ChatMessage, type Question, type RolloutOptions, type RolloutRecord, type RunResult } from '@multihop/core';
import { scoreAnswer } from '@multihop/metrics';
import type { AgentTurn } from './machine';
import { MAPPO_STAGES } from './mappoStages';
import { MMOA_PROMPTS } from './prompts';
import { agentReward, sharedF1 } from './rewards';
import type { MmoaRagSettings } from './settings';
import { MMOA_AGENTS, type MmoaAgent } from './variants';
import { createMmoaRagWorkflow } from './workflows';

export interface MmoaRolloutOptions extends RolloutOptions {
  settings?: Partial<MmoaRagSettings>;
}

/** The turns and answer a finished MMOA-RAG run left in its data. */
export function turnsOf(result: RunResult): AgentTurn[] {
  return (result.data?.['turns'] as AgentTurn[] | undefined) ?? [];
}

/**
 * MAPPO rollouts of one question (mmoa-rag.md, "MAPPO Joint Optimization"): G episodes of the
 * full pipeline QR → Retriever → S → G (`sample` 0 at the roles' configured temperature, the greedy
 * episode when the config says 0; the others at `options.temperature`), and per episode one
 * record per agent turn. Each turn's reward is R_i = R_shared + P_i with R_shared the answer's
 * F1 (mmoa normalisation); `shared_return` carries R_shared and `episode_id` ties the three turns
 * of one episode together for a shared critic. The KL term −β·log(π_θ/π_SFT) is per token and the
 * trainer's. `advantage` is the group-relative baseline over the G episodes of that agent, for a
 * critic-free trainer; MAPPO recomputes it with GAE from its critic.
 */
export async function collectRollouts(question: Question, options: MmoaRolloutOptions): Promise<RolloutRecord[]> {
  const gold = goldAnswers(question);
  const episodes: Array<{ sample: number; result: RunResult; shared: number; turns: AgentTurn[] }> = [];
  for (let sample = 0; sample < options.group; sample++) {
    const workflow = createMmoaRagWorkflow('full', { ...options.settings, varsFor: () => ({ sample }) });
    // Every agent of an episode is sampled (MAPPO trains the three jointly).
    const result = await workflow.run(question, { model: candidateModel(options.model, sample, { temperature: options.temperature }), retriever: options.retriever });
    if (result.status === 'error' && result.error?.code !== 'MODEL_OUTPUT') {
      // A run broken by the provider or the retriever is no episode: it must not become training data.
      throw new MultihopError(result.error?.code ?? 'ROLLOUT', `rollout of ${question.id}: episode ${sample} failed (${result.error?.message ?? 'unknown error'})`);
    }
    const turns = turnsOf(result);
    const reply = (result.data?.['reply'] as string | undefined) ?? result.answer;
    episodes.push({ sample, result, shared: reply ? sharedF1(reply, gold) : 0, turns });
  }

  const records: RolloutRecord[] = [];
  for (const stage of MAPPO_STAGES) {
    const prompt = MMOA_PROMPTS.find((p) => p.role === stage.role)!;
    const rows = episodes.flatMap((e) => {
      const turn = e.turns.find((t) => t.role === stage.role);
      return turn ? [{ episode: e, turn, reward: agentReward(e.shared, turn.penalty) }] : [];
    });
    const advantages = groupAdvantages(rows.map((r) => r.reward.total), options.advantages);
    rows.forEach(({ episode, turn, reward }, i) => {
      const prompt_ = prompt.render(turn.vars);
      records.push({
        group_id: `${question.id}/${stage.role}`,
        question_id: question.id,
        data_source: options.dataset,
        stage: stage.stage,
        role: stage.role,
        prompt_id: prompt.id,
        prompt_version: prompt.version,
        sample: episode.sample,
        prompt: prompt_,
        completion: [{ role: 'assistant', content: turn.text }],
        reward: reward.total,
        reward_components: reward.components,
        reward_weights: reward.weights,
        advantage: Math.round((advantages[i] ?? 0) * 1e6) / 1e6 || 0,
        reward_model: { style: 'rule', ground_truth: { answers: gold } },
        extra_info: {
          question: question.text,
          agent: stage.agent,
          ...(turn.violation ? { violation: turn.violation } : {}),
          answer: episode.result.answer,
          run_status: episode.result.status,
          sub_questions: episode.result.data?.['subQuestions'] ?? [],
          selected: (episode.result.data?.['selection'] as { selected?: number[] } | undefined)?.selected ?? [],
          em: episode.result.answer ? scoreAnswer(episode.result.answer, gold, { normalization: 'mmoa' }).em : 0,
          kl: 'not included: the trainer adds −β·log(π_θ/π_SFT) per token against the SFT policy',
          parameter_sharing: 'one LLM serves the three agents, told apart by their prompts',
        },
        episode_id: `${question.id}#${episode.sample}`,
        shared_return: Math.round(episode.shared * 1e6) / 1e6,
      });
    });
  }
  return records;
}

/** An episode is successful when its shared return reaches this F1 and no agent was penalised. */
export const SFT_MIN_F1 = 1;

/**
 * Warm-start examples (the paper's SFT before MAPPO) from rollouts: every agent turn of the
 * successful episodes, as chat messages (the prompt the agent saw, then its reply). An episode is
 * successful when its answer's F1 under the mmoa normalisation is 1 (SFT_MIN_F1) and none of its
 * agents was penalised; an episode missing a turn of the full pipeline is not used.
 */
export function sftExamples(records: readonly RolloutRecord[]): Array<{ role: string; messages: ChatMessage[] }> {
  const episodes = new Map<string, RolloutRecord[]>();
  for (const r of records) if (r.episode_id) episodes.set(r.episode_id, [...(episodes.get(r.episode_id) ?? []), r]);
  const full: readonly MmoaAgent[] = MMOA_AGENTS.full;
  const out: Array<{ role: string; messages: ChatMessage[] }> = [];
  for (const turns of episodes.values()) {
    const successful =
      turns.length === full.length &&
      turns.every((t) => (t.shared_return ?? 0) >= SFT_MIN_F1 && (t.reward_components['penalty'] ?? 0) === 0);
    if (!successful) continue;
    for (const t of [...turns].sort((a, b) => a.stage - b.stage)) out.push({ role: t.role, messages: [...t.prompt, ...t.completion] });
  }
  return out;
}
