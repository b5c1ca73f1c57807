import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@multihop/core';
import type { Io } from '../io';
import { studioAssets } from '../studio/assets';
import { PathRefused } from '../studio/paths';
import { buildReport } from '../studio/report';

/** `multihop report DIR [--out FILE]`: the studio's eval view of DIR as one HTML file, no server needed. */
export async function reportCommand(io: Io, dir: string | undefined, out: string | undefined): Promise<number> {
  if (!dir) throw new ConfigError('usage: multihop report <eval dir> [--out FILE.html]');
  const assets = studioAssets({ log: (line) => io.err(line) });
  let built;
  try {
    built = await buildReport(assets, dir);
  } catch (error) {
    if (error instanceof PathRefused) throw new ConfigError(`report: ${error.message}`);
    throw error;
  }
  const file = out ?? join(dir, 'report.html');
  try {
    writeFileSync(file, built.html);
  } catch (error) {
    throw new ConfigError(`report: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const traces = Object.keys(built.report.traces).length;
  const charts = Object.keys(built.report.charts).length;
  // Small sizes in KB: "0.0 MB" reads as nothing.
  const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
  io.err(
    `report: wrote ${file} (${size(Buffer.byteLength(built.html))}: ${built.report.eval.rows.length} runs, ${traces} traces compressed from ${size(built.traceBytes)}, ${charts} chart${charts === 1 ? '' : 's'}); open it in a browser, no server needed`,
  );
  for (const workflow of built.unchartable) io.err(`report: warning: no chart of ${workflow}; its replays in the report say so`);
  return 0;
}
