"use client";
import { useMemo, useSyncExternalStore } from "react";

/**
 * The player's current time as a tiny external store. The player writes it on every timeupdate
 * (4+ times a second while playing); only the components that read it (the playhead, the time
 * readout) re-render, never the page or the lanes.
 */
export interface PlaybackClock {
  get(): number;
  set(t: number): void;
  subscribe(listener: () => void): () => void;
}

export function createPlaybackClock(initial = 0): PlaybackClock {
  let t = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => t,
    set(next) {
      if (next === t) return;
      t = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A clock owned by the calling component (stable across renders). */
export function usePlaybackClockState(initial = 0): PlaybackClock {
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the initial time only seeds the clock
  return useMemo(() => createPlaybackClock(initial), []);
}

/** The current time of a clock, or a plain number passed through (for callers that re-render anyway). */
export function usePlaybackTime(source: PlaybackClock | number): number {
  const clock = typeof source === "number" ? null : source;
  const fromClock = useSyncExternalStore(
    (l) => (clock ? clock.subscribe(l) : () => {}),
    () => (clock ? clock.get() : 0),
    () => (clock ? clock.get() : 0),
  );
  return clock ? fromClock : (source as number);
}
