import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiFailure } from '../shared/api.ts';

export function errorText(e: unknown): string {
  if (e instanceof ApiFailure) return e.error.message;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Run an async loader; returns [data, error, reload]. Data loaded for other deps (another question,
 * another exam) is never returned while the new deps load: a view never shows the previous
 * question's data under the new one's heading. A reload keeps the data shown until it is replaced.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [T | undefined, string | undefined, () => void] {
  const [state, setState] = useState<{ deps: unknown[]; data?: T; error?: string }>({ deps });
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    const forDeps = deps;
    loadRef.current().then(
      (d) => live && setState({ deps: forDeps, data: d }),
      (e) => live && setState((s) => ({ deps: forDeps, data: sameDeps(s.deps, forDeps) ? s.data : undefined, error: errorText(e) })),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick]);
  const current = sameDeps(state.deps, deps);
  return [current ? state.data : undefined, current ? state.error : undefined, useCallback(() => setTick((t) => t + 1), [])];
}

const sameDeps = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

export function download(fileName: string, text: string, type = 'text/csv') {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

export const fmtSeconds = (s: number | null): string => {
  if (s === null || !Number.isFinite(s)) return '—';
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${Math.round(s % 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
};
