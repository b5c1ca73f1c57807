import { useEffect, useMemo, useRef, useState } from 'react';
import type {
  StudioClient,
  StudioInfo,
  StudioQuestion,
  StudioRunDone,
  StudioRunRequest,
  StudioRunStarted,
  StudioWorkflow,
  TraceEvent,
} from '../api/client';
import { ChartView } from '../chart/ChartView';
import { errorText, type Loaded } from '../data';
import { groupBy } from '../groupBy';
import { navigate, routeHash } from '../route';
import { chartStateAt } from '../trace/chartState';
import { modelText, offlineModel } from '../offline';
import { OfflineTag } from '../OfflineTag';
import { DecisionDiagramView } from '../trace/DecisionDiagramView';
import { EventRow } from '../trace/EventView';
import { QuestionPicker } from './QuestionPicker';
import { RunOutcome } from './RunOutcome';
import { RunsList } from './RunsList';
import { SettingsForm } from './SettingsForm';

type Phase = 'idle' | 'starting' | 'running' | 'stopping' | 'done' | 'error';

interface RunView {
  phase: Phase;
  started?: StudioRunStarted;
  events: TraceEvent[];
  done?: StudioRunDone;
  error?: string;
}

const IDLE: RunView = { phase: 'idle', events: [] };

/**
 * Start a run from the page and watch it move through its workflow's chart. The run shown is the
 * one the address names (`#/run?run=<id>`): leaving the page and coming back (or reloading it)
 * re-opens its event stream, which the server replays from the first event.
 */
export function RunPage({
  client,
  info,
  workflows,
  initialWorkflow,
  runId,
}: {
  client: StudioClient;
  info: Loaded<StudioInfo>;
  workflows: Loaded<StudioWorkflow[]>;
  initialWorkflow: string | undefined;
  runId: string | undefined;
}) {
  if (workflows.state === 'loading' || info.state === 'loading') return <p className="muted pad">Loading…</p>;
  if (workflows.state === 'error') return <p className="error pad">Could not load the workflows: {workflows.message}</p>;
  if (info.state === 'error') return <p className="error pad">Could not reach the studio server: {info.message}</p>;
  return <RunWorkbench client={client} info={info.value} workflows={workflows.value} initialWorkflow={initialWorkflow} runId={runId} />;
}

function RunWorkbench({
  client,
  info,
  workflows,
  initialWorkflow,
  runId,
}: {
  client: StudioClient;
  info: StudioInfo;
  workflows: StudioWorkflow[];
  initialWorkflow: string | undefined;
  runId: string | undefined;
}) {
  const [workflowId, setWorkflowId] = useState(
    () => workflows.find((w) => w.id === initialWorkflow)?.id ?? workflows.find((w) => w.id === 'par2-rag')?.id ?? workflows[0]?.id ?? '',
  );
  useEffect(() => {
    if (initialWorkflow && workflows.some((w) => w.id === initialWorkflow)) setWorkflowId(initialWorkflow);
  }, [initialWorkflow, workflows]);
  const workflow = workflows.find((w) => w.id === workflowId);
  const [source, setSource] = useState<'dataset' | 'text'>('dataset');
  const [dataset, setDataset] = useState(() => (info.datasets.includes('hotpotqa-dev') ? 'hotpotqa-dev' : (info.datasets[0] ?? '')));
  const [question, setQuestion] = useState<StudioQuestion | undefined>();
  const [freeText, setFreeText] = useState('');
  const [model, setModel] = useState(info.model.id);
  const [setting, setSetting] = useState<'closed' | 'open'>('open');
  const [overrides, setOverrides] = useState<Record<string, unknown>>({});
  // Settings fields whose text is not a value: no run starts until they are mended.
  const [invalidSettings, setInvalidSettings] = useState<string[]>([]);
  const [run, setRun] = useState<RunView>(IDLE);

  useEffect(() => {
    setOverrides({});
    setInvalidSettings([]);
  }, [workflowId]);

  // The run the address names, started here or come back to: read as it started (chart, question,
  // gold), then its events from the first. Leaving the page closes the stream; the run goes on.
  useEffect(() => {
    if (!runId) {
      setRun(IDLE);
      return;
    }
    let current = true;
    let stream: { close(): void } | undefined;
    setRun({ phase: 'starting', events: [] });
    client.run(runId).then(
      (started) => {
        if (!current) return;
        if (workflows.some((w) => w.id === started.workflow)) setWorkflowId(started.workflow);
        setRun({ phase: 'running', started, events: [] });
        stream = client.streamRun(runId, {
          onEvent: (event) => current && setRun((now) => ({ ...now, events: [...now.events, event] })),
          onDone: (done) => current && setRun((now) => ({ ...now, phase: 'done', done })),
          onError: (message) => current && setRun((now) => (now.done ? now : { ...now, phase: 'error', error: message })),
        });
      },
      (error: unknown) => current && setRun({ phase: 'error', events: [], error: `run ${runId}: ${errorText(error)}` }),
    );
    return () => {
      current = false;
      stream?.close();
    };
  }, [client, runId, workflows]);

  const finished = run.phase === 'done' || run.phase === 'error';
  const chart = run.started?.chart ?? workflow?.chart;
  const state = useMemo(() => chartStateAt(run.events, run.events.length - 1, finished), [run.events, finished]);

  // The time from Run to the first lit node, for the browser tests and the closing note.
  useEffect(() => {
    if (state.litOrder.length > 0 && window.__studioFirstLit === undefined) window.__studioFirstLit = performance.now();
  }, [state.litOrder.length]);

  const canRun = Boolean(workflow) && invalidSettings.length === 0 && (source === 'dataset' ? Boolean(question) : freeText.trim().length > 0) && !(run.phase === 'starting' || run.phase === 'running' || run.phase === 'stopping');

  const start = async (): Promise<void> => {
    if (!workflow) return;
    window.__studioRunClicked = performance.now();
    window.__studioFirstLit = undefined;
    setRun({ phase: 'starting', events: [] });
    const request: StudioRunRequest = {
      workflow: workflow.id,
      model,
      ...(Object.keys(overrides).length ? { settings: overrides } : {}),
      ...(source === 'dataset' && question ? { dataset, id: question.id, setting } : { question: freeText.trim(), corpus: dataset }),
    };
    let started: StudioRunStarted;
    try {
      started = await client.startRun(request);
    } catch (error) {
      setRun({ phase: 'error', events: [], error: errorText(error) });
      return;
    }
    // The address names the run from now on; the effect above opens its stream.
    navigate(routeHash('run', undefined, { run: started.runId }));
  };

  const stop = async (): Promise<void> => {
    const id = run.started?.runId;
    if (!id) return;
    setRun((current) => ({ ...current, phase: 'stopping' }));
    try {
      await client.stopRun(id);
    } catch (error) {
      setRun((current) => ({ ...current, error: errorText(error) }));
    }
  };

  const grouped = useMemo(() => groupBy(workflows, (w) => w.method.id), [workflows]);

  return (
    <div className="run-page">
      <div className="run-side">
        <form
          className="run-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (canRun) void start();
          }}
        >
          <label className="form-row">
            <span>Workflow</span>
            <select value={workflowId} onChange={(event) => setWorkflowId(event.target.value)} data-testid="run-workflow">
              {grouped.map(([method, members]) => (
                <optgroup key={method} label={method}>
                  {members.map((w) => (
                    <option key={w.id} value={w.id}>
                      {w.id}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </label>
          <div className="form-row">
            <span>Question</span>
            <div className="segmented">
              <button type="button" className={source === 'dataset' ? 'is-current' : undefined} onClick={() => setSource('dataset')} data-testid="run-source-dataset">
                from a dataset
              </button>
              <button type="button" className={source === 'text' ? 'is-current' : undefined} onClick={() => setSource('text')} data-testid="run-source-text">
                free text
              </button>
            </div>
          </div>
          <label className="form-row">
            <span>{source === 'dataset' ? 'Dataset' : 'Corpus'}</span>
            <select
              value={dataset}
              onChange={(event) => {
                setDataset(event.target.value);
                setQuestion(undefined);
              }}
              data-testid="run-dataset"
            >
              {info.datasets.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          {source === 'dataset' ? (
            <QuestionPicker client={client} dataset={dataset} selected={question} onSelect={setQuestion} />
          ) : (
            <textarea
              className="free-text"
              rows={3}
              maxLength={info.limits.maxQuestionChars}
              placeholder="Ask a multi-hop question…"
              value={freeText}
              onChange={(event) => setFreeText(event.target.value)}
              data-testid="run-question-text"
            />
          )}
          <div className="form-grid">
            <label className="form-row">
              <span>Model</span>
              <select value={model} onChange={(event) => setModel(event.target.value)} data-testid="run-model">
                {info.models.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label className="form-row">
              <span>Setting</span>
              <select value={source === 'text' ? 'open' : setting} disabled={source === 'text'} onChange={(event) => setSetting(event.target.value as 'closed' | 'open')} data-testid="run-setting">
                <option value="closed">closed (the question's paragraphs)</option>
                <option value="open">open (pooled corpus)</option>
              </select>
            </label>
          </div>
          {workflow ? (
            <details className="settings-details">
              <summary>
                Settings {Object.keys(overrides).length ? <span className="tag">{Object.keys(overrides).length} changed</span> : <span className="muted small">defaults</span>}
              </summary>
              <SettingsForm
                key={workflow.id}
                defaults={workflow.settings}
                onChange={(next, invalid) => {
                  setOverrides(next);
                  setInvalidSettings(invalid);
                }}
              />
              {invalidSettings.length ? (
                <p className="error small" data-testid="settings-invalid">
                  Not a value: {invalidSettings.join(', ')} (mend or reset {invalidSettings.length === 1 ? 'it' : 'them'} to run)
                </p>
              ) : null}
            </details>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={!canRun} data-testid="run-start">
              Run
            </button>
            <button type="button" className="button" disabled={run.phase !== 'running'} onClick={() => void stop()} data-testid="run-stop">
              Stop
            </button>
            <span className={`run-status phase-${run.phase}`} data-testid="run-status" data-phase={run.phase}>
              {run.phase}
            </span>
          </div>
          {run.error ? <p className="error small" data-testid="run-error">{run.error}</p> : null}
        </form>
        <RunsList client={client} current={run.started?.runId} refresh={`${run.started?.runId ?? ''}:${run.phase}`} />
      </div>

      <section className="run-stage">
        {run.started ? (
          <div className="run-question">
            <span className="muted">question</span> <b>{run.started.query.text}</b> <span className="muted">· {modelText(run.started.model)}</span>
            {offlineModel(run.started.model) ? <> <OfflineTag partly={offlineModel(run.started.model) === 'partly'} /></> : null}
          </div>
        ) : null}
        {run.done ? <RunOutcome done={run.done} gold={run.started?.gold} offline={offlineModel(run.started?.model)} /> : null}
        {chart ? (
          <ChartView
            chart={chart}
            run={state}
            maxHeight={720}
          />
        ) : null}
        <DecisionDiagramView events={run.events} finished={finished} />
      </section>

      <aside className="run-events">
        <h3>
          Events <span className="muted">{run.events.length}</span>
        </h3>
        <LiveEventList events={run.events} gold={run.started?.gold} />
      </aside>
    </div>
  );
}

function LiveEventList({ events, gold }: { events: TraceEvent[]; gold: StudioRunStarted['gold'] }) {
  const ref = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    const list = ref.current;
    if (list && pinned.current) list.scrollTop = list.scrollHeight;
  }, [events.length]);
  if (!events.length) return <p className="muted small">Events appear here as the run moves: model calls, retrievals, decisions, transitions.</p>;
  return (
    <ol
      className="event-list"
      ref={ref}
      data-testid="event-list"
      onScroll={(event) => {
        const list = event.currentTarget;
        pinned.current = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
      }}
    >
      {events.map((event) => (
        <EventRow key={event.seq} event={event} {...(gold ? { gold } : {})} />
      ))}
    </ol>
  );
}
