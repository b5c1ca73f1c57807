import type {
  StudioEval,
  StudioEvalListing,
  StudioInfo,
  StudioQuestionPage,
  StudioReplay,
  StudioReport,
  StudioRunDone,
  StudioRunRequest,
  StudioRunStarted,
  StudioRunSummary,
  StudioWorkflow,
  TraceEvent,
} from '@multihop/runner/studio';

export type * from '@multihop/runner/studio';

declare global {
  interface Window {
    /** Set by `multihop report`: the eval and its traces, embedded; the page then needs no server. */
    __MULTIHOP_REPORT__?: StudioReport;
  }
}

/** An error the server answered with: its status and its `{ error }` message. */
export class StudioApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The embedded report, when this page is one (`multihop report`). */
export const embeddedReport = (): StudioReport | undefined => (typeof window === 'undefined' ? undefined : window.__MULTIHOP_REPORT__);

const TOKEN_KEY = 'multihop-studio-token';

/**
 * The token the server printed at start-up (`?token=` in the URL it prints). Read once from the
 * URL, kept in sessionStorage, and removed from the address bar so it is not shared by copying.
 */
export function studioToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.toString());
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

export interface RunStream {
  /** Stops listening (the run goes on; `stop` stops it). */
  close(): void;
}

/** Everything the pages read, from the studio server. */
export class StudioClient {
  constructor(private readonly token: string = studioToken()) {}

  private async request<T>(path: string, init: RequestInit = {}): Promise<T> {
    const response = await fetch(path, {
      ...init,
      headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), authorization: `Bearer ${this.token}`, ...init.headers },
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const message = (body as { error?: string } | undefined)?.error ?? `${response.status} ${response.statusText}`;
      throw new StudioApiError(response.status, message);
    }
    return body as T;
  }

  info(): Promise<StudioInfo> {
    return this.request('/api/info');
  }

  workflows(): Promise<StudioWorkflow[]> {
    return this.request('/api/workflows');
  }

  questions(dataset: string, options: { offset?: number; limit?: number; q?: string } = {}): Promise<StudioQuestionPage> {
    const params = new URLSearchParams();
    if (options.offset !== undefined) params.set('offset', String(options.offset));
    if (options.limit !== undefined) params.set('limit', String(options.limit));
    if (options.q) params.set('q', options.q);
    return this.request(`/api/datasets/${encodeURIComponent(dataset)}/questions?${params}`);
  }

  startRun(request: StudioRunRequest): Promise<StudioRunStarted> {
    return this.request('/api/runs', { method: 'POST', body: JSON.stringify(request) });
  }

  runs(): Promise<StudioRunSummary[]> {
    return this.request('/api/runs');
  }

  /** A run of this server as it started (chart, question, gold): what a page coming back to it draws. */
  run(runId: string): Promise<StudioRunStarted> {
    return this.request(`/api/runs/${encodeURIComponent(runId)}`);
  }

  stopRun(runId: string): Promise<{ stopped: boolean }> {
    return this.request(`/api/runs/${encodeURIComponent(runId)}/stop`, { method: 'POST', body: '{}' });
  }

  /**
   * The run's events over server-sent events, from its first event: each trace event as it
   * happens, then `done` once. Reconnects resume after the last event seen (the browser sends
   * Last-Event-ID).
   */
  streamRun(runId: string, handlers: { onEvent(event: TraceEvent): void; onDone(done: StudioRunDone): void; onError?(message: string): void }): RunStream {
    const source = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events?token=${encodeURIComponent(this.token)}`);
    source.addEventListener('trace', (message) => handlers.onEvent(JSON.parse((message as MessageEvent<string>).data) as TraceEvent));
    source.addEventListener('done', (message) => {
      source.close();
      handlers.onDone(JSON.parse((message as MessageEvent<string>).data) as StudioRunDone);
    });
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) handlers.onError?.('the event stream closed');
    };
    return { close: () => source.close() };
  }

  evals(): Promise<StudioEvalListing> {
    return this.request('/api/evals');
  }

  eval(dir: string): Promise<StudioEval> {
    return this.request(`/api/eval?dir=${encodeURIComponent(dir)}`);
  }

  evalTrace(dir: string, file: string): Promise<StudioReplay> {
    return this.request(`/api/eval/trace?dir=${encodeURIComponent(dir)}&file=${encodeURIComponent(file)}`);
  }

  /** A saved trace anywhere the server may read (an eval's traces/ file, a `run --json` output). */
  trace(path: string): Promise<StudioReplay> {
    return this.request(`/api/trace?path=${encodeURIComponent(path)}`);
  }
}

/** Trace loading for the eval browser: from the server, or from the report's embedded traces. */
export function traceLoader(client: StudioClient | undefined, dir: string): (file: string) => Promise<StudioReplay> {
  const report = embeddedReport();
  if (report) {
    const packs = new Map<number, Promise<Record<string, StudioReplay['run']>>>();
    return async (file) => {
      const index = report.traces[file];
      if (index === undefined) throw new StudioApiError(404, `the report has no trace ${file}`);
      let pack = packs.get(index);
      if (!pack) {
        pack = unpackTraces(report.traceEncoding, report.tracePacks[index] ?? '');
        pack.catch(() => packs.delete(index));
        packs.set(index, pack);
      }
      const run = (await pack)[file];
      if (!run) throw new StudioApiError(422, `the report's pack of ${file} does not hold it`);
      // A sweep's rows share a workflow id, each with its own settings: the row's chart, by the report's map.
      const key = report.traceCharts?.[file] ?? run.workflowId;
      const chart = report.charts[key];
      if (!chart) throw new StudioApiError(404, `the report has no chart of ${key}`);
      return { path: file, run, chart };
    };
  }
  if (!client) throw new Error('no server and no embedded report');
  return (file) => client.evalTrace(dir, file);
}

/**
 * One of a report's trace packs, inflated in the page: its traces by path (the report stores each
 * pack gzip-compressed, in base64). A pack that does not inflate is named by the question's
 * trace files, since every run of that question reads it.
 */
export async function unpackTraces(encoding: StudioReport['traceEncoding'] | undefined, packed: string): Promise<Record<string, StudioReplay['run']>> {
  if (encoding !== 'gzip+base64') throw new StudioApiError(415, `the report stores its traces as ${String(encoding)}, which this page cannot read; write the report again with this multihop`);
  if (typeof DecompressionStream === 'undefined') throw new StudioApiError(501, `this browser cannot inflate the report's traces (no DecompressionStream); open the report in a current Chromium, Firefox or Safari`);
  try {
    const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
    const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
    return JSON.parse(text) as Record<string, StudioReplay['run']>;
  } catch (error) {
    throw new StudioApiError(422, `the report's traces of this question are damaged (they do not inflate as gzip JSON: ${(error as Error).message})`);
  }
}
