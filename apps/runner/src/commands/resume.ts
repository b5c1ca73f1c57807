import { ConfigError } from '@multihop/core';
import type { Io } from '../io';

export interface ResumeCommandOptions {
  thread?: string;
  checkpoints?: string;
  json: boolean;
}

/** `multihop resume <thread>`: continues a run recorded with `run --thread` (being built; see issue 14). */
export async function resumeCommand(_io: Io, options: ResumeCommandOptions): Promise<number> {
  if (!options.thread) throw new ConfigError('resume needs a thread id: multihop resume <thread id>');
  throw new ConfigError('resume: durable runs are not wired yet in this commit');
}
