// Importing the reference evaluator's output (SPEC §6): one JSON file per dataset,
// `{summary, results}`, each result row carrying id, answer, pred, correct, tool_calls, score,
// full_response and optionally key, config, duration, pred_text, error. Rows are validated one by
// one so an error names the row (`results[12] (id 345)`) and the field; the normalized rows are what
// the eval package stores as an imported run. Fields we do not know are kept in `extra`.
// Known limits of these files (SPEC §5): full_response holds only the last 500 characters, and
// dropped connections were scored as wrong answers; we import them as they are.

import { basename, join } from "node:path";
import { z } from "zod";
import { zodIssues } from "./collector";
import { fileError } from "./errors";
import { isRecord, listFiles, readJson } from "./files";
import type { JsonRecord } from "./schemas";
import { formatSeconds, parseSpanText } from "./spans";

type JsonValue = JsonRecord[string];

const SpanSchema = z.tuple([z.number(), z.number()]);
const AnswerSchema = z.union([z.string(), z.number(), SpanSchema]);

/** One result row as the reference evaluator writes it. */
export const ReferenceResultRowSchema = z.looseObject({
  id: z.union([z.string().trim().min(1), z.number()]),
  answer: AnswerSchema,
  pred: AnswerSchema.nullable(),
  /** A boolean, or 0 / 1 as Python writes them from int comparisons. */
  correct: z.union([z.boolean(), z.literal(0), z.literal(1)]),
  /** A count, or the list of calls. */
  tool_calls: z.union([z.number().int().min(0), z.array(z.json())]),
  /** Accuracy (0 / 1) or IoU; null when the sample errored. */
  score: z.number().nullable(),
  full_response: z.string().nullable(),
  key: z.union([z.string(), z.number()]).nullish(),
  config: z.union([z.string(), z.record(z.string(), z.json())]).nullish(),
  /** Seconds, or a duration category ("short" / "medium" / "long"). */
  duration: z.union([z.number().nonnegative(), z.string()]).nullish(),
  pred_text: z.string().nullish(),
  error: z.string().nullish(),
});

export const ReferenceOutputFileSchema = z.looseObject({
  summary: z.record(z.string(), z.json()),
  results: z.array(z.unknown()),
});

export interface ReferenceResult {
  /** 0-based position in `results`. */
  index: number;
  id: string;
  /** The evaluator's sample key when it wrote one (VideoMME question_id, LVBench uid, …). */
  key: string | null;
  config: string | JsonRecord | null;
  /** Ground truth as text; a [start, end] pair becomes "start-end". */
  answer: string;
  answerSpan: [number, number] | null;
  pred: string | null;
  predSpan: [number, number] | null;
  correct: boolean;
  score: number | null;
  toolCalls: number;
  /** The kept tail of the response (the reference evaluator keeps the last 500 characters). */
  fullResponse: string | null;
  predText: string | null;
  error: string | null;
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
 * Validates and normalizes one parsed reference output. `file` names the source in errors.
 * Throws BenchmarkError naming the row and field; duplicate (config, key ?? id) pairs are errors.
 */
export function parseReferenceOutput(value: unknown, file: string | null = null): ReferenceOutput {
  const shown = file ?? "reference output";
  const top = ReferenceOutputFileSchema.safeParse(value);
  if (!top.success) throw fileError(shown, `expected {summary, results}: ${zodIssues(top.error)}`);
  const results: ReferenceResult[] = [];
  const seen = new Map<string, number>();
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
    const pred = r.pred === null ? null : asText(r.pred);
    const id = String(r.id);
    const key = r.key === null || r.key === undefined ? null : String(r.key);
    const config = r.config ?? null;
    const identity = JSON.stringify([config, key ?? id]);
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      throw fileError(shown, `${where}: same ${key === null ? "id" : "key"} as results[${earlier}]`, index + 1);
    }
    seen.set(identity, index);
    const extra: JsonRecord = {};
    for (const [k, v] of Object.entries(r)) if (!KNOWN.has(k)) extra[k] = v as JsonValue;
    results.push({
      index,
      id,
      key,
      config,
      answer: answer.text,
      answerSpan: answer.span,
      pred: pred?.text ?? null,
      predSpan: pred?.span ?? null,
      correct: r.correct === true || r.correct === 1,
      score: r.score,
      toolCalls: Array.isArray(r.tool_calls) ? r.tool_calls.length : r.tool_calls,
      fullResponse: r.full_response,
      predText: r.pred_text ?? null,
      error: r.error ?? null,
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

/** Every `*.json` file directly in `dir` (one per dataset), in name order. */
export async function readReferenceOutputs(dir: string): Promise<ReferenceOutput[]> {
  const names = await listFiles(dir, /\.json$/i);
  const out: ReferenceOutput[] = [];
  for (const name of names) out.push(await readReferenceOutput(join(dir, name)));
  return out;
}
