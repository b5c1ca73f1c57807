import type { Provider, ProviderRequest, ProviderResponse, Question } from '@multihop/core';

/** One provider call with when it started and ended (performance.now()). */
export interface TimedCall {
  role: string;
  promptId: string;
  vars: Record<string, unknown>;
  start: number;
  end: number;
}

/** Wraps a provider so every call's start and end times are kept (to show which calls overlapped). */
export function timed(provider: Provider): Provider & { calls: TimedCall[] } {
  const calls: TimedCall[] = [];
  return {
    id: provider.id,
    calls,
    async generate(request: ProviderRequest): Promise<ProviderResponse> {
      const start = performance.now();
      const response = await provider.generate(request);
      calls.push({ role: request.role, promptId: request.promptId, vars: request.vars, start, end: performance.now() });
      return response;
    },
  };
}

/**
 * A provider that answers its first call with `text` at once and makes every later call wait
 * until the request's signal aborts (a run's deadline): a deadline test with no race between them.
 */
export function firstThenWait(text: string): Provider {
  let calls = 0;
  return {
    id: 'first-then-wait',
    async generate(request: ProviderRequest): Promise<ProviderResponse> {
      calls += 1;
      if (calls === 1) return { text, model: 'first-then-wait' };
      return new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal!.reason), { once: true }));
    },
  };
}

/** The question of `questions` whose text starts with `prefix` (tests name the train questions they use). */
export function questionStarting(questions: readonly Question[], prefix: string): Question {
  const found = questions.find((q) => q.text.startsWith(prefix));
  if (!found) throw new Error(`no question starts with "${prefix}"`);
  return found;
}
