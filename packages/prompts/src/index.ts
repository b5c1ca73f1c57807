import { PromptRegistry } from './PromptRegistry';
import { chainOfThoughtPrompt, directPrompt, ircotStepPrompt, ragAnswerPrompt, reactStepPrompt } from './templates/baselines';
import { judgeCorrectnessPrompt } from './templates/judge';
import { par2EscPrompt, par2PlannerPrompt, par2QueryFormulatorPrompt, par2WriterPrompt } from './templates/par2';
import { rerankPrompt } from './templates/rerank';
import { operaAnalysisAnswerPrompt, operaPlanPrompt, operaPlanRepairPrompt, operaRewritePrompt, operaSynthesisPrompt } from './templates/opera';

export { definePrompt, formatPassages, TemplateError, type Prompt, type PromptDefinition } from './definePrompt';
export { PromptRegistry } from './PromptRegistry';
export {
  answerSchema,
  reasonedAnswerSchema,
  ircotStepSchema,
  reactStepSchema,
  directPrompt,
  chainOfThoughtPrompt,
  ragAnswerPrompt,
  ircotStepPrompt,
  reactStepPrompt,
} from './templates/baselines';
export { judgeCorrectnessPrompt, judgeVerdictSchema, type JudgeVerdict } from './templates/judge';
export {
  par2PlannerPrompt,
  par2WriterPrompt,
  par2EscPrompt,
  par2QueryFormulatorPrompt,
  par2PlanSchema,
  par2WriterSchema,
  par2EscSchema,
  par2QuerySchema,
} from './templates/par2';
export {
  operaPlanPrompt,
  operaPlanRepairPrompt,
  operaAnalysisAnswerPrompt,
  operaRewritePrompt,
  operaSynthesisPrompt,
  operaPlanSchema,
  operaAnalysisSchema,
  operaRewriteSchema,
  operaSynthesisSchema,
} from './templates/opera';
export { rerankPrompt, rerankSchema, type RerankOutput, type RerankCandidate } from './templates/rerank';

/** Every built-in prompt. Method packages add theirs as their issues land. */
export const prompts = new PromptRegistry([
  directPrompt,
  chainOfThoughtPrompt,
  ragAnswerPrompt,
  ircotStepPrompt,
  reactStepPrompt,
  judgeCorrectnessPrompt,
  par2PlannerPrompt,
  par2WriterPrompt,
  par2EscPrompt,
  par2QueryFormulatorPrompt,
  operaPlanPrompt,
  operaPlanRepairPrompt,
  operaAnalysisAnswerPrompt,
  operaRewritePrompt,
  operaSynthesisPrompt,
  rerankPrompt,
]);
