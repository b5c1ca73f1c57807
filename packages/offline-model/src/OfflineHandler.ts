import { MultihopError, type PromptTemplate, type ProviderRequest } from '@multihop/core';

/** Answers one prompt role from the call's variables, with an object of the prompt's output type. */
export type OfflineAnswer<T> = (vars: Record<string, unknown>, request: ProviderRequest) => T;

/**
 * The offline model's answer to one role: typed against the prompt's zod schema, so a handler
 * that returns the wrong shape fails to compile, not at run time. Several prompts of one role
 * (OPERA's plan and plan-repair) share a handler when they share an output type.
 */
export interface OfflineHandler<T = unknown> {
  role: string;
  /** Ids of the prompts this handler answers. */
  promptIds: readonly string[];
  answer: OfflineAnswer<T>;
  /**
   * The reply text for an answer to prompt `promptId`: the prompt's plain-text form when it has
   * one (the judge's `Explanation:` / `Decision:` lines), else JSON, as a real model would write it.
   */
  reply(value: T, promptId: string): string;
}

export function defineOfflineHandler<T>(prompt: PromptTemplate<T> | readonly PromptTemplate<T>[], answer: OfflineAnswer<T>): OfflineHandler<T> {
  const prompts = Array.isArray(prompt) ? (prompt as readonly PromptTemplate<T>[]) : [prompt as PromptTemplate<T>];
  const role = prompts[0]?.role;
  if (!role) throw new MultihopError('OFFLINE_HANDLER', 'an offline handler needs at least one prompt');
  const other = prompts.find((p) => p.role !== role);
  if (other) throw new MultihopError('OFFLINE_HANDLER', `an offline handler answers one role; ${other.id} is role "${other.role}", not "${role}"`);
  const forms = new Map(prompts.flatMap((p) => (p.reply ? [[p.id, p.reply] as const] : [])));
  return {
    role,
    promptIds: prompts.map((p) => p.id),
    answer,
    reply: (value, promptId) => {
      const form = forms.get(promptId);
      return form ? form.format(value) : JSON.stringify(value);
    },
  };
}
