/**
 * @paravt/benchmarks: loaders for the SPEC §5 evaluation benchmarks in their published layouts and
 * for custom JSONL / JSON / parquet datasets (normalized, zod-validated samples plus a report of the
 * rows skipped and why), and the reader of the reference evaluator's output (SPEC §6).
 * Server-only (reads the filesystem); the registry module is pure.
 */
export { loadBenchmark, LoadBenchmarkOptionsSchema, type LoadBenchmarkOptions } from "./load-benchmark";
export { BENCHMARKS, benchmarkInfo, type BenchmarkFileSpec, type BenchmarkInfo } from "./registry";
export {
  BENCHMARK_IDS,
  BenchmarkIdSchema,
  MAX_OPTIONS,
  MIN_OPTIONS,
  OPTION_LETTERS,
  QUESTION_TYPES,
  QuestionTypeSchema,
  SampleSchema,
  SKIP_REASONS,
  SkipReasonSchema,
  SPAN_ANSWER_RE,
  type BenchmarkId,
  type JsonRecord,
  type LoadResult,
  type LoadStats,
  type QuestionType,
  type Sample,
  type SkippedRow,
  type SkipReason,
} from "./schemas";
export { BenchmarkError, type BenchmarkErrorKind } from "./errors";
export { CustomRowSchema, type CustomRow } from "./loaders/custom";
export { MLVU_MC_TASKS } from "./loaders/mlvu";
export { VIDEOMME_DURATIONS, VIDEOMME_SPLITS } from "./loaders/videomme";
export {
  parseReferenceOutput,
  readReferenceOutput,
  readReferenceOutputs,
  ReferenceOutputFileSchema,
  ReferenceResultRowSchema,
  type ReferenceOutput,
  type ReferenceResult,
} from "./reference-output";
export { srtToText, withSubtitles } from "./srt";
export { parseSpanText, spanAnswer } from "./spans";
