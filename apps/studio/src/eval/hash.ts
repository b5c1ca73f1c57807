import { useMemo } from 'react';
import { navigate, splitHash, useRoute } from '../route';

/** The page's place in the address: `#/evals?dir=<dir>&q=<questionId>`. */
export interface EvalLocation {
  dir?: string;
  question?: string;
}

const DEFAULT_ROUTE = '/evals';

const locationOf = (params: URLSearchParams): EvalLocation => {
  const dir = params.get('dir') ?? undefined;
  const question = params.get('q') ?? undefined;
  return { ...(dir ? { dir } : {}), ...(question ? { question } : {}) };
};

export function readLocation(hash: string): EvalLocation {
  return locationOf(splitHash(hash).params);
}

/** The hash for a place, keeping the current route (the app shell's) and any parameters that are not the page's. */
export function hashFor(current: string, next: EvalLocation): string {
  const { path, params } = splitHash(current);
  params.delete('dir');
  params.delete('q');
  if (next.dir) params.set('dir', next.dir);
  if (next.question) params.set('q', next.question);
  const search = params.toString();
  return `#${path || DEFAULT_ROUTE}${search ? `?${search}` : ''}`;
}

/** The page's place, read from the address bar (back and forward move between evals and questions). */
export function useEvalLocation(): [EvalLocation, (next: EvalLocation) => void] {
  const route = useRoute();
  const location = useMemo(() => locationOf(route.params), [route]);
  return [location, (next) => navigate(hashFor(window.location.hash, next))];
}
