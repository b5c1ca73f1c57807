import type { Provider, ProviderRequest, ProviderResponse } from './port';

/** A scripted reply: fixed text, or a function of the request (to answer from its variables). */
export type ScriptedReply = string | ((request: ProviderRequest) => string | Promise<string>);

export interface ScriptedProviderOptions {
  /** Replies per role, used in order; the last one repeats when `repeatLast` is set. */
  replies: Record<string, ScriptedReply[]>;
  repeatLast?: boolean;
  /** Simulated latency per call (benchmarks of fan-out use 200 ms). */
  latencyMs?: number;
  /** Usage to report per call; omit to report none (the port then estimates). */
  usage?: { promptTokens: number; completionTokens: number };
  id?: string;
}

/**
 * A provider that replays scripted replies per role: the stand-in for a network model in
 * tests that must force a particular path (CONTINUE then STOP, a broken schema, ...).
 * `requests` records every request it saw, in order.
 */
export function createScriptedProvider(options: ScriptedProviderOptions): Provider & { requests: ProviderRequest[] } {
  const cursor = new Map<string, number>();
  const requests: ProviderRequest[] = [];
  return {
    id: options.id ?? 'scripted',
    requests,
    async generate(request: ProviderRequest): Promise<ProviderResponse> {
      requests.push(request);
      const script = options.replies[request.role];
      if (!script || script.length === 0) throw new Error(`scripted provider has no reply for role "${request.role}"`);
      const index = cursor.get(request.role) ?? 0;
      if (index >= script.length && !options.repeatLast) {
        throw new Error(`scripted provider ran out of replies for role "${request.role}" (had ${script.length})`);
      }
      cursor.set(request.role, index + 1);
      const reply = script[Math.min(index, script.length - 1)] as ScriptedReply;
      if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
      const text = typeof reply === 'function' ? await reply(request) : reply;
      return { text, model: options.id ?? 'scripted', ...(options.usage ? { usage: options.usage } : {}) };
    },
  };
}
