import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ConfigError } from '@multihop/core';
import { loadDataset } from '@multihop/datasets';
import { chartOf, goldPassages, readEval } from './evals';
import { Roots } from './paths';
import type { StudioReport } from './protocol';

/**
 * The eval view as one self-contained HTML file: the studio's built page with its script and
 * stylesheet inlined, and the eval (summary, rows, verdicts, every trace and each workflow's
 * chart) embedded as `window.__MULTIHOP_REPORT__`. It opens from disk with no server and no network.
 * The traces are embedded gzip-compressed, a pack per question (the page inflates the pack of the
 * question it opens); `traceBytes` is what they come to uncompressed.
 */
export async function buildReport(assets: string, dir: string, generated = new Date().toISOString()): Promise<{ html: string; report: StudioReport; traceBytes: number; unchartable: string[] }> {
  const roots = new Roots([dir], (d) => `report ${d}`);
  const evaluation = readEval(roots, '.', dir);
  evaluation.dir = dir;
  const supportingIds = await goldPassages(evaluation, (name) => loadDataset(name));
  if (supportingIds) evaluation.supportingIds = supportingIds;
  const evalDir = roots.dirs[0] as string;
  // Packed by question, in the rows' order: the page inflates a question's pack when it opens it.
  const byQuestion = new Map<string, Map<string, string>>();
  let traceBytes = 0;
  for (const row of evaluation.rows) {
    if (!row.trace) continue;
    const pack = byQuestion.get(row.questionId) ?? new Map<string, string>();
    byQuestion.set(row.questionId, pack);
    if (pack.has(row.trace)) continue;
    let text: string;
    try {
      // Parsed and written again: a trace file that is not JSON is left out, not embedded broken.
      text = JSON.stringify(JSON.parse(readFileSync(roots.within(evalDir, row.trace, 'trace'), 'utf8')));
    } catch {
      // A row whose trace is gone is still reported; its replay says the trace is missing.
      continue;
    }
    traceBytes += Buffer.byteLength(text);
    pack.set(row.trace, text);
  }
  const traces: Record<string, number> = {};
  const tracePacks: string[] = [];
  for (const pack of byQuestion.values()) {
    if (pack.size === 0) continue;
    for (const file of pack.keys()) traces[file] = tracePacks.length;
    const json = `{${[...pack].map(([file, text]) => `${JSON.stringify(file)}:${text}`).join(',')}}`;
    tracePacks.push(gzipSync(json, { level: 9 }).toString('base64'));
  }
  const charts: StudioReport['charts'] = {};
  const unchartable: string[] = [];
  const sweep = evaluation.summary.sweep;
  for (const workflow of new Set(evaluation.rows.map((r) => r.workflow))) {
    // A sweep's row is a label (par2-rag[hopBudget=2]) of the swept workflow, run with the row's settings.
    const id = sweep && sweep.rows[workflow] ? sweep.workflow : workflow;
    try {
      charts[workflow] = chartOf(id, evaluation.summary.settings?.[workflow]);
    } catch (error) {
      // A workflow no installed method offers: its traces are listed, not drawn; the page says so, and the command warns.
      unchartable.push(`${workflow} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  const traceCharts = Object.fromEntries(evaluation.rows.filter((r) => r.trace && traces[r.trace] !== undefined).map((r) => [r.trace!, r.workflow]));
  const report: StudioReport = { report: true, generated, eval: evaluation, traceEncoding: 'gzip+base64', traces, tracePacks, charts, traceCharts };
  return { html: inlinePage(assets, report), report, traceBytes, unchartable };
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
  return html.replace('<title>multihop studio</title>', () => `<title>multihop report: ${escapeHtml(report.eval.summary.dataset)} (${report.eval.summary.n} questions${report.eval.summary.offline ? ', offline model' : report.eval.summary.offline_partly ? ', partly offline model' : ''})</title>`);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}
