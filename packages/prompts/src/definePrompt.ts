import { jsonSchemaOf, MultihopError, type ChatMessage, type PromptTemplate, type ReplyFormat } from '@multihop/core';
import type { ZodType } from 'zod';

/** A variable is missing or the template is malformed; names the prompt and the variable. */
export class TemplateError extends MultihopError {
  constructor(message: string) {
    super('TEMPLATE', message);
  }
}

export interface PromptDefinition<T> {
  /** Stable id, `<method>.<role>` (e.g. `par2.planner`, `baseline.react-step`). */
  id: string;
  /** The role the call is addressed to; selects the per-role model and the offline handler. */
  role: string;
  /** Bumped whenever the wording or the schema changes: cached replies are keyed by both. */
  version: string;
  /** One line: what the prompt asks for and which paper section it comes from. */
  description: string;
  /** The system message, if any. `{{name}}` marks a variable. */
  system?: string;
  /** The user message. `{{name}}` marks a variable. */
  template: string;
  schema: ZodType<T>;
  /**
   * A plain-text reply form instead of JSON (the judge's `Explanation:` / `Decision:` lines): its
   * instructions replace the JSON output contract, and its parser replaces JSON extraction.
   */
  reply?: ReplyFormat<T>;
  /** How to turn non-string variable values into text (default: passages as a numbered list, other values as JSON). */
  formatters?: Record<string, (value: unknown) => string>;
}

export interface Prompt<T> extends PromptTemplate<T> {
  description: string;
  system?: string;
  template: string;
  /** Every variable the template uses, in order of first use. */
  variables: string[];
}

const VARIABLE = /\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g;

/**
 * Defines a prompt: its text with `{{variables}}`, its output schema and its role. Rendering
 * fails on a missing variable, and appends the output contract (the JSON Schema of the zod
 * schema), so every provider gets the same instructions the parser will hold it to.
 */
export function definePrompt<T>(definition: PromptDefinition<T>): Prompt<T> {
  // Braces left once the variables are taken out are a placeholder mistyped ({{sub-question}}, {{e}): refused, not sent to the model as they are.
  for (const text of [definition.system ?? '', definition.template]) {
    const stray = /[^\n]{0,24}(\{\{|\}\})[^\n]{0,24}/.exec(text.replace(VARIABLE, ''));
    if (stray) throw new TemplateError(`prompt ${definition.id}: a malformed placeholder near "${stray[0].trim()}" (a variable is {{name}}: letters, digits and _)`);
  }
  const variables = [...new Set([...(definition.system ?? '').matchAll(VARIABLE), ...definition.template.matchAll(VARIABLE)].map((m) => m[1] as string))];
  const fill = (text: string, vars: Record<string, unknown>): string =>
    text.replace(VARIABLE, (_, name: string) => formatValue(name, vars[name], definition.formatters?.[name]));

  return {
    id: definition.id,
    role: definition.role,
    version: definition.version,
    description: definition.description,
    system: definition.system,
    template: definition.template,
    schema: definition.schema,
    ...(definition.reply ? { reply: definition.reply } : {}),
    variables,
    render(vars: Record<string, unknown>): ChatMessage[] {
      const missing = variables.filter((name) => vars[name] === undefined || vars[name] === null);
      if (missing.length > 0) {
        throw new TemplateError(`prompt ${definition.id}: missing variable${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`);
      }
      const contract = definition.reply
        ? definition.reply.instructions
        : `Respond with one JSON object and nothing else. It must satisfy this JSON Schema:\n${JSON.stringify(jsonSchemaOf(definition.schema))}`;
      const messages: ChatMessage[] = [];
      if (definition.system) messages.push({ role: 'system', content: fill(definition.system, vars) });
      messages.push({ role: 'user', content: `${fill(definition.template, vars)}\n\n${contract}` });
      return messages;
    },
  };
}

function formatValue(name: string, value: unknown, formatter?: (value: unknown) => string): string {
  if (formatter) return formatter(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // An empty list is no more passages than reasoning steps (IRCoT's first step has no thoughts yet): it reads "(none)".
  if (Array.isArray(value) && value.length === 0) return '(none)';
  if (Array.isArray(value) && value.every(isPassageLike)) return formatPassages(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v, i) => `${i + 1}. ${v}`).join('\n');
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    throw new TemplateError(`variable "${name}" cannot be rendered as text`);
  }
}

function isPassageLike(value: unknown): value is { title: string; text: string; id?: string } {
  return typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string' && typeof (value as { title?: unknown }).title === 'string';
}

/** Passages as the prompts show them: `[n] Title: text`, numbered from 1. */
export function formatPassages(passages: ReadonlyArray<{ title: string; text: string }>): string {
  if (passages.length === 0) return '(no passages)';
  return passages.map((p, i) => `[${i + 1}] ${p.title}: ${p.text}`).join('\n');
}
