// Which values of the results matrix are marked "best" (bold, like the paper's tables), and why a
// column has none. A best is only claimed between comparable, settled figures: every value of the
// column comes from a finished run over at least `minN` samples. The minimum is the URL's `?minN=`
// (default DEFAULT_MIN_BEST_N), set by the control under the matrix.
import type { EvalMatrixOutput } from "@paravt/shared";

type Row = EvalMatrixOutput["rows"][number];
type Column = EvalMatrixOutput["columns"][number];

export const DEFAULT_MIN_BEST_N = 30;
export const MIN_BEST_N_PARAM = "minN";
/** The key of the Average column in `BestMarks`. */
export const AVERAGE_KEY = "average";

/** `?minN=` as a whole number >= 1; anything else (absent, a typo) is the default. */
export function minBestNFrom(params: Pick<URLSearchParams, "get"> | null): number {
  const raw = params?.get(MIN_BEST_N_PARAM)?.trim();
  const n = raw ? Number(raw) : NaN;
  return Number.isSafeInteger(n) && n >= 1 ? n : DEFAULT_MIN_BEST_N;
}

export interface BestMarks {
  /** Column key (dataset id or AVERAGE_KEY) -> the best value in it. */
  best: Map<string, number>;
  /** Columns with different values to compare and no best, with the reason, in column order. */
  withheld: { key: string; name: string; reason: string }[];
}

interface Entry {
  value: number;
  n: number;
  finished: boolean;
}

/** The figures an average is over: the row's cells with a value. */
function averageEntry(row: Row): Entry | null {
  if (row.average === null) return null;
  const cells = Object.values(row.cells).filter((c) => c.value !== null);
  return {
    value: row.average,
    n: cells.length ? Math.min(...cells.map((c) => c.n)) : 0,
    finished: cells.every((c) => c.status === "SUCCEEDED"),
  };
}

/**
 * The best of each column and of Average. A column gets one when it has at least two different
 * values (bolding every 0.0 is noise), all from finished runs, each over at least `minN` samples
 * (an average: each of its cells); otherwise it has none and `withheld` says why.
 */
export function bestMarks(rows: readonly Row[], columns: readonly Column[], minN: number): BestMarks {
  const out: BestMarks = { best: new Map(), withheld: [] };
  const judge = (key: string, name: string, entries: (Entry | null)[]) => {
    const es = entries.filter((e): e is Entry => e !== null);
    const values = es.map((e) => e.value);
    if (es.length < 2 || Math.max(...values) === Math.min(...values)) return;
    const small = es.filter((e) => e.n < minN);
    if (small.length) {
      const least = Math.min(...small.map((e) => e.n));
      out.withheld.push({ key, name, reason: `a value is over n=${least} samples, fewer than ${minN}` });
      return;
    }
    if (es.some((e) => !e.finished)) {
      out.withheld.push({ key, name, reason: "a run has not finished" });
      return;
    }
    out.best.set(key, Math.max(...values));
  };
  for (const c of columns)
    judge(
      c.datasetId,
      c.name,
      rows.map((r) => {
        const cell = r.cells[c.datasetId];
        return cell && cell.value !== null
          ? { value: cell.value, n: cell.n, finished: cell.status === "SUCCEEDED" }
          : null;
      }),
    );
  judge(AVERAGE_KEY, "Average", rows.map(averageEntry));
  return out;
}

/** How many datasets a row's average is over. */
export function averageOver(row: Row): number {
  return Object.values(row.cells).filter((c) => c.value !== null).length;
}
