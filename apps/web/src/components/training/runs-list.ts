// The Training tab's view in the URL (issue 41 items 8 and 11), so a link reproduces the table:
// `?kind=all&status=SUCCEEDED` (which runs the server lists), `col=status&col=config:lr` (the
// columns, in order; none means the default set, one empty `col=` means no optional column),
// `sort=-last:loss` (descending), `q=preset=tiny loss<1` (the filter), `group=config:preset`,
// `sel=<id>,<id>` (runs picked to overlay). Unknown or malformed values are dropped, never an error.
import { RUN_STATUSES, RUNS_TABLE_KINDS, type RunStatus, type RunsTableKind } from "@paravt/shared";
import { MAX_OVERLAY_RUNS } from "./overlay";
import { columnOf } from "./runs-table-columns";
import type { SortSpec } from "./runs-table-model";

export interface RunsView {
  kind?: RunsTableKind;
  status?: RunStatus;
  /** Column keys in order; null: the default set. */
  columns: string[] | null;
  sort: SortSpec | null;
  filter: string;
  /** The column rows are grouped by. */
  group: string | null;
  /** Run ids picked to overlay, at most MAX_OVERLAY_RUNS. */
  selected: string[];
}

export const EMPTY_VIEW: RunsView = { columns: null, sort: null, filter: "", group: null, selected: [] };

/** Run ids as Prisma makes them (the overlay page accepts the same). */
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The parameters this view owns; any other is kept as it is. */
const OWN = ["kind", "status", "col", "sort", "q", "group", "sel"];

export function runsViewFrom(params: URLSearchParams): RunsView {
  const kind = params.get("kind");
  const status = params.get("status");
  const cols = params.getAll("col");
  const sort = params.get("sort") ?? "";
  const sortKey = sort.replace(/^-/, "");
  const group = params.get("group");
  return {
    ...((RUNS_TABLE_KINDS as readonly string[]).includes(kind ?? "") ? { kind: kind as RunsTableKind } : {}),
    ...((RUN_STATUSES as readonly string[]).includes(status ?? "") ? { status: status as RunStatus } : {}),
    columns: cols.length === 0 ? null : [...new Set(cols.filter((k) => k !== "name" && columnOf(k) !== null))],
    sort: columnOf(sortKey) ? { key: sortKey, dir: sort.startsWith("-") ? "desc" : "asc" } : null,
    filter: params.get("q") ?? "",
    group: group && columnOf(group) ? group : null,
    selected: [
      ...new Set(
        (params.get("sel") ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter((s) => RUN_ID.test(s)),
      ),
    ].slice(0, MAX_OVERLAY_RUNS),
  };
}

/** The query string of `view` over `current` (its other parameters kept): "" or "?…". */
export function runsViewSearch(view: RunsView, current: URLSearchParams = new URLSearchParams()): string {
  const q = new URLSearchParams(current);
  for (const k of OWN) q.delete(k);
  if (view.kind) q.set("kind", view.kind);
  if (view.status) q.set("status", view.status);
  if (view.columns !== null) {
    if (view.columns.length === 0) q.append("col", "");
    for (const c of view.columns) q.append("col", c);
  }
  if (view.sort) q.set("sort", `${view.sort.dir === "desc" ? "-" : ""}${view.sort.key}`);
  if (view.filter.trim()) q.set("q", view.filter);
  if (view.group) q.set("group", view.group);
  if (view.selected.length) q.set("sel", view.selected.join(","));
  // Readable links: the separators of column keys and id lists need no escaping in a query.
  const s = q.toString().replace(/%3A/g, ":").replace(/%2C/g, ",");
  return s ? `?${s}` : "";
}

/** The selection with `id` ticked or unticked; at most MAX_OVERLAY_RUNS are kept. */
export function toggleSelected(selected: readonly string[], id: string): string[] {
  if (selected.includes(id)) return selected.filter((s) => s !== id);
  return selected.length >= MAX_OVERLAY_RUNS ? [...selected] : [...selected, id];
}
