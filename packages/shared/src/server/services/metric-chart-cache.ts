// The chart cache (issue 42 item 2): what `metrics.readSeriesWindow` answered, kept in this
// process and keyed by the run's metrics watermark (`metric_watermarks.version`, bumped by a
// statement trigger in the same transaction as every insert, update or delete of the run's
// metric rows). A read first asks Postgres for the version (one index probe, with the run's
// project check); an entry of an older version is never found again, since every write gives the
// run a new version. Many people on the same run's page cost one database read per version; a
// finished run's charts stay until evicted. Per process: a second web server keeps its own, and
// reads the same versions, so neither can answer from rows the other has seen change.

/**
 * Bound of the cache in points (~80 bytes each in three frozen number columns, whose fractional
 * numbers V8 keeps boxed: ~40 MB, some 80 charts of 6 series x 1,000 points).
 */
export const CHART_CACHE_MAX_POINTS = 500_000;

export interface ChartCacheStats {
  hits: number;
  misses: number;
  entries: number;
  points: number;
}

/**
 * A least-recently-used map bounded by the points it holds, with one load in flight per key:
 * clients asking for the same chart while it is being read wait for that read (50 viewers of a
 * run whose version just moved cost one read, not 50).
 */
export class ChartCache<V> {
  // A Map iterates in insertion order: a hit re-inserts its entry, so the first is the oldest.
  private readonly entries = new Map<string, { value: V; points: number }>();
  private readonly inflight = new Map<string, Promise<V>>();
  private held = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    private readonly maxPoints: number,
    private readonly pointsOf: (value: V) => number,
  ) {}

  /**
   * The entry of `key`, or `load`'s answer. `load` says the key its value is for: a read that
   * found a newer version than the one asked about keeps its value under that version.
   */
  async read(key: string, load: () => Promise<{ key: string; value: V }>): Promise<V> {
    const found = this.entries.get(key);
    if (found) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, found);
      return found.value;
    }
    const pending = this.inflight.get(key);
    if (pending) {
      this.hits++;
      return pending;
    }
    this.misses++;
    const loading = load().then(({ key: at, value }) => {
      this.store(at, value);
      return value;
    });
    this.inflight.set(key, loading);
    try {
      return await loading;
    } finally {
      this.inflight.delete(key);
    }
  }

  stats(): ChartCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.entries.size, points: this.held };
  }

  /** Drops every entry and zeroes the counts (benchmarks time the database read with it). */
  clear(): void {
    this.entries.clear();
    this.held = 0;
    this.hits = 0;
    this.misses = 0;
  }

  private store(key: string, value: V): void {
    const points = this.pointsOf(value);
    if (points > this.maxPoints) return;
    const old = this.entries.get(key);
    if (old) {
      this.held -= old.points;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, points });
    this.held += points;
    for (const [k, e] of this.entries) {
      if (this.held <= this.maxPoints) break;
      this.entries.delete(k);
      this.held -= e.points;
    }
  }
}
