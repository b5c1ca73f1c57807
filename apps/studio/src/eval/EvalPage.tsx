import { useMemo } from 'react';
import { embeddedReport, traceLoader, type StudioClient } from '../api/client';
import { ErrorBoundary } from '../ErrorBoundary';
import { useLoaded } from '../data';
import './eval.css';
import { EvalList } from './EvalList';
import { EvalView } from './EvalView';
import { useEvalLocation } from './hash';
import type { TraceLoad } from './QuestionDetail';
import type { EvalData } from './types';

/** A trace loader that asks once per file. */
function cachedLoader(load: TraceLoad): TraceLoad {
  const cache = new Map<string, ReturnType<TraceLoad>>();
  return (file) => {
    let pending = cache.get(file);
    if (!pending) {
      pending = load(file);
      pending.catch(() => cache.delete(file));
      cache.set(file, pending);
    }
    return pending;
  };
}

/** The eval browser of a `multihop report` page: the embedded eval, no server. */
function ReportEval() {
  const report = embeddedReport()!;
  const [location, navigate] = useEvalLocation();
  const data = report.eval as EvalData;
  const loadTrace = useMemo(() => cachedLoader(traceLoader(undefined, data.dir)), [data.dir]);
  return (
    <div className="eval-page eval-page-report">
      <ErrorBoundary what={`the eval ${data.dir}`}>
        <EvalView
          data={data}
          loadTrace={loadTrace}
          {...(location.question ? { question: location.question } : {})}
          onQuestion={(question) => navigate({ ...(question ? { question } : {}) })}
          report={{ generated: report.generated }}
        />
      </ErrorBoundary>
    </div>
  );
}

/** The eval browser against the studio server: the listing, and the eval the address names. */
function ServerEvals({ client }: { client: StudioClient }) {
  const [location, navigate] = useEvalLocation();
  const dir = location.dir;
  const listing = useLoaded(() => client.evals(), [client]);
  const data = useLoaded(dir ? () => client.eval(dir).then((value) => value as EvalData) : undefined, [client, dir]);

  const loadTrace = useMemo(() => (dir ? cachedLoader(traceLoader(client, dir)) : undefined), [client, dir]);

  return (
    <div className="eval-page">
      <aside className="eval-sidebar">
        {listing.state === 'loading' && <p className="eval-empty">Loading the evals…</p>}
        {listing.state === 'error' && <p className="eval-error">Could not list the evals: {listing.message}</p>}
        {listing.state === 'ready' && <EvalList listing={listing.value} {...(dir ? { current: dir } : {})} onOpen={(next) => navigate({ dir: next })} />}
      </aside>
      <main className="eval-main">
        {!dir && <p className="eval-empty">Pick an eval directory to see its figures, plots and questions.</p>}
        {dir && data.state === 'loading' && <p className="eval-empty">Loading {dir}…</p>}
        {dir && data.state === 'error' && (
          <p className="eval-error">
            Could not open {dir}: {data.message}
          </p>
        )}
        {dir && data.state === 'ready' && loadTrace && (
          // A summary the page cannot draw fails here, in the eval pane: the list beside it stays.
          <ErrorBoundary key={data.value.dir} what={`the eval ${data.value.dir}`}>
            <EvalView
              data={data.value}
              loadTrace={loadTrace}
              {...(location.question ? { question: location.question } : {})}
              onQuestion={(question) => navigate({ ...(dir ? { dir } : {}), ...(question ? { question } : {}) })}
            />
          </ErrorBoundary>
        )}
      </main>
    </div>
  );
}

/**
 * The eval browser. A `multihop report` page shows its embedded eval; otherwise the page lists
 * the server's eval directories and opens the one the address names (`#/evals?dir=<dir>`).
 */
export function EvalPage({ client }: { client: StudioClient | undefined }) {
  if (embeddedReport()) return <ReportEval />;
  if (!client) return <p className="eval-error">No studio server and no embedded report: nothing to show.</p>;
  return <ServerEvals client={client} />;
}
