// Server-side coalescing of bursts (issue 42 item 1). The first event of a key goes out at once;
// later ones within `windowMs` are merged and go out as one when the window closes, which opens
// the next window; a key quiet for a whole window starts over. A run streaming steps at any rate
// thus costs each live page at most one event per window, at most `windowMs` late.

export interface Coalescer<T> {
  push(item: T): void;
  /** Stops the timers; merged items not yet out are dropped (the subscription is over). */
  close(): void;
}

export function createCoalescer<T>(opts: {
  windowMs: number;
  key: (item: T) => string;
  merge: (earlier: T, later: T) => T;
  emit: (item: T) => void;
}): Coalescer<T> {
  const open = new Map<string, { held: T | undefined; timer: ReturnType<typeof setTimeout> }>();
  const startWindow = (key: string) => {
    const timer = setTimeout(() => {
      const w = open.get(key);
      if (!w) return;
      if (w.held === undefined) {
        open.delete(key);
        return;
      }
      const item = w.held;
      w.held = undefined;
      w.timer = startWindow(key);
      opts.emit(item);
    }, opts.windowMs);
    return timer;
  };
  return {
    push(item) {
      if (opts.windowMs <= 0) return opts.emit(item);
      const key = opts.key(item);
      const w = open.get(key);
      if (!w) {
        open.set(key, { held: undefined, timer: startWindow(key) });
        opts.emit(item);
        return;
      }
      w.held = w.held === undefined ? item : opts.merge(w.held, item);
    },
    close() {
      for (const w of open.values()) clearTimeout(w.timer);
      open.clear();
    },
  };
}
