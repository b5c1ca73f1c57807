import { spawn } from 'node:child_process';
import { ConfigError } from '@multihop/core';
import type { Io } from '../io';
import { studioAssets } from '../studio/assets';
import { startStudioServer, type StudioServer } from '../studio/server';

export interface StudioCommandOptions {
  port?: number;
  host?: string;
  open: boolean;
  /** Eval directories the page may open besides those under the working directory. */
  evals: string[];
  model?: string;
  db?: string;
  /** Resolves when the studio should stop (tests); SIGINT/SIGTERM otherwise. */
  until?: Promise<void>;
  onReady?(server: StudioServer): void;
}

/** `multihop studio`: serves the web app and its API until Ctrl-C. */
export async function studioCommand(io: Io, options: StudioCommandOptions): Promise<number> {
  if (options.port !== undefined && (options.port < 0 || options.port > 65535)) throw new ConfigError(`--port must be 0–65535, got ${options.port}`);
  const assets = studioAssets({ log: (line) => io.err(line) });
  let server: StudioServer;
  try {
    server = await startStudioServer({
      assets,
      roots: [process.cwd(), ...options.evals],
      ...(options.host ? { host: options.host } : {}),
      ...(options.port !== undefined ? { port: options.port } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.db ? { db: options.db } : {}),
      version: (require('../../package.json') as { version: string }).version,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ConfigError(`--port ${options.port}: the port is in use; pick another or --port 0 for a free one`);
    if (code === 'EADDRNOTAVAIL') throw new ConfigError(`--host ${options.host}: not an address of this machine; give one of its addresses, 127.0.0.1 (the default) or 0.0.0.0 for all`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new ConfigError(`--host ${options.host}: no such host name or address (it does not resolve)`);
    throw error;
  }
  if (options.host && !['127.0.0.1', 'localhost', '::1'].includes(options.host)) {
    io.err(`studio: warning: bound to ${options.host}, not loopback: anyone who can reach it and has the token can start runs`);
  }
  io.out(`multihop studio: ${server.signedUrl}`);
  io.err('studio: open the URL above (it carries this session\'s token); Ctrl-C stops the server');
  options.onReady?.(server);
  if (options.open) openBrowser(server.signedUrl, io);
  await (options.until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }));
  await server.close();
  return 0;
}

function openBrowser(url: string, io: Io): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => io.err(`studio: could not start ${command}; open the URL yourself`));
  child.unref();
}
