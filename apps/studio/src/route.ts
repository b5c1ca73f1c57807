import { useEffect, useState } from 'react';

export type Page = 'workflows' | 'run' | 'replay' | 'evals';

/** Where the page is: `#/workflows/<id>`, `#/run?workflow=<id>` or `#/run?run=<run id>`, `#/replay?path=<file>`, `#/evals?dir=<dir>`. */
export interface Route {
  page: Page;
  /** The path segment after the page (the workflow id on `#/workflows/<id>`). */
  id?: string;
  params: URLSearchParams;
}

const PAGES: readonly Page[] = ['workflows', 'run', 'replay', 'evals'];

/** Splits a hash into its path (`/evals`, without the `#`) and its parameters. */
export function splitHash(hash: string): { path: string; params: URLSearchParams } {
  const body = hash.replace(/^#/, '');
  const at = body.indexOf('?');
  return { path: at < 0 ? body : body.slice(0, at), params: new URLSearchParams(at < 0 ? '' : body.slice(at + 1)) };
}

export function parseRoute(hash: string): Route {
  const { path, params } = splitHash(hash);
  const [head = '', ...rest] = path.replace(/^\//, '').split('/');
  const page = (PAGES as readonly string[]).includes(head) ? (head as Page) : 'workflows';
  const id = rest.length ? decodeOr(rest.join('/')) : undefined;
  return { page, ...(id ? { id } : {}), params };
}

/** A %-encoded segment decoded; one whose encoding is broken (a hand-edited address) as it is, not a blank page. */
function decodeOr(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function routeHash(page: Page, id?: string, params?: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) if (value !== undefined && value !== '') search.set(key, value);
  const query = search.toString();
  return `#/${page}${id ? `/${encodeURIComponent(id)}` : ''}${query ? `?${query}` : ''}`;
}

export function navigate(hash: string, replace = false): void {
  if (window.location.hash === hash) return;
  if (replace) {
    window.history.replaceState(null, '', hash);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else window.location.hash = hash;
}

/** The current route, following the address bar. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
