// The columns of the Training tab's runs table (issue 41 item 11) and each run's value in them.
// A column key names where its value comes from: a run field (`status`), a resolved setting
// (`config:<dotted key>`), a metric series' last or best value (`last:<name>`, `best:<name>`) or an
// evaluation's figure (`eval:<key>`). Pure, so the table model and its tests see the same values.
import {
  EVAL_QUANTITIES,
  EVAL_QUANTITY_KEYS,
  EVAL_TERMS,
  flattenConfig,
  RUNS_TABLE_EVAL_KEYS,
  type RunsTableEvalKey,
  type RunsTableRow,
} from "@paravt/shared";
import { formatDuration, timeAgo } from "../format";
import { resolveRunConfig, runDurationS } from "../runs/run-config";
import { formatFor } from "./series";

/** A cell's value: numbers sort and filter as numbers, anything else as text; null is missing. */
export type CellValue = number | string | null;

export type ColumnSource = "run" | "config" | "last" | "best" | "eval";

export interface TableColumn {
  key: string;
  label: string;
  source: ColumnSource;
}

/** The run fields offered as columns, in picker order. The run's name is always shown. */
export const RUN_COLUMNS = [
  { key: "kind", label: "Kind" },
  { key: "status", label: "Status" },
  { key: "headline", label: "Headline" },
  { key: "steps", label: "Steps" },
  { key: "created", label: "Created" },
  { key: "started", label: "Started" },
  { key: "finished", label: "Finished" },
  { key: "duration", label: "Duration" },
  { key: "model", label: "Model" },
  { key: "dataset", label: "Dataset" },
  { key: "produced", label: "Model produced" },
] as const;
export type RunColumnKey = (typeof RUN_COLUMNS)[number]["key"] | "name";

/** What a link without `col` shows: the figures the Training tab always showed. */
export const DEFAULT_COLUMNS: readonly string[] = ["status", "headline", "steps", "started", "duration", "produced"];

const RUN_KEYS = new Set<string>(["name", ...RUN_COLUMNS.map((c) => c.key)]);
const PREFIXED = /^(config|last|best|eval):(.+)$/;

/** The words of an evaluation figure (contracts/eval-quantities.ts: one word per quantity). */
export const EVAL_LABELS: Record<RunsTableEvalKey, string> = {
  accuracy: EVAL_QUANTITIES.accuracy.label,
  score: EVAL_QUANTITIES.score.label,
  mIoU: EVAL_QUANTITIES.mIoU.label,
  formatCompliance: EVAL_TERMS.formatCompliance,
  toolUsage: EVAL_TERMS.toolUsage,
  avgToolCalls: EVAL_TERMS.avgToolCalls,
  errors: "Errors",
};

/** The column a key names, or null for a key no column can have (dropped from a link). */
export function columnOf(key: string): TableColumn | null {
  if (RUN_KEYS.has(key)) {
    return { key, label: RUN_COLUMNS.find((c) => c.key === key)?.label ?? "Run", source: "run" };
  }
  const m = PREFIXED.exec(key);
  if (!m) return null;
  const [, source, name] = m as unknown as [string, ColumnSource, string];
  if (source === "eval") {
    return (RUNS_TABLE_EVAL_KEYS as readonly string[]).includes(name)
      ? { key, label: EVAL_LABELS[name as RunsTableEvalKey], source }
      : null;
  }
  if (source === "last") return { key, label: name, source };
  if (source === "best") return { key, label: `${name} (best)`, source };
  return { key, label: name, source };
}

/** Whether a column's values are summary figures (a group's header shows their mean). */
export const isSummary = (c: TableColumn) => c.source === "last" || c.source === "best" || c.source === "eval";

/** A run with its value in every column it has (computed once per answer). */
export interface TableRun {
  row: RunsTableRow;
  /** Column key -> value; a key absent is a missing value. */
  values: Map<string, CellValue>;
  /** Only SFT and RL runs (own or ingested) have metric charts to overlay. */
  overlayable: boolean;
}

/** A setting's JSON leaf as a cell: numbers stay numbers, strings lose their quotes. */
function settingValue(json: string): CellValue {
  const v: unknown = JSON.parse(json);
  if (typeof v === "number") return v;
  if (typeof v === "string") return v;
  return json; // true / false / null / an array: as written
}

/** The value a run's headline column sorts by (what `headlineText` shows). */
function headlineValue(row: RunsTableRow): CellValue {
  if (row.eval) return row.eval.values[row.eval.headline];
  const name = row.kind === "sft" ? "loss" : row.kind === "rl" ? "reward_mean" : null;
  return row.metrics.find((m) => m.name === name)?.last ?? null;
}

export function tableRun(row: RunsTableRow, now: Date): TableRun {
  const values = new Map<string, CellValue>();
  const set = (key: string, v: CellValue | undefined) => {
    if (v !== null && v !== undefined) values.set(key, v);
  };
  set("name", row.name);
  set("kind", row.kind);
  set("status", row.status.toLowerCase());
  set("headline", headlineValue(row));
  set("steps", row.lastStep);
  set("created", row.createdAt.getTime());
  set("started", row.startedAt?.getTime());
  set("finished", row.finishedAt?.getTime());
  set("duration", row.status === "RUNNING" ? runDurationS(row.startedAt, null, now) : row.durationS);
  set("model", row.model?.name);
  set("dataset", row.dataset?.name);
  set("produced", row.producedModel?.name);
  const flat = flattenConfig(resolveRunConfig(row.kind, row.config));
  for (const [k, json] of Object.entries(flat)) set(`config:${k}`, settingValue(json));
  for (const m of row.metrics) {
    set(`last:${m.name}`, m.last);
    set(`best:${m.name}`, m.best);
  }
  if (row.eval) for (const k of RUNS_TABLE_EVAL_KEYS) set(`eval:${k}`, row.eval.values[k]);
  return { row, values, overlayable: row.kind === "sft" || row.kind === "rl" };
}

/**
 * The columns the shown runs can fill, for the picker: settings by key, each metric's last value
 * (and its best when the metric has a direction), the evaluation figures some run has.
 */
export function availableColumns(runs: readonly TableRun[]): { config: string[]; summary: string[]; eval: string[] } {
  const config = new Set<string>();
  const metrics = new Map<string, boolean>();
  const evalKeys = new Set<string>();
  for (const r of runs) {
    for (const key of r.values.keys()) {
      if (key.startsWith("config:")) config.add(key);
      else if (key.startsWith("eval:")) evalKeys.add(key);
    }
    for (const m of r.row.metrics) metrics.set(m.name, (metrics.get(m.name) ?? false) || m.goal !== null);
  }
  const summary = [...metrics.keys()]
    .sort()
    .flatMap((name) => (metrics.get(name) ? [`last:${name}`, `best:${name}`] : [`last:${name}`]));
  return {
    config: [...config].sort(),
    summary,
    eval: RUNS_TABLE_EVAL_KEYS.map((k) => `eval:${k}`).filter((k) => evalKeys.has(k)),
  };
}

const SHARE_KEYS = new Set<string>([...EVAL_QUANTITY_KEYS, "formatCompliance", "toolUsage"]);
const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

/** A value as the column shows it: a metric in its own format, a share in %, a time as its age. */
export function formatCell(column: TableColumn, value: CellValue): string {
  if (value === null) return "—";
  if (typeof value === "string") return value;
  const name = column.key.slice(column.key.indexOf(":") + 1);
  if (column.source === "last" || column.source === "best") return formatFor(name)(value);
  if (column.source === "eval") {
    if (SHARE_KEYS.has(name)) return percent(value);
    return name === "errors" ? String(value) : value.toFixed(2);
  }
  if (column.key === "created" || column.key === "started" || column.key === "finished")
    return timeAgo(new Date(value));
  if (column.key === "duration") return formatDuration(value);
  return String(value);
}

/** The headline cell: "loss 1.235" (SFT), "reward 0.500" (RL), "Accuracy 75.0%" (evaluation). */
export function headlineText(run: TableRun): string {
  const v = run.values.get("headline");
  if (v === undefined || typeof v !== "number") return "—";
  const { row } = run;
  if (row.eval) {
    const q = row.eval.headline;
    return `${EVAL_QUANTITIES[q].short} ${percent(v)}`;
  }
  const figure = Math.abs(v) >= 1000 || (v !== 0 && Math.abs(v) < 0.001) ? v.toExponential(2) : v.toFixed(3);
  return `${row.kind === "sft" ? "loss" : "reward"} ${figure}`;
}

/** "3 / 10" steps done of configured; "— / 10" before the first; "—" when neither is known. */
export function stepsText(row: RunsTableRow): string {
  const done = row.lastStep === null ? "—" : String(row.lastStep);
  return row.totalSteps === null ? done : `${done} / ${row.totalSteps}`;
}
