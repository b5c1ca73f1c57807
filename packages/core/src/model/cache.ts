import { createHash, randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { makeDirectory } from '../files';
import { join } from 'node:path';
import type { ChatMessage } from './port';

export interface CachedResponse {
  text: string;
  usage?: { promptTokens: number; completionTokens: number };
  model: string;
}

export interface ResponseCacheKey {
  model: string;
  messages: ChatMessage[];
  jsonSchema: Record<string, unknown>;
}

/**
 * On-disk response cache keyed by model + rendered prompt + schema, so re-running an
 * evaluation costs no model calls. One JSON file per entry (sharded by hash prefix);
 * writes go through a temp file and a rename, so an interrupted run never leaves a torn entry.
 */
export class ResponseCache {
  constructor(readonly dir: string) {}

  static keyOf(key: ResponseCacheKey): string {
    return createHash('sha256').update(JSON.stringify([key.model, key.messages, key.jsonSchema])).digest('hex');
  }

  private pathOf(hash: string): string {
    return join(this.dir, hash.slice(0, 2), `${hash}.json`);
  }

  async get(key: ResponseCacheKey): Promise<CachedResponse | undefined> {
    try {
      const raw = await readFile(this.pathOf(ResponseCache.keyOf(key)), 'utf8');
      const entry = JSON.parse(raw) as { response?: CachedResponse };
      return entry.response && typeof entry.response.text === 'string' ? entry.response : undefined;
    } catch {
      return undefined;
    }
  }

  private warned = false;

  /**
   * set(), a failure of which is reported once (a process warning naming the directory and the
   * error) and otherwise ignored: the reply in hand is the caller's whether or not it is kept.
   */
  async trySet(key: ResponseCacheKey, response: CachedResponse): Promise<boolean> {
    try {
      await this.set(key, response);
      return true;
    } catch (error) {
      if (!this.warned) {
        this.warned = true;
        process.emitWarning(`the response cache ${this.dir} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): replies are not kept in it, and are paid for again next time`, 'MultihopCacheWarning');
      }
      return false;
    }
  }

  async set(key: ResponseCacheKey, response: CachedResponse): Promise<void> {
    const hash = ResponseCache.keyOf(key);
    const file = this.pathOf(hash);
    makeDirectory(join(this.dir, hash.slice(0, 2)));
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, JSON.stringify({ key: { model: key.model }, response }), 'utf8');
    await rename(tmp, file);
  }
}
