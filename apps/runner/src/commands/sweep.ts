import { ConfigError } from '@multihop/core';
import type { Io } from '../io';
import { evaluate, type EvaluatedWorkflow } from '../eval/evaluate';
import { evaluatedWorkflow } from '../eval/runPair';
import { findWorkflow } from '../workflows';
import { parseSetFlags, parseValueList, settingAssignments } from '../workflowSettings';
import type { EvalCommandOptions } from './eval';

export interface SweepCommandOptions extends Omit<EvalCommandOptions, 'workflows'> {
  workflow: string;
  /** `<setting>=<v1>,<v2>,...`; several params sweep every combination. */
  params: string[];
}

/**
 * `multihop sweep`: one workflow at each value of one or more of its settings (PAR²'s hop-budget
 * study: `--param hopBudget=3,5,7,10`), on the same questions, into one summary with a row per
 * value. Each value is checked by the workflow's settings schema before anything runs.
 */
export async function sweepCommand(io: Io, options: SweepCommandOptions): Promise<number> {
  const { workflow: id, params, set, ...rest } = options;
  if (params.length === 0) throw new ConfigError('sweep needs --param <setting>=<v1>,<v2>,... (e.g. --param hopBudget=3,5,7,10)');
  const swept = params.map((param) => {
    const match = /^([A-Za-z_]\w*)=(.+)$/s.exec(param.trim());
    if (!match) throw new ConfigError(`--param ${param}: expected <setting>=<v1>,<v2>,..., e.g. --param hopBudget=3,5,7,10`);
    const values = parseValueList(match[2]!, `--param ${param}`);
    if (new Set(values.map((v) => JSON.stringify(v))).size !== values.length) throw new ConfigError(`--param ${param}: a value appears twice`);
    return { key: match[1]!, values };
  });
  const repeated = swept.find((p, i) => swept.findIndex((q) => q.key === p.key) !== i);
  if (repeated) throw new ConfigError(`--param ${repeated.key} is given twice`);
  // A --set of a swept setting would be overridden by every value swept: refused, not ignored.
  const { methodId } = findWorkflow(id);
  const clash = parseSetFlags(set ?? []).find((a) => (a.target === id || a.target === methodId) && swept.some((p) => p.key === a.key));
  if (clash) throw new ConfigError(`${clash.where}: sweep --param ${clash.key} sets ${clash.key} to each value swept; drop the --set, or add its value to --param ${clash.key}`);
  const base = settingAssignments(set);
  // Every combination of the swept values, in the order given (the first param varies slowest).
  let combinations: Array<Record<string, unknown>> = [{}];
  for (const { key, values } of swept) combinations = combinations.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  const variants: EvaluatedWorkflow[] = combinations.map((combination) => {
    const label = `${id}[${Object.entries(combination).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(',')}]`;
    const given = Object.entries(combination).map(([key, value]) => ({ target: id, key, value, where: `--param ${key}=${JSON.stringify(value)}` }));
    const selected = findWorkflow(id, [...base, ...given]);
    return evaluatedWorkflow(label, selected);
  });
  return evaluate(io, 'sweep', variants, rest, {
    sweep: {
      workflow: id,
      params: Object.fromEntries(swept.map((p) => [p.key, p.values])),
      rows: Object.fromEntries(variants.map((v, i) => [v.id, combinations[i]!])),
    },
  });
}
