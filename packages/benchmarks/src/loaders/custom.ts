// User datasets in one documented shape (README "Custom datasets"): JSON Lines, a JSON array or
// parquet, one question per row {id, video, question, options?, answer, question_type, duration?,
// metadata?}. The benchmark directory may be one such file or a folder of them (every top-level
// .jsonl / .json / .parquet file, in name order); videos resolve under the video directory, by
// default the folder holding the files.

import { dirname, join } from "node:path";
import { z } from "zod";
import { Collector, zodIssues } from "../collector";
import { BenchmarkError } from "../errors";
import { isRecord, listFiles, pathKind, readJsonArray, readJsonLines, readParquetRows, requireColumns } from "../files";
import { shownPath, type LoaderContext } from "../loader-kit";
import { checkAnswerLetter, checkOptionTexts, questionWithOptions } from "../options";
import { QuestionTypeSchema, type LoadResult } from "../schemas";
import { checkSpan, parseSpanValue, spanAnswer } from "../spans";
import { VideoResolver } from "../video-path";

const CUSTOM_FILE_RE = /\.(jsonl|json|parquet)$/i;
const REQUIRED = ["id", "video", "question", "answer", "question_type"] as const;

/** Parquet has no free-form object column, so metadata may arrive as a JSON string. */
const MetadataSchema = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  },
  z.record(z.string(), z.json()),
);

export const CustomRowSchema = z.object({
  id: z.union([z.string().trim().min(1), z.number().int()]).transform(String),
  /** Path relative to the video directory (absolute paths and file:// URIs must lie inside it). */
  video: z.string().trim().min(1),
  question: z.string().trim().min(1),
  /** mcq: 2–10 option texts WITHOUT letters (they are added as "A. …" lines); tvg / oe: absent. */
  options: z.array(z.unknown()).nullish(),
  /** mcq: a letter A–J; tvg: "start-end" seconds, "[start, end]" or a two-number array; oe: text. */
  answer: z.union([z.string().trim().min(1), z.array(z.unknown())]),
  question_type: QuestionTypeSchema,
  /** Seconds. */
  duration: z.number().positive().nullish(),
  metadata: MetadataSchema.nullish(),
});
export type CustomRow = z.input<typeof CustomRowSchema>;

async function rowsOf(abs: string, shown: string): Promise<{ row: number; value: unknown }[]> {
  if (/\.jsonl$/i.test(abs)) return (await readJsonLines(abs, shown)).map((l) => ({ row: l.line, value: l.value }));
  let rows: unknown[];
  if (/\.json$/i.test(abs)) rows = await readJsonArray(abs, shown);
  else {
    const table = await readParquetRows(abs, shown);
    requireColumns(table, REQUIRED, shown);
    rows = table;
  }
  return rows.map((value, i) => ({ row: i + 1, value }));
}

export async function loadCustom(ctx: LoaderContext): Promise<LoadResult> {
  const kind = await pathKind(ctx.dir);
  let files: string[];
  let baseDir: string;
  if (kind === "file") {
    if (!CUSTOM_FILE_RE.test(ctx.dir)) {
      throw new BenchmarkError("options", `${ctx.dir}: custom datasets are .jsonl, .json or .parquet files`);
    }
    files = [ctx.dir];
    baseDir = dirname(ctx.dir);
  } else {
    files = (await listFiles(ctx.dir, CUSTOM_FILE_RE)).map((f) => join(ctx.dir, f));
    baseDir = ctx.dir;
    if (!files.length) throw new BenchmarkError("layout", `no .jsonl, .json or .parquet file in ${ctx.dir}`);
  }
  const videoDir = ctx.videoDir ?? baseDir;
  const show = (abs: string) => (kind === "file" ? abs.slice(baseDir.length + 1) : shownPath(ctx, abs));
  const variants = [...new Set(files.map((f) => f.slice(f.lastIndexOf(".") + 1).toLowerCase()))];
  const out = new Collector("custom", ctx.split, variants.join(" + "), new VideoResolver(videoDir));

  for (const abs of files) {
    const file = show(abs);
    const rows = await rowsOf(abs, file);
    out.readFile(file);
    for (const { row, value } of rows) {
      const rawKey =
        isRecord(value) && (typeof value.id === "string" || typeof value.id === "number")
          ? String(value.id).trim()
          : "";
      const key = rawKey === "" ? undefined : rawKey;
      if (!isRecord(value)) {
        out.skip(file, row, "invalid_field", "row is not an object");
        continue;
      }
      const absent = REQUIRED.filter((f) => {
        const v = value[f];
        return v === undefined || v === null || (typeof v === "string" && v.trim() === "");
      });
      if (absent.length) {
        out.skip(file, row, "missing_field", `no ${absent.join(", ")}`, key);
        continue;
      }
      const parsed = CustomRowSchema.safeParse(value);
      if (!parsed.success) {
        out.skip(file, row, "invalid_field", zodIssues(parsed.error), key);
        continue;
      }
      const r = parsed.data;
      const durationS = r.duration ?? undefined;
      const extra = r.metadata ?? {};
      const hasOptions = r.options !== null && r.options !== undefined && r.options.length > 0;
      if (r.question_type === "mcq") {
        const options = checkOptionTexts(r.options ?? []);
        if (!options.ok) {
          out.skip(file, row, options.reason, options.detail, r.id);
          continue;
        }
        const answer = checkAnswerLetter(r.answer, options.value.length);
        if (!answer.ok) {
          out.skip(file, row, answer.reason, answer.detail, r.id);
          continue;
        }
        await out.add(file, row, {
          key: r.id,
          video: [r.video],
          question: questionWithOptions(r.question, options.value, "dot"),
          options: options.value,
          answer: answer.value,
          questionType: "mcq",
          ...(durationS === undefined ? {} : { durationS }),
          metadata: extra,
        });
        continue;
      }
      if (hasOptions) {
        out.skip(file, row, "invalid_field", `${r.question_type} questions take no options`, r.id);
        continue;
      }
      if (r.question_type === "tvg") {
        const pair = parseSpanValue(r.answer);
        const span = pair ? checkSpan(pair[0], pair[1], durationS) : null;
        if (!span || !span.ok) {
          const detail = span ? span.detail : `answer ${JSON.stringify(r.answer)} is not a "start-end" span`;
          out.skip(file, row, "bad_timestamps", detail, r.id);
          continue;
        }
        await out.add(file, row, {
          key: r.id,
          video: [r.video],
          question: r.question,
          options: null,
          answer: spanAnswer(span.value),
          questionType: "tvg",
          ...(durationS === undefined ? {} : { durationS }),
          metadata: { ...extra, span: [...span.value] },
        });
        continue;
      }
      if (typeof r.answer !== "string") {
        out.skip(file, row, "invalid_field", "answer: open-ended answers are text", r.id);
        continue;
      }
      await out.add(file, row, {
        key: r.id,
        video: [r.video],
        question: r.question,
        options: null,
        answer: r.answer,
        questionType: "oe",
        ...(durationS === undefined ? {} : { durationS }),
        metadata: extra,
      });
    }
  }
  return out.result();
}
