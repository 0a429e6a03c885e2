/**
 * @paravt/benchmarks: loaders for the SPEC §5 evaluation benchmarks in their published layouts and
 * for custom JSONL / JSON / parquet datasets (normalized, zod-validated samples plus a report of the
 * rows skipped and why), the reader of the reference evaluator's output (SPEC §6), and the reference
 * trainer's RL / SFT parquet files with their sentinel paths (SPEC §6): import and materialize.
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
  type ParquetStats,
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
  isSummaryAll,
  parseReferenceOutput,
  readReferenceOutput,
  readReferenceOutputs,
  REFERENCE_DATASETS,
  ReferenceOutputFileSchema,
  ReferenceResultRowSchema,
  SUMMARY_ALL_FILE,
  type ReferenceOutput,
  type ReferenceOutputFolder,
  type ReferenceResult,
} from "./reference-output";
export {
  matchReferenceOutput,
  referenceBenchmark,
  REFERENCE_SKIP_REASONS,
  type MatchableSample,
  type MatchedRow,
  type MatchTarget,
  type ReferenceImportReport,
  type ReferenceMatch,
  type ReferenceSkipReason,
  type SkippedReferenceRow,
} from "./reference-match";
export {
  REFERENCE_DATASET_NAMES,
  REFERENCE_DIRECT_MCQ_INSTRUCTION,
  REFERENCE_MCQ_INSTRUCTION,
  ReferenceDatasetNameSchema,
  referenceMcqInstruction,
  ReferenceQuestionSchema,
  referenceQuestionText,
  type ReferenceDatasetName,
  type ReferencePromptMode,
  type ReferenceQuestion,
} from "./reference-question";
export {
  charadesBody,
  longVideoBenchBody,
  lvBenchBody,
  mlvuBody,
  mmvuBody,
  videoMmeBody,
  type ReferenceBody,
} from "./reference-bodies";
export { pyDecodeUtf8Ignore, pyReadText, pyStrip, referenceParseSrt, referenceSubtitleText } from "./reference-srt";
export { pyFloatRepr, pyListRepr, pyStrRepr } from "./python-repr";
export { srtToText, withSubtitles } from "./srt";
export {
  bucketOf,
  classifyPath,
  EXAMPLES_KEPT,
  fileUri,
  PathTally,
  reportLines,
  rootDirs,
  SENTINEL_ROOTS,
  isSentinelRoot,
  type MaterializeReport,
  type PathShape,
  type RootDirs,
  type RootDirsInput,
  type RootReport,
  type SentinelRoot,
} from "./paravt-parquet/sentinel";
export {
  inlineOptions,
  questionText,
  readExtraInfo,
  rowKind,
  rowTurns,
  videoPaths,
  VIDEO_MARKER,
  type RowKind,
} from "./paravt-parquet/rows";
export { materializeRow, walkMessages, walkVideos, type RowRewriter } from "./paravt-parquet/walk";
export {
  materializeParquetFile,
  materializeRows,
  MaterializeOptionsSchema,
  referenceLocator,
  type MaterializeOptions,
} from "./paravt-parquet/materialize";
export { dumpsPyJson, parsePyJson, PyInt, PyJsonError, type PyJson } from "./paravt-parquet/python-json";
export { pythonExists, pythonRealpath, RealpathCache } from "./paravt-parquet/python-path";
export { parseSpanText, spanAnswer } from "./spans";
