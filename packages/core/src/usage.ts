import type { RoleUsage, Usage } from './types';

export interface CallUsage {
  role: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  /** The provider reported no usage; the counts are estimated from the text length. */
  estimated: boolean;
  cached: boolean;
  /** Provider round trips for this call (1, or 2 with a schema repair). */
  attempts: number;
  latencyMs: number;
}

export function emptyUsage(): Usage {
  return { llmCalls: 0, promptTokens: 0, completionTokens: 0, estimated: false, byRole: {}, retrievalCalls: 0, wallMs: 0 };
}

/** Prompt plus completion tokens: what "tokens" means in budgets, costs and the router's λ. */
export function totalTokens(usage: { readonly promptTokens: number; readonly completionTokens: number }): number {
  return usage.promptTokens + usage.completionTokens;
}

/** Rough token estimate (≈4 characters per token) for providers that report no usage. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}

/** Accumulates call usage per role. */
export class UsageMeter {
  private readonly usage: Usage = emptyUsage();

  recordCall(call: CallUsage): void {
    const u = this.usage;
    const role: RoleUsage = (u.byRole[call.role] ??= {
      calls: 0,
      promptTokens: 0,
      completionTokens: 0,
      estimated: false,
      cachedCalls: 0,
    });
    role.calls += 1;
    role.promptTokens += call.promptTokens;
    role.completionTokens += call.completionTokens;
    role.estimated ||= call.estimated;
    if (call.cached) role.cachedCalls += 1;
    u.llmCalls += 1;
    u.promptTokens += call.promptTokens;
    u.completionTokens += call.completionTokens;
    u.estimated ||= call.estimated;
  }

  recordRetrieval(count = 1): void {
    this.usage.retrievalCalls += count;
  }

  get totalTokens(): number {
    return totalTokens(this.usage);
  }

  get llmCalls(): number {
    return this.usage.llmCalls;
  }

  snapshot(wallMs?: number): Usage {
    const copy: Usage = structuredClone(this.usage);
    if (wallMs !== undefined) copy.wallMs = wallMs;
    return copy;
  }
}

/** Adds usages (e.g. across the questions of an evaluation). */
export function addUsage(a: Usage, b: Usage): Usage {
  const out = structuredClone(a);
  out.llmCalls += b.llmCalls;
  out.promptTokens += b.promptTokens;
  out.completionTokens += b.completionTokens;
  out.estimated ||= b.estimated;
  out.retrievalCalls += b.retrievalCalls;
  out.wallMs += b.wallMs;
  for (const [role, r] of Object.entries(b.byRole)) {
    const t = (out.byRole[role] ??= { calls: 0, promptTokens: 0, completionTokens: 0, estimated: false, cachedCalls: 0 });
    t.calls += r.calls;
    t.promptTokens += r.promptTokens;
    t.completionTokens += r.completionTokens;
    t.estimated ||= r.estimated;
    t.cachedCalls += r.cachedCalls;
  }
  return out;
}
