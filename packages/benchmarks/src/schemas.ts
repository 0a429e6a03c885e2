// The normalized sample every loader produces, the skip report, and the load result. Loaders build
// plain objects and the collector validates each one against SampleSchema before it is returned,
// so a loader bug surfaces as a skipped row with the zod issue, never as a malformed sample.

import { isAbsolute } from "node:path";
import { z } from "zod";
import type { MaterializeReport } from "./paravt-parquet/sentinel";

/** SPEC §2/§6 question types: multiple choice, temporal video grounding, open-ended. */
export const QUESTION_TYPES = ["mcq", "tvg", "oe"] as const;
export const QuestionTypeSchema = z.enum(QUESTION_TYPES);
export type QuestionType = z.output<typeof QuestionTypeSchema>;

/** SPEC §4 evaluation extracts MCQ letters A–J, so at most ten options can be scored. */
export const OPTION_LETTERS = "ABCDEFGHIJ";
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = OPTION_LETTERS.length;

/**
 * SPEC §5 benchmarks (the needle suite has its own importer, @paravt/suite) plus user datasets and
 * the reference trainer's RL / SFT parquet files (SPEC §6).
 */
export const BENCHMARK_IDS = [
  "videomme",
  "longvideobench",
  "lvbench",
  "mlvu",
  "mmvu",
  "charades_sta",
  "custom",
  "paravt-parquet",
] as const;
export const BenchmarkIdSchema = z.enum(BENCHMARK_IDS);
export type BenchmarkId = z.output<typeof BenchmarkIdSchema>;

/** Grounding answers are written `start-end` in plain decimal seconds (e.g. `24.3-30.4`). */
export const SPAN_ANSWER_RE = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/;

const JsonRecordSchema = z.record(z.string(), z.json());
export type JsonRecord = z.output<typeof JsonRecordSchema>;

export const SampleSchema = z
  .strictObject({
    /** Stable across re-imports of the same files and unique within (benchmark, split). */
    key: z.string().min(1).max(512),
    benchmark: BenchmarkIdSchema,
    split: z.string().min(1),
    /** Absolute path under the video directory; the file existed when the benchmark was loaded. */
    videoPath: z.string().refine((p) => isAbsolute(p), "must be an absolute path"),
    /** Text as shown to the model: (subtitle prefix) + question + lettered option lines. */
    question: z.string().min(1),
    /** Option texts without their letters, in letter order; null for tvg / oe. */
    options: z.array(z.string().min(1)).min(MIN_OPTIONS).max(MAX_OPTIONS).nullable(),
    /** mcq: one letter A–J; tvg: `start-end` seconds; oe: the reference text. */
    answer: z.string().min(1),
    questionType: QuestionTypeSchema,
    durationS: z.number().positive().optional(),
    metadata: JsonRecordSchema,
  })
  .superRefine((s, ctx) => {
    const issue = (path: string[], message: string) => ctx.addIssue({ code: "custom", path, message });
    if (s.questionType === "mcq") {
      if (s.options === null) issue(["options"], "mcq samples need options");
      else if (!/^[A-J]$/.test(s.answer) || OPTION_LETTERS.indexOf(s.answer) >= s.options.length) {
        issue(["answer"], `must be one of the letters of the ${s.options.length} options`);
      }
    } else if (s.options !== null) {
      issue(["options"], `${s.questionType} samples carry no options`);
    }
    if (s.questionType === "tvg") {
      const m = SPAN_ANSWER_RE.exec(s.answer);
      if (!m || Number(m[2]) <= Number(m[1])) issue(["answer"], "must be `start-end` seconds with end > start");
      const span = s.metadata.span;
      if (!Array.isArray(span) || span.length !== 2 || span.some((v) => typeof v !== "number")) {
        issue(["metadata", "span"], "tvg samples carry the numeric [start, end] span");
      }
    }
  });
export type Sample = z.output<typeof SampleSchema>;

/** Why a row of a benchmark file did not become a sample. */
export const SKIP_REASONS = [
  /** No file at the resolved path under the video directory. */
  "missing_video",
  /** The row's video reference is absolute outside the video directory, climbs out with `..`, or is a foreign URL. */
  "bad_video_path",
  /** A required field is absent or empty. */
  "missing_field",
  /** A field has the wrong type or an unknown value. */
  "invalid_field",
  /** Options are not 2–10 non-empty strings, or their letters are out of sequence. */
  "malformed_options",
  /** The answer is not the letter / index / text of one of the options. */
  "unknown_answer",
  /** Grounding times that are not numbers, negative, `end <= start`, or start past the video's end. */
  "bad_timestamps",
  /** Same key as an earlier row of the same split. */
  "duplicate_key",
  /** A ParaVT SFT row (SPEC §6 `messages`) without an `extra_info` answer and question type. */
  "unlabeled_sft_row",
] as const;
export const SkipReasonSchema = z.enum(SKIP_REASONS);
export type SkipReason = z.output<typeof SkipReasonSchema>;

export interface SkippedRow {
  /** File the row is in, relative to the benchmark directory. */
  file: string;
  /** 1-based: the line of a line-based file (JSONL, txt), else the row's position in the file. */
  row: number;
  key?: string;
  reason: SkipReason;
  /** Human-readable specifics (which field, which value). */
  detail: string;
}

export interface LoadStats {
  /** Rows read (questions; an LVBench line holds several). */
  rows: number;
  loaded: number;
  skipped: number;
  byReason: Partial<Record<SkipReason, number>>;
  byQuestionType: Partial<Record<QuestionType, number>>;
  /** Loaded samples per `metadata.durationCategory` (VideoMME short / medium / long). */
  byDurationCategory: Record<string, number>;
  /** Annotation files read, relative to the benchmark directory. */
  files: string[];
  /** Which published layout was recognised (see the README's "variants"). */
  variant: string;
  /** Absolute video directory the rows were resolved under. */
  videoDir: string;
  /** Distinct videos among loaded samples. */
  videos: number;
  /** VideoMME with subtitles: samples whose video has an SRT file / has none (question left unprefixed). */
  subtitles?: { withText: number; missing: number };
  /** Things worth showing that are not row skips (an absent optional file, a task file not found). */
  warnings: string[];
  /** ParaVT parquet only: what kinds of rows the file held and where its video paths point. */
  parquet?: ParquetStats;
}

/** The SPEC §6 side of a ParaVT parquet load. */
export interface ParquetStats {
  /** Rows by kind: RL (`prompt`), SFT (`messages`), other (neither column). */
  rowKinds: { rl: number; sft: number; other: number };
  /** SFT rows, and how many became samples (those with an extra_info answer and question type). */
  sft: { rows: number; imported: number };
  /** The rows' video paths per sentinel root (SPEC §6): references, distinct files, missing ones. */
  paths: MaterializeReport;
}

export interface LoadResult {
  benchmark: BenchmarkId;
  split: string;
  samples: Sample[];
  skipped: SkippedRow[];
  stats: LoadStats;
}
