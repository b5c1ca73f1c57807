import { useEffect, useState } from 'react';
import type { StudioClient } from '../api/client';
import { useLoaded } from '../data';
import { TraceReplay } from '../replay/TraceReplay';
import { navigate, routeHash } from '../route';

/** Open a saved trace (an eval's traces/ file or a `multihop run --json` output) and step through it. */
export function ReplayPage({ client, path }: { client: StudioClient; path: string | undefined }) {
  const [draft, setDraft] = useState(path ?? '');
  useEffect(() => setDraft(path ?? ''), [path]);
  const replay = useLoaded(path ? () => client.trace(path) : undefined, [client, path]);
  return (
    <div className="replay-page">
      <form
        className="replay-open"
        onSubmit={(event) => {
          event.preventDefault();
          if (draft.trim()) navigate(routeHash('replay', undefined, { path: draft.trim() }));
        }}
      >
        <label htmlFor="replay-path">Trace file</label>
        <input
          id="replay-path"
          type="text"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="path to a trace: evals/…/traces/par2-rag/<id>.json or a run --json output"
          data-testid="replay-path"
        />
        <button type="submit" className="button primary" data-testid="replay-open">
          Open
        </button>
        <a className="button" href={routeHash('evals')}>
          Pick from an eval…
        </a>
      </form>
      {!path ? (
        <p className="muted pad">
          Give the path of a saved run, as the server may read it, or pick a question in the eval browser to replay its runs side by side.
        </p>
      ) : replay.state === 'loading' ? (
        <p className="muted pad">Loading {path}…</p>
      ) : replay.state === 'error' ? (
        <p className="error pad" data-testid="replay-error">
          Could not open {path}: {replay.message}
        </p>
      ) : (
        <>
          {replay.value.warning ? (
            <p className="warning pad" data-testid="replay-warning">
              {replay.value.warning}
            </p>
          ) : null}
          <TraceReplay key={path} replay={replay.value} />
        </>
      )}
    </div>
  );
}
