import { useEffect, useMemo, useState } from 'react';
import { embeddedReport, StudioClient, type StudioInfo } from './api/client';
import { useLoaded, type Loaded } from './data';
import { ErrorBoundary } from './ErrorBoundary';
import { EvalPage } from './eval/EvalPage';
import { ReplayPage } from './pages/ReplayPage';
import { RunPage } from './pages/RunPage';
import { WorkflowsPage } from './pages/WorkflowsPage';
import { routeHash, useRoute, type Page } from './route';

const NAV: Array<{ page: Page; label: string }> = [
  { page: 'workflows', label: 'Workflows' },
  { page: 'run', label: 'Run' },
  { page: 'replay', label: 'Replay' },
  { page: 'evals', label: 'Evals' },
];

/** The studio: a report page shows its eval alone; a served page has the four pages. */
export function App() {
  if (embeddedReport()) {
    return (
      <div className="app app-report">
        <header className="topbar">
          <span className="brand">multihop studio</span>
          <span className="topbar-note">report</span>
        </header>
        <main className="page page-evals">
          <EvalPage client={undefined} />
        </main>
      </div>
    );
  }
  return <ServedApp />;
}

function ServedApp() {
  const client = useMemo(() => new StudioClient(), []);
  const route = useRoute();
  const info = useLoaded(() => client.info(), [client]);
  const workflows = useLoaded(() => client.workflows(), [client]);
  // The Run link leads back to the run last watched: its page re-opens the run's event stream,
  // and the server replays it from the first event (a run goes on when the page is left).
  const routeRun = route.page === 'run' ? (route.params.get('run') ?? undefined) : undefined;
  const [lastRun, setLastRun] = useState<string | undefined>();
  useEffect(() => {
    if (routeRun) setLastRun(routeRun);
  }, [routeRun]);
  const hrefOf = (page: Page): string => (page === 'run' && lastRun ? routeHash('run', undefined, { run: lastRun }) : routeHash(page));
  return (
    <div className="app">
      <header className="topbar">
        <a className="brand" href={routeHash('workflows')}>
          multihop studio
        </a>
        <nav className="nav">
          {NAV.map((item) => (
            <a key={item.page} href={hrefOf(item.page)} className={route.page === item.page ? 'is-current' : undefined} data-testid={`nav-${item.page}`}>
              {item.label}
            </a>
          ))}
        </nav>
        <ModelBadge info={info} />
      </header>
      <main className={`page page-${route.page}`}>
        {/* A page that fails to render says so below the top bar; the next page shown renders afresh. */}
        <ErrorBoundary key={route.page} what={`the ${route.page} page`}>
          {route.page === 'workflows' ? <WorkflowsPage workflows={workflows} selectedId={route.id} /> : null}
          {route.page === 'run' ? <RunPage client={client} info={info} workflows={workflows} initialWorkflow={route.params.get('workflow') ?? undefined} runId={routeRun} /> : null}
          {route.page === 'replay' ? <ReplayPage client={client} path={route.params.get('path') ?? undefined} /> : null}
          {route.page === 'evals' ? <EvalPage client={client} /> : null}
        </ErrorBoundary>
      </main>
    </div>
  );
}

function ModelBadge({ info }: { info: Loaded<StudioInfo> }) {
  if (info.state === 'loading') return <span className="topbar-note">connecting…</span>;
  if (info.state === 'error') return <span className="topbar-note error" title={info.message}>server: {info.message}</span>;
  const { model, version } = info.value;
  return (
    <span className="topbar-note" title={`multihop ${version}`}>
      model <b>{model.label}</b>
      {model.offline ? <span className="tag">offline</span> : model.partlyOffline ? <span className="tag">partly offline</span> : null}
    </span>
  );
}
