import type { CallUsage, ModelPort, PromptTemplate } from '@multihop/core';

/** What the PAR² correctness judge answers (appendix A.2, Figure 3). */
export interface JudgeDecision {
  explanation: string;
  /** The text of the judge's `Decision:` line, as written (`yes`, `No`, `yes, the year matches`). */
  decision: string;
}

export interface JudgeInput {
  question: string;
  prediction: string;
  /**
   * The ground-truth answer, or the answer and its accepted aliases (the first is the answer):
   * the judge prompt shows the others as alternatives, any one of which suffices.
   */
  gold: string | readonly string[];
}

export interface JudgeOptions {
  /** The judge prompt, e.g. `judgeCorrectnessPrompt` from @multihop/prompts. */
  prompt: PromptTemplate<JudgeDecision>;
  signal?: AbortSignal;
}

export interface JudgeVerdict extends JudgeDecision {
  /** PAR²'s rule applied to the decision: 1 when it contains "yes". Correct is the mean of this (eq. 2). */
  correct: 0 | 1;
  /** The reply text the decision was read from, kept for audits of the judge. */
  text: string;
  usage: CallUsage;
}

/**
 * PAR² A.2's scoring rule: a judgement containing "yes", in any case, counts as correct, anything
 * else as wrong. It is the paper's rule on purpose, loose as it is ("no, a yes would need the
 * year" counts), so correctness figures are comparable with the paper's.
 */
export function isJudgedCorrect(decision: string): boolean {
  return decision.toLowerCase().includes('yes');
}

/**
 * Asks the model, under the `judge` role, whether the prediction contains the vital facts of
 * the gold answer, and scores the decision with {@link isJudgedCorrect}. The prompt is an option
 * rather than an import so that metrics does not depend on the prompts package, and a study can
 * swap judge prompts without forking this code. A reply the prompt's parser cannot read is
 * retried once by the model port, then fails with a ModelOutputError that keeps the raw text.
 */
export async function judgeCorrectness(model: ModelPort, input: JudgeInput, options: JudgeOptions): Promise<JudgeVerdict> {
  const { question, prediction, gold } = input;
  const result = await model.call({
    prompt: options.prompt,
    vars: { question, prediction, gold },
    role: 'judge',
    signal: options.signal,
  });
  const { explanation, decision } = result.output;
  return { explanation, decision, correct: isJudgedCorrect(decision) ? 1 : 0, text: result.text, usage: result.usage };
}
