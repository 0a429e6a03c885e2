// The Training tab's runs table as a pure model (issue 41 item 11): the filter language, sorting
// with missing values last, and grouping by a setting with the mean of each summary column.
import { columnOf, isSummary, type CellValue, type TableColumn, type TableRun } from "./runs-table-columns";

// ----- filter ----------------------------------------------------------------------------------

export const FILTER_OPS = ["!=", ">=", "<=", "=", ">", "<"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/**
 * One term of a filter: a word matched in the run's name, kind or status, or a comparison of a
 * column (`preset=tiny`, `loss<0.5`, `config:lr>=0.001`, `name="my run"`).
 */
export type FilterTerm = { type: "text"; text: string } | { type: "compare"; key: string; op: FilterOp; value: string };

export interface ParsedFilter {
  terms: FilterTerm[];
  /** Terms that were not understood, with why (shown under the filter; they filter nothing). */
  problems: string[];
}

/** Words separated by spaces; double quotes keep spaces in a word (`name="run a"`). */
function words(text: string): string[] {
  return [...text.matchAll(/(?:[^\s"]+|"[^"]*"?)+/g)].map((m) => m[0]);
}

const unquote = (s: string) => s.replace(/^"(.*?)"?$/, "$1");
const COMPARISON = /^([^<>=!]+?)(!=|>=|<=|=|>|<)(.*)$/;

export function parseFilter(text: string): ParsedFilter {
  const out: ParsedFilter = { terms: [], problems: [] };
  for (const word of words(text)) {
    const m = COMPARISON.exec(word);
    if (!m) {
      const t = unquote(word).trim();
      if (t) out.terms.push({ type: "text", text: t });
      continue;
    }
    const [, key, op, raw] = m as unknown as [string, string, FilterOp, string];
    const value = unquote(raw);
    if (value === "") out.problems.push(`${word}: a value is missing after ${op}`);
    else if (op !== "=" && op !== "!=" && !Number.isFinite(Number(value))) {
      out.problems.push(`${word}: ${op} compares numbers`);
    } else out.terms.push({ type: "compare", key: unquote(key), op, value });
  }
  return out;
}

/**
 * The column a filter key means: a column key as written (`config:lr`, `last:loss`, `status`),
 * else a setting of that name, else a metric's last value, else an evaluation figure. A key that
 * no run has is a setting: no run has it, so the comparison matches none.
 */
export function resolveFilterKey(key: string, known: ReadonlySet<string>): string {
  if (known.has(key) || columnOf(key)?.source === "run") return key;
  for (const candidate of [`config:${key}`, `last:${key}`, `eval:${key}`]) if (known.has(candidate)) return candidate;
  return columnOf(key) ? key : `config:${key}`;
}

function compare(cell: CellValue, op: FilterOp, value: string): boolean {
  // A comparison says something about a value: a run without one matches none.
  if (cell === null) return false;
  const n = Number(value);
  if (op === "=" || op === "!=") {
    const equal =
      typeof cell === "number" && value.trim() !== "" && Number.isFinite(n)
        ? cell === n
        : String(cell).toLowerCase() === value.toLowerCase();
    return op === "=" ? equal : !equal;
  }
  if (typeof cell !== "number") return false;
  if (op === ">") return cell > n;
  if (op === ">=") return cell >= n;
  if (op === "<") return cell < n;
  return cell <= n;
}

/** The runs every term matches (all terms must match). */
export function filterRuns(runs: readonly TableRun[], terms: readonly FilterTerm[]): TableRun[] {
  if (terms.length === 0) return [...runs];
  const known = new Set(runs.flatMap((r) => [...r.values.keys()]));
  const resolved = terms.map((t) => (t.type === "compare" ? { ...t, key: resolveFilterKey(t.key, known) } : t));
  return runs.filter((r) =>
    resolved.every((t) => {
      if (t.type === "compare") return compare(r.values.get(t.key) ?? null, t.op, t.value);
      const needle = t.text.toLowerCase();
      return [r.row.name, r.row.kind, r.row.status].some((v) => v.toLowerCase().includes(needle));
    }),
  );
}

// ----- sort ------------------------------------------------------------------------------------

export interface SortSpec {
  key: string;
  dir: "asc" | "desc";
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Ascending order of two present values: numbers before texts, numbers by value, texts naturally. */
export function compareCells(a: number | string, b: number | string): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return collator.compare(a, b);
}

/**
 * The runs by one column; runs without a value come last in either direction (a missing loss is
 * not the best one). Ties keep the server's order (newest first).
 */
export function sortRuns(runs: readonly TableRun[], sort: SortSpec | null): TableRun[] {
  if (!sort) return [...runs];
  const sign = sort.dir === "asc" ? 1 : -1;
  return runs
    .map((run, index) => ({ run, index, v: run.values.get(sort.key) ?? null }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.index - b.index : a.v === null ? 1 : -1;
      return sign * compareCells(a.v, b.v) || a.index - b.index;
    })
    .map((x) => x.run);
}

/** The sort a click on a column's header asks for: ascending first, then descending, then none. */
export function nextSort(current: SortSpec | null, key: string): SortSpec | null {
  if (current?.key !== key) return { key, dir: "asc" };
  return current.dir === "asc" ? { key, dir: "desc" } : null;
}

// ----- group -----------------------------------------------------------------------------------

export interface RunGroup {
  /** The group's value of the grouping column; null for the runs without one. */
  value: CellValue;
  runs: TableRun[];
  /** Column key -> mean of the group's numeric values in that summary column (absent: none). */
  means: Map<string, number>;
}

/**
 * The runs by their value of `key`, groups in ascending order of that value and the runs without
 * one last; runs keep their order inside a group. Each group has the mean of every summary column
 * of `columns` over its runs that have a number there.
 */
export function groupRuns(runs: readonly TableRun[], key: string, columns: readonly TableColumn[]): RunGroup[] {
  const groups = new Map<string, RunGroup>();
  for (const run of runs) {
    const value = run.values.get(key) ?? null;
    // Grouped by what the cell shows: the setting 1 and the text "1" are one group.
    const id = value === null ? "\u0000none" : String(value);
    const group: RunGroup = groups.get(id) ?? { value, runs: [], means: new Map() };
    group.runs.push(run);
    groups.set(id, group);
  }
  const summary = columns.filter(isSummary);
  for (const group of groups.values()) {
    for (const c of summary) {
      const numbers = group.runs.map((r) => r.values.get(c.key)).filter((v): v is number => typeof v === "number");
      if (numbers.length) group.means.set(c.key, numbers.reduce((a, b) => a + b, 0) / numbers.length);
    }
  }
  return [...groups.values()].sort((a, b) => {
    if (a.value === null || b.value === null) return a.value === b.value ? 0 : a.value === null ? 1 : -1;
    return compareCells(a.value, b.value);
  });
}
