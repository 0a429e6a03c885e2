// Test support (issue 42 item 3): where a tally summary differs from `summarize`'s, if anywhere.
// Numbers are equal to 1e-9 relative: the tallies add in another order, and standard errors come
// from sums of squares instead of two passes.
import type { EvalSummary } from "../../contracts/evals";

/** The first figure where `actual` differs from `expected`, as `path: actual vs expected`; null when none. */
export function summaryDifference(actual: EvalSummary, expected: EvalSummary): string | null {
  const walk = (a: unknown, e: unknown, path: string): string | null => {
    if (typeof e === "number" && typeof a === "number") {
      return Math.abs(a - e) <= 1e-9 * Math.max(1, Math.abs(e)) ? null : `${path}: ${a} vs ${e}`;
    }
    if (e !== null && typeof e === "object" && a !== null && typeof a === "object") {
      const keys = Object.keys(e).sort();
      if (keys.join() !== Object.keys(a).sort().join())
        return `${path}: keys ${Object.keys(a).sort().join()} vs ${keys.join()}`;
      for (const k of keys) {
        const d = walk((a as Record<string, unknown>)[k], (e as Record<string, unknown>)[k], `${path}.${k}`);
        if (d) return d;
      }
      return null;
    }
    return a === e ? null : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(e)}`;
  };
  return walk(actual, expected, "summary");
}
