import { useEffect, useState, type DependencyList } from 'react';

/** A value loaded once: loading, ready, or failed with the server's message. */
export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; message: string };

/** Loads a value when `deps` change; the latest request wins. Without `load`, the last state stays. */
export function useLoaded<T>(load: (() => Promise<T>) | undefined, deps: DependencyList): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  useEffect(() => {
    if (!load) return;
    let current = true;
    setLoaded({ state: 'loading' });
    load().then(
      (value) => current && setLoaded({ state: 'ready', value }),
      (error: unknown) => current && setLoaded({ state: 'error', message: errorText(error) }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return loaded;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
