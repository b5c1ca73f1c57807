import { PromptRegistry } from './PromptRegistry';
import { chainOfThoughtPrompt, directPrompt, ircotStepPrompt, ragAnswerPrompt, reactStepPrompt } from './templates/baselines';
import { judgeCorrectnessPrompt } from './templates/judge';

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

/** Every built-in prompt. Method packages add theirs as their issues land. */
export const prompts = new PromptRegistry([
  directPrompt,
  chainOfThoughtPrompt,
  ragAnswerPrompt,
  ircotStepPrompt,
  reactStepPrompt,
  judgeCorrectnessPrompt,
]);
