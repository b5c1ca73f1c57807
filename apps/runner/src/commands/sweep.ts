import { ConfigError } from '@multihop/core';
import type { Io } from '../io';
import type { EvalCommandOptions } from './eval';

export interface SweepCommandOptions extends Omit<EvalCommandOptions, 'workflows'> {
  workflow: string;
  /** `<setting>=<v1>,<v2>,...` */
  params: string[];
}

export async function sweepCommand(_io: Io, _options: SweepCommandOptions): Promise<number> {
  throw new ConfigError('sweep: not yet implemented');
}
