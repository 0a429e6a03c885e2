import { z } from "zod";
import { dbInt, id, pageLimit, projectRef, syncFirst } from "./common";

export const QUESTION_TYPES = ["mcq", "tvg", "oe"] as const;
export const questionTypeSchema = z.enum(QUESTION_TYPES);

const datasetName = z.string().trim().min(1, "Give the dataset a name").max(120);

/**
 * How a generated suite lists mcq options (packages/suite config `optionStyle`): "letter-first"
 * ("C. white", the suite's default) or "text-first" ("- white (C)", the layout whose letter
 * lookup nano learns and the default nano checkpoint was last trained on; research/LOG.md,
 * nano, the eleventh and twelfth sessions).
 */
export const OPTION_STYLES = ["letter-first", "text-first"] as const;
export const optionStyleSchema = z.enum(OPTION_STYLES);
export type OptionStyle = z.infer<typeof optionStyleSchema>;

/** A needle suite rendered by a worker (packages/suite); limits keep one job within hours. */
export const generateSuiteInput = projectRef
  .extend({
    name: datasetName,
    seed: dbInt.min(0).default(1),
    count: z.number().int().min(1, "At least one video").max(200, "At most 200 videos per suite").default(5),
    minMinutes: z.number().min(1).max(30).default(1),
    maxMinutes: z.number().min(1).max(30).default(3),
    optionStyle: optionStyleSchema.default("letter-first"),
  })
  .refine((v) => v.maxMinutes >= v.minMinutes, { message: "maxMinutes must be >= minMinutes", path: ["maxMinutes"] });

/** A suite directory already on the server (e.g. written by `paravt suite generate`). */
export const importSuiteInput = projectRef.extend({
  name: datasetName,
  path: z.string().trim().min(1, "Enter the suite directory").max(4096),
});

/**
 * Benchmarks @paravt/benchmarks can load from a local copy (kept here as a literal list because this
 * module is client-safe; the service checks it matches the loader registry).
 */
export const IMPORTABLE_BENCHMARKS = [
  "videomme",
  "longvideobench",
  "lvbench",
  "mlvu",
  "mmvu",
  "charades_sta",
  "custom",
  /** The reference trainer's RL / SFT parquet file (SPEC §6); `path` is the file, `videoDir` the media root. */
  "paravt-parquet",
] as const;
export const importableBenchmarkSchema = z.enum(IMPORTABLE_BENCHMARKS);

const serverPath = (what: string) => z.string().trim().min(1, `Enter the ${what}`).max(4096);

/**
 * A benchmark download already on the server, inside MEDIA_ROOTS (issue 7 item 5). An empty
 * `videoDir` / `split` means the loader's default (the benchmark's usual folder / split).
 * `paravt-parquet` (issue 11): `path` is one .parquet file and `videoDir` the media root under
 * which its sentinel paths (`longvt_source/…`, `museg/…`, `selfqa/…`, SPEC §6) lie; default: the
 * folder holding the file.
 */
export const importBenchmarkInput = projectRef.extend({
  name: datasetName,
  benchmark: importableBenchmarkSchema,
  path: serverPath("benchmark directory"),
  videoDir: z
    .string()
    .trim()
    .max(4096)
    .optional()
    .transform((v) => (v ? v : undefined)),
  split: z
    .string()
    .trim()
    .max(64)
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(
      z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,64}$/, "Split: letters, digits, _ . - (at most 64)")
        .optional(),
    ),
  /** VideoMME only: prefix each question with the video's SRT text (split test_subtitles). */
  subtitles: z.boolean().default(false),
});
export type ImportBenchmarkInput = z.infer<typeof importBenchmarkInput>;

export const datasetRefInput = projectRef.extend({ datasetId: id });

export const sampleListInput = datasetRefInput.extend({
  questionType: questionTypeSchema.optional(),
  cursor: z.string().optional(),
  limit: pageLimit(200, 50),
});

/** One row of a suite's "answerable from the overview" table (packages/suite manifest). */
export const visibilityRowSchema = z.object({
  group: z.string(),
  questions: z.number(),
  visible: z.record(z.string(), z.number()),
  noCrop: z.record(z.string(), z.number()),
});
export type VisibilityRow = z.infer<typeof visibilityRowSchema>;

export const datasetOutput = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source: z.record(z.string(), z.unknown()),
  sampleCount: z.number().int(),
  countsByType: z.record(z.string(), z.number().int()),
  createdAt: z.date(),
});
export type DatasetOutput = z.infer<typeof datasetOutput>;

export const sampleOutput = z.object({
  id: z.string(),
  key: z.string(),
  question: z.string(),
  options: z.array(z.string()).nullable(),
  answer: z.string(),
  questionType: questionTypeSchema,
  videoId: z.string().nullable(),
  videoName: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type SampleOutput = z.infer<typeof sampleOutput>;

/** What the import form shows for each benchmark (a subset of @paravt/benchmarks' registry). */
export const benchmarkInfoOutput = z.object({
  id: importableBenchmarkSchema,
  title: z.string(),
  description: z.string(),
  splits: z.array(z.string()),
  defaultSplit: z.string(),
  questionType: z.string(),
  metric: z.string(),
  supportsSubtitles: z.boolean(),
  source: z.string(),
  files: z.array(z.object({ path: z.string(), required: z.boolean(), description: z.string() })),
  videoDirs: z.array(z.string()),
  variants: z.array(z.string()),
});
export type BenchmarkInfoOutput = z.infer<typeof benchmarkInfoOutput>;

/** One row of a benchmark file that did not become a sample, as stored in the import report. */
export const importSkippedRowSchema = z.object({
  file: z.string(),
  row: z.number(),
  key: z.string().optional(),
  reason: z.string(),
  detail: z.string(),
});
export type ImportSkippedRow = z.infer<typeof importSkippedRowSchema>;

/** SPEC §6 sentinel paths of a ParaVT parquet import, per root (see @paravt/benchmarks MaterializeReport). */
export const parquetPathsReportSchema = z.object({
  rows: z.number(),
  references: z.number(),
  materialized: z.number(),
  roots: z.array(
    z.object({
      root: z.string(),
      dir: z.string().nullable(),
      references: z.number(),
      materialized: z.number(),
      files: z.number(),
      missing: z.number(),
      missingExamples: z.array(z.string()),
    }),
  ),
  unknownShape: z.object({
    references: z.number(),
    examples: z.array(z.object({ path: z.string(), why: z.string() })),
  }),
});

/** The parquet side of a `paravt-parquet` import: row kinds, SFT rows kept, video paths per root. */
export const parquetImportReportSchema = z.object({
  rowKinds: z.object({ rl: z.number(), sft: z.number(), other: z.number() }),
  sft: z.object({ rows: z.number(), imported: z.number() }),
  paths: parquetPathsReportSchema,
});
export type ParquetImportReport = z.infer<typeof parquetImportReportSchema>;

/** `dataset.source.report` of a benchmark import (written by the worker, read by the dataset page). */
export const benchmarkImportReportSchema = z.object({
  rows: z.number(),
  loaded: z.number(),
  skipped: z.number(),
  byReason: z.record(z.string(), z.number()),
  byQuestionType: z.record(z.string(), z.number()),
  byDurationCategory: z.record(z.string(), z.number()),
  files: z.array(z.string()),
  variant: z.string(),
  videoDir: z.string(),
  videos: z.number(),
  newVideos: z.number(),
  subtitles: z.object({ withText: z.number(), missing: z.number() }).optional(),
  /** paravt-parquet only. */
  parquet: parquetImportReportSchema.optional(),
  warnings: z.array(z.string()),
  /** The first skipped rows (at most SKIPPED_ROWS_KEPT), in file order. */
  skippedRows: z.array(importSkippedRowSchema),
  importedAt: z.string(),
});
export type BenchmarkImportReport = z.infer<typeof benchmarkImportReportSchema>;
export const SKIPPED_ROWS_KEPT = 200;

export const samplePageOutput = syncFirst(
  z.object({ items: z.array(sampleOutput), nextCursor: z.string().nullable() }),
);
