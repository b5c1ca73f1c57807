import { PromptRegistry } from './PromptRegistry';
import { judgeCorrectnessPrompt } from './templates/judge';
import { rerankPrompt } from './templates/rerank';

export { definePrompt, formatPassages, TemplateError, type Prompt, type PromptDefinition } from './definePrompt';
export { PromptRegistry } from './PromptRegistry';
export { judgeCorrectnessPrompt, judgeVerdictSchema, parseJudgeReply, type JudgeVerdict } from './templates/judge';
export { rerankPrompt, rerankSchema, type RerankOutput, type RerankCandidate } from './templates/rerank';
export { LlmReranker, type LlmRerankerOptions } from './LlmReranker';

/**
 * The prompts no method owns: the LLM judge (metrics) and the listwise reranker (`LlmReranker`).
 * Each method package keeps its own prompts and lists them in its manifest; a registry of every
 * prompt is `new PromptRegistry(catalog.prompts)` over the installed methods' manifests.
 */
export const sharedPrompts = new PromptRegistry([judgeCorrectnessPrompt, rerankPrompt]);
