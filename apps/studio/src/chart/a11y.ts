import { nodeCaption } from './layout';
import type { ChartNode } from './types';

const KIND_WORDS: Record<string, string> = { step: 'state', choice: 'decision', parallel: 'parallel state' };

/**
 * What a screen reader says for a chart node (React Flow's `ariaLabel`): its kind and name, the
 * detail line (the agent), and where a run stands on it. The start and end pseudo-states draw no
 * text, so they are named by their kind alone.
 */
export function nodeAriaLabel(node: ChartNode, state: 'active' | 'visited' | 'idle' = 'idle', visits = 0): string {
  const { title, detail } = nodeCaption(node);
  const pseudo = (node.kind === 'start' || node.kind === 'end') && node.id.startsWith('__');
  const kind = KIND_WORDS[node.kind] ?? node.kind;
  const name = pseudo ? kind : `${kind} ${title}`;
  const where = state === 'active' ? 'active' : state === 'visited' ? (visits > 0 ? `entered ${visits}×` : 'reached') : undefined;
  return [name, detail, where].filter(Boolean).join(', ');
}
