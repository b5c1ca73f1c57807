import { useEffect, useState } from 'react';

/** The page's place in the address: `#/evals?dir=<dir>&q=<questionId>`. */
export interface EvalLocation {
  dir?: string;
  question?: string;
}

const DEFAULT_ROUTE = '/evals';

/** Splits a hash into its route (`/evals`) and its parameters. */
export function parseHash(hash: string): { route: string; params: URLSearchParams } {
  const body = hash.replace(/^#/, '');
  const at = body.indexOf('?');
  return at < 0 ? { route: body, params: new URLSearchParams() } : { route: body.slice(0, at), params: new URLSearchParams(body.slice(at + 1)) };
}

export function readLocation(hash: string): EvalLocation {
  const { params } = parseHash(hash);
  const dir = params.get('dir') ?? undefined;
  const question = params.get('q') ?? undefined;
  return { ...(dir ? { dir } : {}), ...(question ? { question } : {}) };
}

/** The hash for a place, keeping the current route (the app shell's) and any parameters that are not the page's. */
export function hashFor(current: string, next: EvalLocation): string {
  const { route, params } = parseHash(current);
  params.delete('dir');
  params.delete('q');
  if (next.dir) params.set('dir', next.dir);
  if (next.question) params.set('q', next.question);
  const search = params.toString();
  return `#${route || DEFAULT_ROUTE}${search ? `?${search}` : ''}`;
}

/** The page's place, kept in step with the address bar (back and forward move between evals and questions). */
export function useEvalLocation(): [EvalLocation, (next: EvalLocation) => void] {
  const [location, setLocation] = useState<EvalLocation>(() => readLocation(window.location.hash));
  useEffect(() => {
    const onChange = () => setLocation(readLocation(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  const navigate = (next: EvalLocation) => {
    const hash = hashFor(window.location.hash, next);
    if (hash !== window.location.hash) window.location.hash = hash;
    setLocation(next);
  };
  return [location, navigate];
}
