// Seeded randomness for the generator. Every random choice of a suite comes from a stream
// named by its purpose (e.g. ["layout", videoIndex, attempt]), so one video's layout does not
// shift when another part of the generator draws more or fewer numbers, and a video can be
// planned alone from (seed, index, config). Math.random is never used.

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit integer. */
function fnv1a(text: string, h = 0x811c9dc5): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** splitmix32 finalizer: spreads a 32-bit state over all bits. */
function mix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

/** A small deterministic random source (mulberry32) with the helpers the generator needs. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [lo, hi] (both inclusive). */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
      throw new RangeError(`Rng.int needs integers lo <= hi (got ${lo}, ${hi})`);
    }
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("Rng.pick on an empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** The random stream of `seed` for one purpose, named by `parts`. */
export function rngFor(seed: number, ...parts: readonly (string | number)[]): Rng {
  let h = mix32(seed >>> 0);
  for (const p of parts) h = mix32(fnv1a(`${typeof p}:${p}|`, h));
  return new Rng(h);
}

/**
 * Balanced draws: value number `index` of an endless deck made of shuffled copies of `values`
 * (copy `c` covers indices `c*n .. c*n+n-1`). Any `n` consecutive draws aligned on a copy hold
 * every value once, so answers spread evenly over a generated set, while each draw is still a
 * pure function of (seed, name, index).
 */
export function deckDraw<T>(seed: number, name: string, values: readonly T[], index: number): T {
  if (values.length === 0) throw new RangeError(`deck "${name}" has no values`);
  const copy = Math.floor(index / values.length);
  const order = rngFor(seed, "deck", name, copy).shuffle(values);
  return order[index % values.length]!;
}
