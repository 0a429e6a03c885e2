import { useCallback, useSyncExternalStore } from "react";

// Writes through `useSessionValue` tell every reader on the page; sessionStorage itself raises no
// event in the tab that wrote it.
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The server has no sessionStorage: it renders "nothing stored", and so does hydration. */
const serverSnapshot = () => null;

/**
 * One sessionStorage entry of this tab as state: `null` while nothing is stored, and during the
 * server render and hydration, which must produce the same markup (a useState initializer that
 * read the storage made the first client render differ from the server's HTML: a hydration
 * mismatch). React renders again with the stored value right after hydrating. A client-side
 * navigation reads the stored value on the first render. `set(null)` removes the entry.
 */
export function useSessionValue(key: string): [string | null, (value: string | null) => void] {
  const value = useSyncExternalStore(subscribe, () => window.sessionStorage.getItem(key), serverSnapshot);
  const set = useCallback(
    (next: string | null) => {
      if (next === null) window.sessionStorage.removeItem(key);
      else window.sessionStorage.setItem(key, next);
      for (const l of listeners) l();
    },
    [key],
  );
  return [value, set];
}
