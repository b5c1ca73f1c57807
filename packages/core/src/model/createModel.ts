import { z, type ZodType } from 'zod';
import { ModelOutputError, MultihopError, ProviderError, recordSpent, RunAbortedError } from '../errors';
import { estimateTokens, type CallUsage } from '../usage';
import { ResponseCache } from './cache';
import { jsonCandidates, malformedJson } from './json';
import { ConcurrencyLimiter } from './limiter';
import { asProviderError } from './providerFailure';
import type {
  ChatMessage,
  ModelCallRequest,
  ModelCallResult,
  ModelPort,
  Provider,
  ProviderRequest,
  ProviderResponse,
} from './port';

export interface ModelOptions {
  /** Serves every role without an override. */
  provider: Provider;
  /** Per-role providers: the papers give some roles their own model (PAR²'s ESC, HERA's orchestrator). */
  roles?: Record<string, Provider>;
  /** Most provider requests in flight at once across all roles (default 4). */
  concurrency?: number;
  /** On-disk response cache: a directory or a ResponseCache. Off by default. */
  cache?: string | ResponseCache;
}

/**
 * The model port: renders the prompt, sends it to the role's provider through the
 * concurrency limiter (and the optional cache), parses bare or fenced JSON, validates it
 * with the schema, and on a violation gives the model exactly one repair round that shows it
 * the validation error. A second failure throws ModelOutputError with both raw replies.
 */
export function createModel(options: ModelOptions): ModelPort {
  const limiter = new ConcurrencyLimiter(options.concurrency ?? 4);
  const cache = typeof options.cache === 'string' ? new ResponseCache(options.cache) : options.cache;
  const providerFor = (role: string): Provider => options.roles?.[role] ?? options.provider;

  async function send(provider: Provider, request: ProviderRequest): Promise<ProviderResponse & { cached: boolean }> {
    const key = cacheKey(provider, request);
    const hit = cache ? await cache.get(key) : undefined;
    if (hit) return { ...hit, cached: true };
    throwIfAborted(request.signal);
    const response = await limiter.run(
      async () => {
        throwIfAborted(request.signal);
        try {
          return await provider.generate(request);
        } catch (error) {
          throw asProviderError(error, provider, request.signal);
        }
      },
      request.signal,
      (reason) => new RunAbortedError(reason),
    );
    return { ...response, cached: false };
  }

  return {
    modelFor: (role) => providerFor(role).id,

    async call<T>(request: ModelCallRequest<T>): Promise<ModelCallResult<T>> {
      const role = request.role ?? request.prompt.role;
      const schema: ZodType<T> = request.schema ?? request.prompt.schema;
      const provider = providerFor(role);
      const jsonSchema = jsonSchemaOf(schema);
      const started = Date.now();
      const usage: CallUsage = {
        role,
        model: provider.id,
        promptTokens: 0,
        completionTokens: 0,
        estimated: false,
        cached: false,
        attempts: 0,
        latencyMs: 0,
      };
      const reply = request.prompt.reply;
      const read = (text: string): Parsed<T> => {
        if (!reply) return parseReply(text, schema);
        const parsed = reply.parse(text);
        if (!parsed.ok) return parsed;
        const checked = schema.safeParse(parsed.value);
        return checked.success ? { ok: true, value: checked.data } : { ok: false, issues: z.prettifyError(checked.error) };
      };
      const raws: string[] = [];
      // The replies the provider sent (not the cache) and the messages each answered: a call that
      // ends well caches each under its own messages, so a replay repairs as the call did, at its cost.
      const fresh: Array<{ messages: ChatMessage[]; response: ProviderResponse }> = [];
      let messages: ChatMessage[] = request.prompt.render(request.vars);
      let issues = '';

      for (let attempt = 0; attempt < 2; attempt++) {
        let response;
        try {
          response = await send(provider, {
            role,
            promptId: request.prompt.id,
            messages,
            vars: request.vars,
            schema,
            jsonSchema,
            format: reply ? 'text' : 'json',
            ...(reply?.pattern ? { pattern: reply.pattern } : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            attempt,
            signal: request.signal,
          });
        } catch (error) {
          // The repair round failed at the provider: the reply that broke the schema was paid for and is kept with the error,
          // unless the error is the signal's reason, one object every call aborted by it shares.
          if (raws.length && !(request.signal?.aborted && error === request.signal.reason)) {
            usage.latencyMs = Date.now() - started;
            recordSpent(error, { raw: [...raws], issues, usage });
          }
          throw error;
        }
        usage.attempts += 1;
        usage.cached = response.cached;
        if (response.usage) {
          usage.promptTokens += response.usage.promptTokens;
          usage.completionTokens += response.usage.completionTokens;
        } else {
          usage.estimated = true;
          usage.promptTokens += estimateTokens(messages.map((m) => m.content).join('\n'));
          usage.completionTokens += estimateTokens(response.text);
        }
        raws.push(response.text);
        if (!response.cached) fresh.push({ messages, response });
        if (response.finishReason === 'length') {
          // A reply cut off at the token limit is never parsed (a truncated plain-text answer would
          // pass), and a repair round, a longer prompt, would be cut off again.
          usage.latencyMs = Date.now() - started;
          throw new ModelOutputError(
            `the ${role} model's reply to prompt ${request.prompt.id} was cut off at the token limit (finish_reason "length"); raise the model's maxTokens in multihop.config.json (a reply's limit; --max-tokens is the run's budget), or use a model with a longer output limit`,
            { role, promptId: request.prompt.id, raw: raws, issues: 'the reply was cut off at the token limit', usage },
          );
        }

        const text = visibleReply(response.text);
        const parsed: Parsed<T> = !reply && text.trim() === '' ? { ok: false, issues: emptyReply(response) } : read(text);
        if (parsed.ok) {
          if (cache) {
            const temperature = request.temperature !== undefined ? { temperature: request.temperature } : {};
            // The mended round first: a replay that finds the first round's broken reply finds the mended one too.
            // Best effort: a cache that cannot be written (a full disk, a path through a file) must not
            // throw away a reply that was paid for; it is said once, and the call returns its answer.
            for (const round of [...fresh].reverse()) await cache.trySet(cacheKey(provider, { messages: round.messages, jsonSchema, vars: request.vars, ...temperature }), round.response);
          }
          usage.latencyMs = Date.now() - started;
          return {
            output: parsed.value,
            text,
            usage,
            messages,
            ...(text !== response.text ? { raw: response.text } : {}),
            ...(raws.length > 1 ? { repaired: { raw: raws[0]!, issues } } : {}),
          };
        }
        issues = parsed.issues;
        messages = [
          ...messages,
          { role: 'assistant', content: response.text },
          { role: 'user', content: reply ? textRepairInstruction(issues, reply.instructions) : repairInstruction(issues, jsonSchema) },
        ];
      }

      usage.latencyMs = Date.now() - started;
      throw new ModelOutputError(
        `the ${role} model's reply to prompt ${request.prompt.id} broke its schema after one repair round: ${oneLine(issues)}`,
        { role, promptId: request.prompt.id, raw: raws, issues, usage },
      );
    },
  };
}

/**
 * What identifies a reply: the provider's settings, the rendered prompt, the schema, and a
 * `sample` variable when the caller draws several candidates for one prompt (GRPO groups), so
 * the cache keeps them apart instead of returning the first for all.
 */
function cacheKey(provider: Provider, request: Pick<ProviderRequest, 'messages' | 'jsonSchema' | 'vars' | 'temperature'>) {
  const sample = request.vars['sample'];
  let model = provider.fingerprint ?? provider.id;
  if (request.temperature !== undefined) model = `${model}#temperature=${request.temperature}`;
  return { model: sample === undefined ? model : `${model}#sample=${String(sample)}`, messages: request.messages, jsonSchema: request.jsonSchema };
}

type Parsed<T> = { ok: true; value: T } | { ok: false; issues: string };

/**
 * The reply a schema reads: the text without the `<think>…</think>` drafts reasoning models
 * (DeepSeek-R1, QwQ, Qwen3 on servers without a reasoning parser) write before it. A draft left
 * open runs to the end, so nothing after it is a reply; a `</think>` with no `<think>` before it
 * closes a draft the chat template opened in the prompt (R1's and QwQ's do), so only what follows
 * it is the reply. Text with neither tag is unchanged. The raw reply, drafts included, is the
 * call's `raw` (and the trace's) when it differs.
 */
export function visibleReply(text: string): string {
  if (!/<\/?think>/i.test(text)) return text;
  const firstClose = text.search(/<\/think>/i);
  const firstOpen = text.search(/<think>/i);
  // The template opened the draft: everything up to the first </think> is the draft.
  const rest = firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen) ? text.slice(firstClose + '</think>'.length) : text;
  const closed = rest.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const open = closed.search(/<think>/i);
  return (open >= 0 ? closed.slice(0, open) : closed).trim();
}

function emptyReply(response: ProviderResponse): string {
  const why = [
    response.reasoning ? 'the server sent only reasoning text (reasoning_content)' : '',
    response.finishReason ? `finish_reason "${response.finishReason}"` : '',
  ].filter(Boolean);
  return `the reply was empty${why.length ? ` (${why.join('; ')})` : ''}`;
}

/** zod's multi-line issue list (`✖ message` / `→ at path` lines) as one line, for an error message. */
function oneLine(issues: string): string {
  return issues.replace(/\n\s*→ at /g, ' at ').replace(/\s*\n\s*/g, '; ').trim();
}

/**
 * Parses and validates a reply: the first JSON value in it (bare, fenced or inside prose) that the
 * zod schema accepts. When none does, the issues are those of the first object found (a cited
 * `[1]` before it is not the reply), else of the first value.
 */
export function parseReply<T>(text: string, schema: ZodType<T>): Parsed<T> {
  let shown: { issues: string; object: boolean } | undefined;
  for (const json of jsonCandidates(text)) {
    const result = schema.safeParse(json);
    if (result.success) return { ok: true, value: result.data };
    const object = json !== null && typeof json === 'object' && !Array.isArray(json);
    if (!shown || (!shown.object && object)) shown = { issues: z.prettifyError(result.error), object };
  }
  if (shown) return { ok: false, issues: shown.issues };
  const malformed = malformedJson(text);
  return { ok: false, issues: malformed ? `the reply's JSON object is not valid JSON (${malformed})` : 'the reply contains no JSON object' };
}

function repairInstruction(issues: string, jsonSchema: Record<string, unknown>): string {
  return [
    'Your previous reply could not be used because it does not match the required output format.',
    `Validation errors:\n${issues}`,
    `Reply again with only one JSON value that satisfies this JSON Schema:\n${JSON.stringify(jsonSchema)}`,
  ].join('\n\n');
}

function textRepairInstruction(issues: string, instructions: string): string {
  return [
    'Your previous reply could not be used because it does not follow the required output format.',
    `Problems:\n${issues}`,
    `Reply again, in exactly this format:\n${instructions}`,
  ].join('\n\n');
}

const jsonSchemaMemo = new WeakMap<object, Record<string, unknown>>();

/** JSON Schema of a zod schema (memoised; `{}` for schemas JSON Schema cannot express). */
export function jsonSchemaOf(schema: ZodType): Record<string, unknown> {
  let out = jsonSchemaMemo.get(schema);
  if (!out) {
    try {
      out = z.toJSONSchema(schema, { unrepresentable: 'any' }) as Record<string, unknown>;
    } catch {
      out = {};
    }
    jsonSchemaMemo.set(schema, out);
  }
  return out;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RunAbortedError(signal.reason);
}

