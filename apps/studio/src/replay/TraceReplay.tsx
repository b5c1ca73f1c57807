import type { StudioGold, StudioReplay } from '../api/client';

export interface TraceReplayProps {
  replay: StudioReplay;
  gold?: StudioGold;
  compact?: boolean;
}

/** Steps through a saved run on its workflow's chart (stub: the full view follows). */
export function TraceReplay({ replay, compact }: TraceReplayProps) {
  return (
    <div className={compact ? 'replay replay-compact' : 'replay'}>
      <p>
        {replay.run.workflowId}: {replay.run.trace.length} events
      </p>
    </div>
  );
}
