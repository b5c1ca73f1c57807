import { MultihopError, type CallUsage, type ModelPort, type PromptTemplate } from '@multihop/core';

/** What the PAR² correctness judge answers (appendix A.2, Figure 3). */
export interface JudgeDecision {
  explanation: string;
  decision: 'yes' | 'no';
}

export interface JudgeInput {
  question: string;
  prediction: string;
  /** The ground-truth answer as the judge should read it (join aliases yourself if you want them shown). */
  gold: string;
}

export interface JudgeOptions {
  /** The judge prompt, e.g. `judgeCorrectnessPrompt` from @multihop/prompts. */
  prompt: PromptTemplate<JudgeDecision>;
  signal?: AbortSignal;
}

export interface JudgeVerdict extends JudgeDecision {
  /** 1 when the judge said yes: PAR²'s Correct is the mean of this over the questions (eq. 2). */
  correct: 0 | 1;
  /** The reply text the decision was read from, kept for audits of the judge. */
  text: string;
  usage: CallUsage;
}

/** The judge's reply is not in the `Explanation: ... / Decision: yes|no` format. */
export class JudgeParseError extends MultihopError {
  constructor(
    message: string,
    readonly raw: string,
  ) {
    super('JUDGE_PARSE', message);
  }
}

/**
 * Asks the model, under the `judge` role, whether the prediction contains the vital facts of
 * the gold answer. The prompt is an option rather than an import so that metrics does not
 * depend on the prompt registry, and a study can swap judge prompts without forking this code.
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
  return { explanation, decision, correct: decision === 'yes' ? 1 : 0, text: result.text, usage: result.usage };
}

const DECISION_LINE = /^[\s*_#>-]*decision[\s*_]*:(.*)$/i;
const EXPLANATION_LINE = /^[\s*_#>-]*explanation[\s*_]*:(.*)$/i;

/**
 * Parses the judge's plain-text reply. PAR² scores any reply containing "yes" as correct; that
 * counts "Decision: no — a yes would need the year" as a yes, so this parser is strict instead:
 * exactly one `Decision:` line, whose value is `yes` or `no` (any case, surrounding markdown
 * emphasis allowed), and the explanation is the text between `Explanation:` and that line.
 */
export function parseJudgeDecision(text: string): JudgeDecision {
  const lines = text.split(/\r?\n/);
  const decisionLines = lines.flatMap((line, index) => {
    const match = DECISION_LINE.exec(line);
    return match ? [{ index, value: match[1] ?? '' }] : [];
  });
  if (decisionLines.length !== 1) {
    throw new JudgeParseError(`expected exactly one "Decision:" line, found ${decisionLines.length}`, text);
  }
  const [{ index, value }] = decisionLines as [{ index: number; value: string }];
  const decision = value.replace(/[*_`]/g, '').trim().toLowerCase();
  if (decision !== 'yes' && decision !== 'no') {
    throw new JudgeParseError(`the decision must be "yes" or "no", got "${value.trim()}"`, text);
  }
  const start = lines.findIndex((line) => EXPLANATION_LINE.test(line));
  let explanation = '';
  if (start >= 0 && start < index) {
    const first = (EXPLANATION_LINE.exec(lines[start] ?? '')?.[1] ?? '').replace(/^[*_]+/, '');
    explanation = [first, ...lines.slice(start + 1, index)].join('\n').trim();
  }
  return { explanation, decision };
}
