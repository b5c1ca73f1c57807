import { useEffect, useState } from 'react';
import type { StudioClient, StudioRunSummary } from '../api/client';
import { errorText } from '../data';
import { routeHash } from '../route';

/** How often the list asks the server again, while the Run page is open. */
const POLL_MS = 3000;

/**
 * The server's runs (GET /api/runs, newest first), whoever started them: open one to watch or
 * replay it, stop one still running. A run goes on when its page is left, and counts against
 * the runs the studio takes at once until it ends.
 */
export function RunsList({ client, current, refresh }: { client: StudioClient; current: string | undefined; refresh: string }) {
  const [runs, setRuns] = useState<StudioRunSummary[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [stopping, setStopping] = useState<ReadonlySet<string>>(new Set());
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    let live = true;
    const load = (): void => {
      client.runs().then(
        (value) => {
          if (!live) return;
          setRuns(value);
          setError(undefined);
        },
        (reason: unknown) => live && setError(errorText(reason)),
      );
    };
    load();
    const timer = setInterval(load, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [client, refresh, asked]);

  const stop = async (runId: string): Promise<void> => {
    setStopping((now) => new Set([...now, runId]));
    try {
      await client.stopRun(runId);
    } catch (reason) {
      setError(errorText(reason));
    }
    setAsked((n) => n + 1);
  };

  return (
    <section className="runs-list" data-testid="runs-list" aria-labelledby="runs-list-title">
      <h3 id="runs-list-title">
        Runs <span className="muted">{runs?.length ?? ''}</span>
      </h3>
      {error ? <p className="error small">Could not list the runs: {error}</p> : null}
      {runs && runs.length === 0 ? <p className="muted small">No runs on this server yet.</p> : null}
      {runs && runs.length > 0 ? (
        <ol>
          {runs.map((run) => (
            <li key={run.runId} className={run.runId === current ? 'is-current' : undefined} data-testid="runs-item" data-run-id={run.runId} data-state={run.state}>
              <a href={routeHash('run', undefined, { run: run.runId })} title={run.question}>
                <b>{run.workflow}</b> <span className="runs-question">{run.question}</span>
              </a>
              <span className={`status status-${run.status ?? 'running'}`}>{run.state === 'running' ? 'running' : run.status}</span>
              {run.state === 'running' ? (
                <button type="button" className="button" disabled={stopping.has(run.runId)} onClick={() => void stop(run.runId)} data-testid="runs-item-stop" aria-label={`stop the ${run.workflow} run`}>
                  Stop
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
