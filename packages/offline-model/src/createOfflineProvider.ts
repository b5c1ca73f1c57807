import { createModel, MultihopError, type ModelOptions, type ModelPort, type Provider } from '@multihop/core';
import { judge } from './handlers/judge';
import { rerank } from './handlers/rerank';
import type { OfflineHandler } from './OfflineHandler';

/**
 * The roles the offline model answers on its own: the ones no method owns (the LLM judge, the
 * reranker). Each method ships the handlers of its own roles under its `./offline` export.
 */
export const builtinOfflineHandlers: readonly OfflineHandler[] = [judge, rerank];

export interface OfflineProviderOptions {
  /**
   * Handlers for the roles of your prompts: a method's `offlineHandlers` (from
   * `@multihop/<method>/offline`), or your own from `defineOfflineHandler`. A handler for a role
   * the built-ins answer replaces the built-in.
   */
  handlers?: readonly OfflineHandler<any>[];
  /**
   * Answers each call after this many milliseconds (aborted with the call), to stand in for a
   * network model's latency in benchmarks and crash tests. The answers do not change. Default 0.
   */
  latencyMs?: number;
}

/**
 * The offline provider: dispatches on the call's role and answers from its variables (not the
 * rendered text), deterministically. It returns JSON text like a real model would, so the
 * port's parsing and validation run the same way; it reports no usage, so every token count
 * of an offline run is an estimate and marked as one.
 */
export function createOfflineProvider(options: OfflineProviderOptions = {}): Provider {
  const handlers = new Map<string, OfflineHandler<any>>();
  for (const handler of builtinOfflineHandlers) handlers.set(handler.role, handler);
  // A method's handler may stand in for a built-in one (the judge's, the reranker's); two of the
  // given handlers for one role would leave one method's calls answered by the other's rules.
  const given = new Map<string, OfflineHandler<any>>();
  for (const handler of options.handlers ?? []) {
    const earlier = given.get(handler.role);
    if (earlier && earlier !== handler) {
      throw new MultihopError(
        'OFFLINE_ROLE',
        `two offline handlers answer role "${handler.role}" (prompts ${earlier.promptIds.join(', ')}; prompts ${handler.promptIds.join(', ')}): the offline model chooses a handler by role, so each method's prompts need roles of their own (prefix them with the method's id)`,
      );
    }
    given.set(handler.role, handler);
    handlers.set(handler.role, handler);
  }
  return {
    id: 'offline',
    async generate(request) {
      const handler = handlers.get(request.role);
      if (!handler) {
        throw new MultihopError(
          'OFFLINE_ROLE',
          `the offline model has no handler for role "${request.role}" (prompt ${request.promptId}); it answers: ${[...handlers.keys()].sort().join(', ')} (a library caller passes the method's offlineHandlers from @multihop/<method>/offline; a method's author defines one with defineOfflineHandler(<the prompt>, …) in the method's src/offline/ and lists it in its offlineHandlers)`,
        );
      }
      if (options.latencyMs) await pause(options.latencyMs, request.signal);
      return { text: handler.reply(handler.answer(request.vars, request), request.promptId), model: 'offline' };
    },
  };
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A model port served entirely by the offline model. */
export function offlineModel(options: OfflineProviderOptions & Omit<ModelOptions, 'provider' | 'roles'> = {}): ModelPort {
  const { handlers, ...rest } = options;
  return createModel({ ...rest, provider: createOfflineProvider({ handlers }) });
}
