import type { ReplyFormat } from '@multihop/core';
import { z } from 'zod';
import { definePrompt } from '../definePrompt';

export const judgeVerdictSchema = z.object({
  explanation: z.string().describe('A short rationale for the decision.'),
  /** The text of the `Decision:` line as the judge wrote it (`yes`, `No`, `yes — the year matches`). */
  decision: z.string().min(1),
});

export type JudgeVerdict = z.infer<typeof judgeVerdictSchema>;

const DECISION_LINE = /^[\s*_#>-]*decision[\s*_]*:(.*)$/i;
const EXPLANATION_LINE = /^[\s*_#>-]*explanation[\s*_]*:(.*)$/i;
const stripEmphasis = (text: string) => text.replace(/[*_`]/g, '').trim();

/**
 * Reads the judge's plain-text reply: the value of the last `Decision:` line (markdown emphasis
 * removed) and the text from `Explanation:` up to that line. A reply without a non-empty
 * `Decision:` line is unusable (the model port then asks once more, in this format). Whether a
 * decision counts as correct is the metric's rule, not the parser's: see `judgeCorrectness` in
 * @multihop/metrics (PAR² A.2: a decision containing "yes", any case).
 */
export function parseJudgeReply(text: string): ReturnType<ReplyFormat<JudgeVerdict>['parse']> {
  const lines = text.split(/\r?\n/);
  let index = -1;
  lines.forEach((line, i) => {
    if (DECISION_LINE.test(line)) index = i;
  });
  if (index < 0) return { ok: false, issues: 'the reply has no "Decision:" line' };
  const decision = stripEmphasis(DECISION_LINE.exec(lines[index] ?? '')?.[1] ?? '');
  if (!decision) return { ok: false, issues: 'the "Decision:" line is empty; it must say yes or no' };
  const start = lines.findIndex((line) => EXPLANATION_LINE.test(line));
  const explanation =
    start >= 0 && start < index
      ? [stripEmphasis(EXPLANATION_LINE.exec(lines[start] ?? '')?.[1] ?? ''), ...lines.slice(start + 1, index)].join('\n').trim()
      : '';
  return { ok: true, value: { explanation, decision } };
}

const judgeReply: ReplyFormat<JudgeVerdict> = {
  instructions: 'Answer in exactly this form:\n\nExplanation: <brief reason for the decision>\nDecision: <yes|no>',
  parse: parseJudgeReply,
  format: (verdict) => `Explanation: ${verdict.explanation}\nDecision: ${verdict.decision}`,
};

/**
 * The ground truth as the judge reads it: one answer as it is; a list (the answer and its
 * aliases, as MuSiQue gives them) as the first, then the others as accepted alternatives.
 */
export function formatGold(value: unknown): string {
  if (typeof value === 'string') return value;
  const golds = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
  if (golds.length <= 1) return golds[0] ?? '';
  return `${golds[0]} (also accepted: ${golds.slice(1).join('; ')})`;
}

/**
 * PAR² appendix A.2 (Figure 3): an LLM judges whether the vital facts of the ground-truth answer
 * are in the prediction, by meaning rather than wording. It answers in plain text, an
 * `Explanation:` line then a `Decision:` line, as the paper's judge does; the paper scores a
 * decision containing "yes" as correct.
 */
export const judgeCorrectnessPrompt = definePrompt({
  id: 'judge.correctness',
  role: 'judge',
  version: '4',
  description: 'LLM-judge correctness (PAR² A.2, Fig. 3): are the vital facts of the ground truth in the predicted answer? Explanation: / Decision: yes|no lines.',
  system: 'You are a careful research assistant who checks answers against a reference answer.',
  template: [
    'Compare a predicted answer with the reference (ground-truth) answer: does the prediction carry what the reference says?',
    '',
    'How to decide:',
    '1. Read the predicted answer and the ground-truth answer side by side.',
    '2. Judge what they mean, not how they are worded; different wording of the same fact is fine unless the wording changes the meaning.',
    '3. Decide yes or no: are the vital facts of the ground truth contained in the predicted answer?',
    '4. When the ground truth names other accepted answers, the prediction needs to carry only one of them.',
    '',
    'Question: {{question}}',
    'Predicted answer: {{prediction}}',
    'Ground-truth answer: {{gold}}',
  ].join('\n'),
  schema: judgeVerdictSchema,
  reply: judgeReply,
  formatters: { gold: formatGold },
});
