import { main } from '../src/cli';
import type { Io } from '../src/io';

/** Runs the CLI in process and returns its exit code and what it printed. */
export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) };
  const code = await main(argv, io);
  return { code, out, err };
}
