import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the server answers one request. */
export interface StubReply {
  /** HTTP status (default 200). Non-2xx statuses send an OpenAI-style error body. */
  status?: number;
  /** The assistant message content for 200 replies. */
  content?: string;
  /** The `usage` field; `null` omits it (as some local servers do). Default: counted from the text. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  headers?: Record<string, string>;
  /** Wait this long before answering (to trigger client timeouts). */
  delayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
  /** Never answer: the request stays open until the client gives up or the server closes. */
  hang?: boolean;
  /**
   * Send this body as it is, with `status` and `headers` (default content type JSON), instead of
   * a chat completion: a proxy's HTML page, a JSON body with no `choices`, a truncated reply.
   */
  raw?: string;
}

export interface StubRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    response_format?: unknown;
    [key: string]: unknown;
  };
  /** 0-based index of the request since the server started. */
  index: number;
}

export interface OpenAICompatibleServer {
  /** Base URL to give a client, ending in /v1. */
  baseURL: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions wire format,
 * scripted per request. It stands where a model endpoint would, so the provider path (the
 * real LangChain client, real HTTP, real retries) is tested without mocking project code.
 */
export async function startOpenAICompatibleServer(
  script: (request: StubRequest) => StubReply | Promise<StubReply>,
): Promise<OpenAICompatibleServer> {
  const requests: StubRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    // A client that gave up before sending its body (an abort, a timeout) is owed nothing.
    const raw = await readBody(req).catch(() => undefined);
    if (raw === undefined) return;
    let body: StubRequest['body'] = {};
    try {
      body = raw ? (JSON.parse(raw) as StubRequest['body']) : {};
    } catch {
      body = {};
    }
    const request: StubRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, index: requests.length };
    requests.push(request);
    let reply: StubReply;
    try {
      reply = await script(request);
    } catch (error) {
      reply = { status: 500, content: (error as Error).message };
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (reply.hang) return;
    if (reply.destroy) {
      req.socket.destroy();
      return;
    }
    if (res.destroyed || req.socket.destroyed) return;
    const status = reply.status ?? 200;
    const headers = { 'content-type': 'application/json', ...(reply.headers ?? {}) };
    if (reply.raw !== undefined) {
      res.writeHead(status, headers);
      res.end(reply.raw);
      return;
    }
    if (status !== 200) {
      res.writeHead(status, headers);
      res.end(JSON.stringify({ error: { message: reply.content ?? `stub error ${status}`, type: 'stub_error', code: status } }));
      return;
    }
    const content = reply.content ?? '';
    const promptText = (body.messages ?? []).map((m) => m.content).join('\n');
    const usage =
      reply.usage === null
        ? undefined
        : (reply.usage ?? { prompt_tokens: Math.ceil(promptText.length / 4), completion_tokens: Math.ceil(content.length / 4) });
    res.writeHead(200, headers);
    res.end(
      JSON.stringify({
        id: `chatcmpl-stub-${request.index}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? 'stub',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
      }),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
