import { goldAnswers, sliceWhole, totalTokens, type Query, type Question, type RunResult, type TraceEvent } from '@multihop/core';
import { scoreAnswer } from '@multihop/metrics';

const clip = (text: string, n: number) => (text.length > n ? `${sliceWhole(text, n - 1)}…` : text);

/** One line per trace event worth reading: node, what happened, tokens. */
export function traceLines(trace: readonly TraceEvent[]): string[] {
  const lines: string[] = [];
  for (const e of trace) {
    const at = `${String(e.seq).padStart(3)}  ${e.node.padEnd(16)}`;
    const d = e.data;
    switch (e.kind) {
      case 'enter': {
        const detail = d['query'] ? ` query="${clip(String(d['query']), 70)}"` : d['hop'] !== undefined ? ` hop=${String(d['hop'])}` : '';
        lines.push(`${at}▶${detail}`);
        break;
      }
      case 'llm': {
        const tokens = Number(d['promptTokens'] ?? 0) + Number(d['completionTokens'] ?? 0);
        lines.push(`${at}  llm ${String(d['role'])} (${String(d['model'])}) ${tokens} tokens${d['estimated'] ? ' (estimated)' : ''}${d['cached'] ? ' [cache]' : ''}`);
        break;
      }
      case 'retrieve': {
        const hits = (d['hits'] as Array<{ title: string }> | undefined) ?? [];
        lines.push(`${at}  retrieve "${clip(String(d['query']), 60)}" → ${hits.length} hits${hits[0] ? ` (top: ${clip(hits[0].title, 40)})` : ''}`);
        break;
      }
      case 'transition': {
        // Edges a guard chose (or a choice's `else`) are worth reading; plain steps stay in the JSON trace.
        if (d['guard'] === undefined && d['label'] !== 'else') break;
        const branch = d['guard'] !== undefined && d['label'] !== undefined && d['label'] !== 'always' ? `: ${String(d['label'])}` : '';
        lines.push(`${at}  → ${String(d['to'])} [${String(d['guard'] ?? d['label'])}${branch}]`);
        break;
      }
      case 'decision': {
        const extra = ['subGoal', 'rationale', 'reason', 'query', 'answer', 'input']
          .filter((k) => d[k] !== undefined && d[k] !== '')
          .map((k) => `${k}="${clip(String(d[k]), 60)}"`)
          .join(' ');
        lines.push(`${at}  ◆ ${String(d['decision'])}${extra ? ` ${extra}` : ''}`);
        break;
      }
      case 'error':
        lines.push(`${at}  ✖ ${clip(String(d['message']), 160)}`);
        break;
      case 'exit':
        break;
    }
  }
  return lines;
}

/** The human-readable report of one run: answer, evidence, trace, usage. */
export function formatRun(result: RunResult, context: { query: Query; gold?: Question; workflowTitle: string; modelLabel: string; corpus: string }): string {
  const { query, gold: question } = context;
  const out: string[] = [];
  out.push(`${context.workflowTitle}`);
  out.push(`model: ${context.modelLabel} · corpus: ${context.corpus}`);
  out.push('');
  out.push(`Question: ${query.text}`);
  const status = result.status === 'ok' ? '' : `  [${result.status}${result.stopReason ? `: ${result.stopReason}` : ''}]`;
  out.push(`Answer:   ${result.answer || '(none)'}${status}`);
  if (question?.answer) {
    const score = scoreAnswer(result.answer, goldAnswers(question));
    out.push(`Gold:     ${goldAnswers(question).join(' | ')}  (EM ${score.em}, F1 ${score.f1.toFixed(2)})`);
  }
  if (result.error) out.push(`Error:    ${result.error.code}: ${result.error.message}`);
  out.push('');
  out.push(`Evidence (${result.evidence.length} passages):`);
  result.evidence.slice(0, 10).forEach((e, i) => {
    const gold = question?.supportingIds.includes(e.id) ? '  [gold]' : '';
    out.push(`  ${String(i + 1).padStart(2)}. ${e.title}${gold} — ${clip(e.text.replace(/\s+/g, ' '), 110)}`);
  });
  if (result.evidence.length > 10) out.push(`      … ${result.evidence.length - 10} more`);
  out.push('');
  out.push('Trace:');
  for (const line of traceLines(result.trace)) out.push(`  ${line}`);
  out.push('');
  const u = result.usage;
  const roles = Object.entries(u.byRole)
    .map(([role, r]) => `${role} ${r.calls}×/${totalTokens(r)}`)
    .join(', ');
  out.push(
    `Usage: ${u.llmCalls} model calls, ${totalTokens(u)} tokens${u.estimated ? ' (estimated: the provider reported none)' : ''}, ${u.retrievalCalls} retrievals, ${u.wallMs} ms${roles ? ` — ${roles}` : ''}`,
  );
  return out.join('\n');
}
