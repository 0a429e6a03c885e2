// Reading the reference evaluator's output (SPEC §6): `<output_dir>/<dataset>.json` =
// `{summary, results[, submission]}` written by paravt/eval/utils.py::run_dataset (lines 646-759),
// with one row per sample from driver.py::_make_result (lines 320-337: id, answer, pred, correct,
// tool_calls, score, full_response = the first 500 characters of the final text, plus the sample's
// key / config / duration, and pred_text for grounding) or, for a failed sample, from
// utils.py::base_result (lines 198-207: id, answer, pred "", correct false, tool_calls 0, score 0.0)
// plus `error` — without full_response. Charades-STA rows have `correct: null` and the IoU as score;
// the answer is Python's str of the [start, end] list ("[24.3, 30.4]"). Beside them the driver keeps
// `summary_all.json` (utils.py::run_eval lines 970-987), a dict of per-dataset summaries, which is not
// a dataset file. Rows are validated one by one so an error names the row and the field; fields we do
// not know are kept in `extra`. Known limits of these files (SPEC §5): full_response holds only the
// first 500 characters, and dropped connections may have been scored as wrong answers.

import { basename, join } from "node:path";
import { z } from "zod";
import { zodIssues } from "./collector";
import { fileError } from "./errors";
import { isRecord, listFiles, readJson } from "./files";
import type { ReferenceDatasetName } from "./reference-question";
import type { BenchmarkId, JsonRecord } from "./schemas";
import { formatSeconds, parseSpanText } from "./spans";

type JsonValue = JsonRecord[string];

const SpanSchema = z.tuple([z.number(), z.number()]);
const AnswerSchema = z.union([z.string(), z.number(), SpanSchema]);

/** One result row as the reference evaluator writes it (driver.py::_make_result or utils.py::base_result + error). */
export const ReferenceResultRowSchema = z.looseObject({
  /** The sample's id (per benchmark: see REFERENCE_DATASETS); base_result writes "?" when it had none. */
  id: z.union([z.string(), z.number()]),
  answer: AnswerSchema,
  pred: AnswerSchema.nullish(),
  /** A boolean (or 0 / 1); null for grounding rows, whose score is the IoU. */
  correct: z.union([z.boolean(), z.literal(0), z.literal(1)]).nullish(),
  /** A count, or the list of calls. */
  tool_calls: z.union([z.number().int().min(0), z.array(z.json())]),
  /** Accuracy (0 / 1) or IoU. */
  score: z.number().nullish(),
  /** Absent from the rows of failed samples (base_result). */
  full_response: z.string().nullish(),
  key: z.union([z.string(), z.number()]).nullish(),
  config: z.union([z.string(), z.record(z.string(), z.json())]).nullish(),
  /** Seconds, or a duration category ("short" / "medium" / "long"). */
  duration: z.union([z.number().nonnegative(), z.string()]).nullish(),
  pred_text: z.string().nullish(),
  error: z.string().nullish(),
});

export const ReferenceOutputFileSchema = z.looseObject({
  /** Always written by run_dataset; a file assembled by hand may leave it out. */
  summary: z.record(z.string(), z.json()).default({}),
  results: z.array(z.unknown()),
});

export interface ReferenceResult {
  /** 0-based position in `results`. */
  index: number;
  id: string;
  /** The evaluator's sample key when it wrote one (Charades-STA: `video>>>caption>>>[start, end]`). */
  key: string | null;
  config: string | JsonRecord | null;
  /** Ground truth as text; a [start, end] pair becomes "start-end". */
  answer: string;
  answerSpan: [number, number] | null;
  pred: string | null;
  predSpan: [number, number] | null;
  /** null: the row has no correctness (grounding rows; score is the IoU). */
  correct: boolean | null;
  score: number | null;
  toolCalls: number;
  /** The kept part of the final text (the first 500 characters); null when the row has none. */
  fullResponse: string | null;
  predText: string | null;
  /** The row's `error` (present even when empty: the reference counts `"error" in row`). */
  error: string | null;
  /** The final text is the driver's `[API error: …]` (driver.py line 475): the call failed. */
  apiError: string | null;
  durationS: number | null;
  durationCategory: string | null;
  /** Row fields outside the documented set, kept as written. */
  extra: JsonRecord;
}

export interface ReferenceOutput {
  /** From the summary (dataset / benchmark / name) or else the file name without `.json`. */
  dataset: string | null;
  /** The file as given to readReferenceOutput (null when parsed from a value). */
  file: string | null;
  summary: JsonRecord;
  results: ReferenceResult[];
}

/**
 * The reference evaluator's dataset names (`--datasets`, also `summary.dataset` and the file name) and
 * what each is here: paravt/eval/utils.py::load_samples, with the row id it writes for each.
 */
export const REFERENCE_DATASETS: Readonly<
  Record<ReferenceDatasetName, { benchmark: BenchmarkId; split: string; title: string; rowId: string }>
> = {
  videomme: {
    benchmark: "videomme",
    split: "test",
    title: "Video-MME",
    rowId: "videoID (shared by a video's questions)",
  },
  videomme_wsub: {
    benchmark: "videomme",
    split: "test_subtitles",
    title: "Video-MME with subtitles",
    rowId: "videoID (shared by a video's questions)",
  },
  longvideobench: { benchmark: "longvideobench", split: "validation", title: "LongVideoBench", rowId: "id" },
  lvbench: { benchmark: "lvbench", split: "test", title: "LVBench", rowId: "uid" },
  mlvu: { benchmark: "mlvu", split: "dev", title: "MLVU dev", rowId: "<task_type>-<row index>" },
  mmvu: { benchmark: "mmvu", split: "validation", title: "MMVU", rowId: "id" },
  charades: { benchmark: "charades_sta", split: "test", title: "Charades-STA", rowId: "row index (+ key)" },
};

/** The file name the driver gives its merged summaries (utils.py::run_eval). */
export const SUMMARY_ALL_FILE = "summary_all.json";

const API_ERROR_PREFIX = "[API error:";

const KNOWN = new Set([
  "id",
  "answer",
  "pred",
  "correct",
  "tool_calls",
  "score",
  "full_response",
  "key",
  "config",
  "duration",
  "pred_text",
  "error",
]);

function asText(v: string | number | [number, number]): { text: string; span: [number, number] | null } {
  if (Array.isArray(v)) return { text: `${formatSeconds(v[0])}-${formatSeconds(v[1])}`, span: [v[0], v[1]] };
  if (typeof v === "number") return { text: String(v), span: null };
  return { text: v, span: parseSpanText(v) };
}

function datasetName(summary: JsonRecord, file: string | null): string | null {
  for (const k of ["dataset", "benchmark", "name"]) {
    const v = summary[k];
    if (typeof v === "string" && v.trim() !== "") return v.trim();
  }
  return file === null ? null : basename(file).replace(/\.json$/i, "");
}

/**
 * `summary_all.json`: `{<dataset>: {dataset, total, errors, …}}` with no `results` (utils.py::run_eval
 * merges the per-dataset summaries into it).
 */
export function isSummaryAll(value: unknown): boolean {
  if (!isRecord(value) || "results" in value) return false;
  const entries = Object.values(value);
  return entries.length > 0 && entries.every((v) => isRecord(v) && ("total" in v || "dataset" in v));
}

/**
 * Validates and normalizes one parsed reference output. `file` names the source in errors.
 * Throws BenchmarkError naming the row and field.
 */
export function parseReferenceOutput(value: unknown, file: string | null = null): ReferenceOutput {
  const shown = file ?? "reference output";
  if (isSummaryAll(value)) {
    throw fileError(
      shown,
      `this is the driver's ${SUMMARY_ALL_FILE} (one summary per dataset, no result rows); import the per-dataset <dataset>.json files`,
    );
  }
  const top = ReferenceOutputFileSchema.safeParse(value);
  if (!top.success) throw fileError(shown, `expected {summary, results}: ${zodIssues(top.error)}`);
  const results: ReferenceResult[] = [];
  top.data.results.forEach((raw, index) => {
    const idShown =
      isRecord(raw) && (typeof raw.id === "string" || typeof raw.id === "number")
        ? ` (id ${JSON.stringify(raw.id)})`
        : "";
    const where = `results[${index}]${idShown}`;
    const row = ReferenceResultRowSchema.safeParse(raw);
    if (!row.success) throw fileError(shown, `${where}: ${zodIssues(row.error)}`, index + 1);
    const r = row.data;
    const answer = asText(r.answer);
    const pred = r.pred === null || r.pred === undefined ? null : asText(r.pred);
    const fullResponse = r.full_response ?? null;
    const extra: JsonRecord = {};
    for (const [k, v] of Object.entries(r)) if (!KNOWN.has(k)) extra[k] = v as JsonValue;
    results.push({
      index,
      id: String(r.id),
      key: r.key === null || r.key === undefined ? null : String(r.key),
      config: r.config ?? null,
      answer: answer.text,
      answerSpan: answer.span,
      pred: pred?.text ?? null,
      predSpan: pred?.span ?? null,
      correct: r.correct === null || r.correct === undefined ? null : r.correct === true || r.correct === 1,
      score: r.score ?? null,
      toolCalls: Array.isArray(r.tool_calls) ? r.tool_calls.length : r.tool_calls,
      fullResponse,
      predText: r.pred_text ?? null,
      error: r.error ?? null,
      apiError: fullResponse !== null && fullResponse.startsWith(API_ERROR_PREFIX) ? fullResponse : null,
      durationS: typeof r.duration === "number" ? r.duration : null,
      durationCategory: typeof r.duration === "string" ? r.duration : null,
      extra,
    });
  });
  return { dataset: datasetName(top.data.summary, file), file, summary: top.data.summary, results };
}

/** Reads and parses one per-dataset output file. */
export async function readReferenceOutput(path: string): Promise<ReferenceOutput> {
  return parseReferenceOutput(await readJson(path, path), path);
}

export interface ReferenceOutputFolder {
  outputs: ReferenceOutput[];
  /** Files not read as dataset outputs, and why (the driver's summary_all.json). */
  skipped: { file: string; reason: string }[];
}

/** Every `<dataset>.json` file directly in `dir`, in name order; `summary_all.json` is skipped. */
export async function readReferenceOutputs(dir: string): Promise<ReferenceOutputFolder> {
  const names = await listFiles(dir, /\.json$/i);
  const out: ReferenceOutputFolder = { outputs: [], skipped: [] };
  for (const name of names) {
    const path = join(dir, name);
    const value = await readJson(path, path);
    if (name === SUMMARY_ALL_FILE || isSummaryAll(value)) {
      out.skipped.push({ file: path, reason: "the driver's merged summaries (no result rows)" });
      continue;
    }
    out.outputs.push(parseReferenceOutput(value, path));
  }
  return out;
}
