import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { chartOf, goldPassages, readEval } from './evals';
import { Roots } from './paths';
import type { StudioReport, StudioTraceFile } from './protocol';

/**
 * The eval view as one self-contained HTML file: the studio's built page with its script and
 * stylesheet inlined, and the eval (summary, rows, verdicts, every trace and each workflow's
 * chart) embedded as `window.__MULTIHOP_REPORT__`. It opens from disk with no server and no network.
 */
export async function buildReport(assets: string, dir: string, generated = new Date().toISOString()): Promise<{ html: string; report: StudioReport }> {
  const roots = new Roots([dir], (d) => `report ${d}`);
  const evaluation = readEval(roots, '.');
  evaluation.dir = dir;
  const supportingIds = await goldPassages(evaluation, (name) => loadDataset(name));
  if (supportingIds) evaluation.supportingIds = supportingIds;
  const evalDir = roots.dirs[0] as string;
  const traces: Record<string, StudioTraceFile> = {};
  for (const row of evaluation.rows) {
    if (!row.trace || traces[row.trace]) continue;
    try {
      traces[row.trace] = JSON.parse(readFileSync(roots.within(evalDir, row.trace, 'trace'), 'utf8')) as StudioTraceFile;
    } catch {
      // A row whose trace is gone is still reported; its replay says the trace is missing.
    }
  }
  const charts: StudioReport['charts'] = {};
  for (const workflow of new Set(evaluation.rows.map((r) => r.workflow))) {
    try {
      charts[workflow] = chartOf(workflow, evaluation.summary.settings?.[workflow]);
    } catch {
      // A workflow no installed method offers: its traces are listed, not drawn.
    }
  }
  const report: StudioReport = { report: true, generated, eval: evaluation, traces, charts };
  return { html: inlinePage(assets, report), report };
}

/** index.html with its module script and stylesheet inlined and the report data before them. */
export function inlinePage(assets: string, report: StudioReport): string {
  const index = readFileSync(join(assets, 'index.html'), 'utf8');
  const scripts = [...index.matchAll(/<script type="module"[^>]*src="([^"]+)"[^>]*><\/script>/g)];
  const styles = [...index.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g)];
  if (scripts.length !== 1) throw new ConfigError(`${join(assets, 'index.html')}: expected one module script, found ${scripts.length} (is this a studio build?)`);
  const read = (ref: string): string => readFileSync(join(assets, ref.replace(/^\.\//, '')), 'utf8');
  // Text inside <script> or <style> must not close the element early.
  const safeScript = (code: string): string => code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
  const data = JSON.stringify(report).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  let html = index;
  for (const style of styles) html = html.replace(style[0], () => `<style>${read(style[1] as string).replace(/<\/style/gi, '<\\/style')}</style>`);
  const script = scripts[0] as RegExpMatchArray;
  html = html.replace(script[0], () => `<script>window.__MULTIHOP_REPORT__ = ${data};</script>\n<script type="module">${safeScript(read(script[1] as string))}</script>`);
  return html.replace('<title>multihop studio</title>', () => `<title>multihop report: ${escapeHtml(report.eval.summary.dataset)} (${report.eval.summary.n} questions)</title>`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}
