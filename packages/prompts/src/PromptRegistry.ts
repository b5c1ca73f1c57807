import { MultihopError } from '@multihop/core';
import type { Prompt } from './definePrompt';

/** All prompts by id; methods register theirs, the runner and the offline model look them up. */
export class PromptRegistry {
  private readonly byId = new Map<string, Prompt<unknown>>();

  constructor(prompts: ReadonlyArray<Prompt<any>> = []) {
    for (const prompt of prompts) this.register(prompt);
  }

  register(prompt: Prompt<any>): this {
    const existing = this.byId.get(prompt.id);
    if (existing && existing !== prompt) {
      throw new MultihopError('PROMPT_DUPLICATE', `prompt id ${prompt.id} is already registered (version ${existing.version})`);
    }
    this.byId.set(prompt.id, prompt);
    return this;
  }

  get<T = unknown>(id: string): Prompt<T> {
    const prompt = this.byId.get(id);
    if (!prompt) {
      throw new MultihopError('PROMPT_UNKNOWN', `no prompt with id "${id}"; known: ${[...this.byId.keys()].sort().join(', ')}`);
    }
    return prompt as Prompt<T>;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Every prompt, sorted by id; optionally only one role's. */
  list(filter: { role?: string } = {}): Array<Prompt<unknown>> {
    return [...this.byId.values()].filter((p) => !filter.role || p.role === filter.role).sort((a, b) => a.id.localeCompare(b.id));
  }

  roles(): string[] {
    return [...new Set([...this.byId.values()].map((p) => p.role))].sort();
  }
}
