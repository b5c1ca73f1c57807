import type { ZodType } from 'zod';
import type { CallUsage } from '../usage';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * A prompt whose reply is plain text in a fixed form rather than JSON (PAR²'s judge answers
 * with `Explanation:` and `Decision:` lines): how the model is told the form, how a reply is
 * read, and how a value is written back as a reply (the offline model answers with it).
 */
export interface ReplyFormat<T> {
  /** Appended to the prompt, and shown again in the repair round. */
  instructions: string;
  parse(text: string): { ok: true; value: T } | { ok: false; issues: string };
  format(value: T): string;
  /**
   * A regular expression (JavaScript/PCRE source, no slashes) every valid reply matches whole:
   * a provider with constrained decoding (vLLM's `structured_outputs.regex`, SGLang's `regex`) can then only
   * produce valid replies, instead of the parser finding out afterwards (MMOA-RAG's Selector).
   */
  pattern?: string;
}

/**
 * What the model port needs of a prompt. @multihop/prompts implements it; anything with the
 * same shape works, so core does not depend on the prompt registry.
 */
export interface PromptTemplate<T = unknown> {
  id: string;
  role: string;
  version: string;
  schema: ZodType<T>;
  /** Set for a plain-text reply; absent, the reply is JSON checked against `schema`. */
  reply?: ReplyFormat<T>;
  /** Renders the messages; throws naming the variable when one is missing. */
  render(vars: Record<string, unknown>): ChatMessage[];
}

export interface ModelCallRequest<T> {
  prompt: PromptTemplate<T>;
  vars: Record<string, unknown>;
  /** Defaults to the prompt's own schema. */
  schema?: ZodType<T>;
  /** Defaults to the prompt's role; selects the per-role model. */
  role?: string;
  /**
   * This call's sampling temperature, overriding the role's configured one: group rollouts draw
   * several candidates at the paper's temperature (HERA samples topologies at 0.9). Providers
   * without sampling (the offline model) ignore it; the response cache keys on it.
   */
  temperature?: number;
  signal?: AbortSignal;
}

export interface ModelCallResult<T> {
  output: T;
  /** The reply text the output was parsed from (the repaired one when a repair happened). */
  text: string;
  usage: CallUsage;
  /** The messages the reply answered (with the repair round's, when one was needed); absent from ports that do not say. */
  messages?: ChatMessage[];
  /** The reply as the server sent it, when `text` is less (a reasoning model's `<think>` draft dropped). */
  raw?: string;
  /** When the first reply broke the schema and the repair round mended it: that reply (paid for) and what was wrong with it. */
  repaired?: { raw: string; issues: string };
}

/** The role-addressed, schema-checked model call every workflow makes. */
export interface ModelPort {
  call<T>(request: ModelCallRequest<T>): Promise<ModelCallResult<T>>;
  /** Which model serves a role, e.g. `openai:gpt-4o-mini` or `offline`. */
  modelFor(role: string): string;
}

/** One round trip to a model, as a provider sees it. */
export interface ProviderRequest {
  role: string;
  promptId: string;
  messages: ChatMessage[];
  /** The call's variables, for providers (the offline model) that answer from them, not from text. */
  vars: Record<string, unknown>;
  schema: ZodType;
  /** JSON Schema of `schema`, for providers with a structured-output mode. */
  jsonSchema: Record<string, unknown>;
  /** The call's sampling temperature, when the caller set one (ModelCallRequest.temperature). */
  temperature?: number;
  /** The reply's pattern when the prompt declares one (ReplyFormat.pattern), for constrained decoding. */
  pattern?: string;
  /** `text` when the prompt asks for a plain-text reply (a provider must not force JSON mode then); absent means `json`. */
  format?: 'json' | 'text';
  /** 0 for the first attempt, 1 for the schema-repair round. */
  attempt: number;
  signal?: AbortSignal;
}

export interface ProviderResponse {
  text: string;
  /** Absent when the provider reported none; the port then estimates and marks it. */
  usage?: { promptTokens: number; completionTokens: number };
  model: string;
  /**
   * Why the server stopped writing, as it said (OpenAI's `finish_reason`: `stop`, `length`, …);
   * absent when it did not say. `length` means the reply was cut off at the token limit, and the
   * port refuses it rather than parse a truncated answer.
   */
  finishReason?: string;
  /** The server's separate reasoning text (`reasoning_content` of reasoning models), when it sent one; never parsed as the reply. */
  reasoning?: string;
}

export interface Provider {
  /** Stable id used in usage and labels, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  /**
   * Everything that changes its replies besides the prompt (endpoint, temperature, token limit,
   * JSON mode), for cache keys; defaults to `id`.
   */
  readonly fingerprint?: string;
  generate(request: ProviderRequest): Promise<ProviderResponse>;
}
