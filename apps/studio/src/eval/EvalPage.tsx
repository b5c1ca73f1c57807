import { useEffect, useMemo, useState } from 'react';
import { embeddedReport, traceLoader, type StudioClient, type StudioEvalListing } from '../api/client';
import './eval.css';
import { EvalList } from './EvalList';
import { EvalView } from './EvalView';
import { useEvalLocation } from './hash';
import type { TraceLoad } from './QuestionDetail';
import type { EvalData } from './types';

type Loading<T> = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; message: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
      <EvalView
        data={data}
        loadTrace={loadTrace}
        {...(location.question ? { question: location.question } : {})}
        onQuestion={(question) => navigate({ ...(question ? { question } : {}) })}
        report={{ generated: report.generated }}
      />
    </div>
  );
}

/** The eval browser against the studio server: the listing, and the eval the address names. */
function ServerEvals({ client }: { client: StudioClient }) {
  const [location, navigate] = useEvalLocation();
  const [listing, setListing] = useState<Loading<StudioEvalListing>>({ state: 'loading' });
  const [data, setData] = useState<Loading<EvalData>>({ state: 'idle' });
  const dir = location.dir;

  useEffect(() => {
    let live = true;
    client.evals().then(
      (value) => live && setListing({ state: 'ready', value }),
      (error: unknown) => live && setListing({ state: 'error', message: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [client]);

  useEffect(() => {
    if (!dir) {
      setData({ state: 'idle' });
      return;
    }
    let live = true;
    setData({ state: 'loading' });
    client.eval(dir).then(
      (value) => live && setData({ state: 'ready', value: value as EvalData }),
      (error: unknown) => live && setData({ state: 'error', message: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, [client, dir]);

  const loadTrace = useMemo(() => (dir ? cachedLoader(traceLoader(client, dir)) : undefined), [client, dir]);

  return (
    <div className="eval-page">
      <aside className="eval-sidebar">
        {listing.state === 'loading' && <p className="eval-empty">Loading the evals…</p>}
        {listing.state === 'error' && <p className="eval-error">Could not list the evals: {listing.message}</p>}
        {listing.state === 'ready' && <EvalList listing={listing.value} {...(dir ? { current: dir } : {})} onOpen={(next) => navigate({ dir: next })} />}
      </aside>
      <main className="eval-main">
        {data.state === 'idle' && <p className="eval-empty">Pick an eval directory to see its figures, plots and questions.</p>}
        {data.state === 'loading' && <p className="eval-empty">Loading {dir}…</p>}
        {data.state === 'error' && (
          <p className="eval-error">
            Could not open {dir}: {data.message}
          </p>
        )}
        {data.state === 'ready' && loadTrace && (
          <EvalView
            key={data.value.dir}
            data={data.value}
            loadTrace={loadTrace}
            {...(location.question ? { question: location.question } : {})}
            onQuestion={(question) => navigate({ ...(dir ? { dir } : {}), ...(question ? { question } : {}) })}
          />
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
