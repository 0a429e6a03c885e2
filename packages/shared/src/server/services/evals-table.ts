// An evaluation group as the paper's main table (SPEC §5): models (x tool class x K) as rows,
// benchmarks as columns with their headline figure (MCQ accuracy, Charades-STA mIoU), an average
// column; rendered as CSV and Markdown. Pure: built from run outputs whose summaries come from
// stored rows (evals-summary.ts), through the same cells as the results matrix (evals-matrix.ts).
import type { EvalGroupTableOutput, EvalMatrixOutput, EvalRunOutput, EvalSummary } from "../../contracts/evals";
import { EVAL_QUANTITIES, type EvalQuantity } from "../../contracts/eval-quantities";
import { csvRow } from "../csv";
import { buildMatrix } from "./evals-matrix";

type TableRow = EvalGroupTableOutput["rows"][number];

/** A fraction as the paper prints it: percent with one decimal; "" when there is none. */
export function percent(v: number | null | undefined): string {
  return v === null || v === undefined ? "" : (v * 100).toFixed(1);
}

/** What the table's figures count, printed under the Markdown table and stated once in the README. */
export const TABLE_POLICY =
  "Figures in %, one decimal. Accuracy (multiple choice), mIoU (temporal grounding, IoU = " +
  "intersection / hull span) and Score (open-ended, mean score) are over answered samples: an ERROR episode (dead server, dropped " +
  "connection, unreadable video) is left out, never counted as a wrong answer; each row's notes " +
  "say how many. Avg: mean over every benchmark column, blank when the row lacks one.";

function notesOf(name: string, r: EvalRunOutput): string[] {
  const s = r.summary;
  const notes: string[] = [];
  if (r.status !== "SUCCEEDED") notes.push(`${name}: ${r.status.toLowerCase()}, ${s.stored}/${s.samples} stored`);
  if (s.errors > 0) notes.push(`${name}: ${s.errors} ERROR episode${s.errors === 1 ? "" : "s"} left out`);
  return notes;
}

type MatrixRow = EvalMatrixOutput["rows"][number];

/**
 * The matrix's (model, mode, K) rows joined into (model, tool class, K) rows, as the paper lists a
 * model once: rows of one model, tool class and K merge while they cover different benchmarks.
 */
function joinModes(rows: readonly MatrixRow[]): MatrixRow[] {
  const out: { key: string; row: MatrixRow }[] = [];
  for (const r of rows) {
    const key = `${r.modelId}|${r.withTool}|${r.k}`;
    const into = out.find((o) => o.key === key && Object.keys(r.cells).every((id) => !(id in o.row.cells)));
    if (into) into.row = { ...into.row, cells: { ...into.row.cells, ...r.cells } };
    else out.push({ key, row: r });
  }
  return out.map((o) => o.row);
}

export function buildGroupTable(group: { id: string; name: string }, runs: readonly EvalRunOutput[]) {
  const matrix = buildMatrix(runs);
  const byId = new Map(runs.map((r) => [r.id, r]));
  const columns = matrix.columns.map((c) => {
    const cell = matrix.rows.map((r) => r.cells[c.datasetId]).find((x) => x !== undefined);
    return { datasetId: c.datasetId, name: c.name, metric: cell?.metric ?? ("accuracy" as const) };
  });
  const joined = joinModes(matrix.rows);
  const rows: TableRow[] = joined.map((row) => {
    const values = columns.map((c) => row.cells[c.datasetId]?.value ?? null);
    const complete = values.every((v): v is number => v !== null);
    const notes = columns.flatMap((c) => {
      const cell = row.cells[c.datasetId];
      return cell ? notesOf(c.name, byId.get(cell.runId)!) : [];
    });
    // The modes of the row's runs in column order, each once.
    const modes = columns.flatMap((c) => {
      const cell = row.cells[c.datasetId];
      return cell ? [byId.get(cell.runId)!.mode] : [];
    });
    return {
      modelName: row.modelName,
      modes: [...new Set(modes)],
      k: row.k,
      withTool: row.withTool,
      values,
      average: complete && values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
      notes,
    };
  });
  const table = { group, columns, rows };
  // Each run of the table (a cell's winner), for the Markdown's per-run section.
  const cellRuns = joined.flatMap((row) =>
    columns.flatMap((c) => {
      const cell = row.cells[c.datasetId];
      return cell ? [{ dataset: c.name, run: byId.get(cell.runId)! }] : [];
    }),
  );
  return {
    ...table,
    fileName: `paravt-${slug(group.name)}-table`,
    csv: tableCsv(table),
    markdown: tableMarkdown(table, cellRuns),
  } satisfies EvalGroupTableOutput;
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "group"
  );
}

type Table = Pick<EvalGroupTableOutput, "group" | "columns" | "rows">;

/** A column's figure in the header: the glossary's word (eval-quantities.ts), "Acc" as the paper prints it. */
const metricLabel = (m: EvalQuantity) => (m === "accuracy" ? "Acc" : EVAL_QUANTITIES[m].label);

function header(t: Table): string[] {
  return ["Model", "Mode", "K", "Tools", ...t.columns.map((c) => `${c.name} (${metricLabel(c.metric)})`), "Avg"];
}

function cells(r: TableRow): (string | number)[] {
  return [
    r.modelName,
    r.modes.join(" + "),
    r.k,
    r.withTool ? "yes" : "no",
    ...r.values.map(percent),
    percent(r.average),
  ];
}

/** RFC 4180, one row per model setting; names are user text, so formulas are guarded. */
export function tableCsv(t: Table): string {
  const lines = [csvRow([...header(t), "Notes"], { guardFormulas: true })];
  for (const r of t.rows) lines.push(csvRow([...cells(r), r.notes.join("; ")], { guardFormulas: true }));
  return `${lines.join("\r\n")}\r\n`;
}

/** A Markdown table cell: pipes escaped, line breaks flattened, blank as an em dash. */
function md(v: string | number): string {
  const s = String(v)
    .replace(/\r?\n|\r/g, " ")
    .replaceAll("|", "\\|");
  return s === "" ? "—" : s;
}

function mdTable(head: readonly string[], body: readonly (readonly (string | number)[])[], numericFrom: number) {
  const align = head.map((_, i) => (i >= numericFrom ? "---:" : "---"));
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(head.map(md)), line(align), ...body.map((r) => line(r.map(md)))];
}

function runDetail(dataset: string, r: EvalRunOutput): (string | number)[] {
  const s: EvalSummary = r.summary;
  const g = s.grounding;
  const d = s.byDuration;
  return [
    r.model?.name ?? "",
    r.mode,
    r.k,
    dataset,
    r.status.toLowerCase(),
    `${s.stored}/${s.samples}`,
    s.errors,
    s.mcq ? percent(s.mcq.accuracy) : "",
    d ? percent(d.short.accuracy) : "",
    d ? percent(d.medium.accuracy) : "",
    d ? percent(d.long.accuracy) : "",
    g ? percent(g.mIoU) : "",
    g ? percent(g.r03) : "",
    g ? percent(g.r05) : "",
    g ? percent(g.r07) : "",
    s.formatCompliance ? percent(s.formatCompliance.rate) : "",
    percent(s.toolUsageRate),
    s.avgToolCalls === null ? "" : s.avgToolCalls.toFixed(2),
  ];
}

const DETAIL_HEAD = [
  "Model",
  "Mode",
  "K",
  "Benchmark",
  "Status",
  "Stored",
  "Errors",
  "Acc",
  "Short",
  "Medium",
  "Long",
  "mIoU",
  "R@0.3",
  "R@0.5",
  "R@0.7",
  "Format compliance",
  "Tool usage",
  "Avg calls",
];

/** The main table, its notes and policy, then every run's SPEC §5 summary. */
export function tableMarkdown(t: Table, runs: readonly { dataset: string; run: EvalRunOutput }[]): string {
  const main = mdTable(header(t), t.rows.map(cells), 2);
  const notes = t.rows.flatMap((r) =>
    r.notes.map((n) => `- ${md(r.modelName)} (${r.modes.join(" + ")}, K=${r.k}): ${md(n)}`),
  );
  const detail = mdTable(
    DETAIL_HEAD,
    runs.map((x) => runDetail(x.dataset, x.run)),
    5,
  );
  return [
    `# ${md(t.group.name)}`,
    "",
    ...main,
    "",
    TABLE_POLICY,
    ...(notes.length ? ["", "Notes:", "", ...notes] : []),
    "",
    "## Per run",
    "",
    "VideoMME accuracy by duration (Short / Medium / Long); Charades-STA mIoU and recall at IoU >= 0.3 / 0.5 / 0.7; " +
      "format compliance over answered episodes with stored turns (blank for imported reference runs); " +
      "tool usage = answered samples with >= 1 tool call; Avg calls per answered sample.",
    "",
    ...detail,
    "",
  ].join("\n");
}
