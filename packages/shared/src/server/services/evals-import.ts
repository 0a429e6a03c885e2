// Importing a reference evaluator's output (SPEC §6): one dataset's `<dataset>.json` file
// (`{summary, results[, submission]}`, ParaVT paravt/eval/utils.py::run_dataset) becomes a run (kind
// `import`) with one episode per matched row. Parsing and matching are @paravt/benchmarks'
// (reference-output.ts, reference-match.ts): rows are matched by the reference's own row ids, kept on
// the samples by the loaders; a row with `error` or an `[API error: …]` final is stored as ERROR with
// its reason, never as a wrong answer; rows that match no sample, match several (Video-MME rows share
// the videoID), disagree on the key or repeat a sample are skipped and counted per reason; a file of
// another benchmark than the dataset's is refused.
//
// The request checks and matches the whole file, so a bad file is refused before anything is
// stored, and answers the full report. The matched rows become episode rows in a file under
// DATA_DIR, stored in bounded batches by evals-import-rows.ts: within the request when they fit in
// one batch, else by the `eval.import` job, whose progress (`n/total rows`) is the run's (issue 42).

import crypto from "node:crypto";
import {
  BenchmarkError,
  BENCHMARK_IDS,
  matchReferenceOutput,
  parseReferenceOutput,
  type BenchmarkId,
  type MatchedRow,
  type ReferenceOutput,
} from "@paravt/benchmarks";
import { Prisma } from "@paravt/db";
import type { EvalMode } from "../../contracts/evals";
import type { RunOutput } from "../../contracts/runs";
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { publishRunEvent } from "../events";
import { enqueue } from "../queues";
import { capText, StorableText } from "../storable-text";
import type { ProjectAccess } from "./access";
import {
  IMPORT_BATCH_ROWS,
  importMessage,
  importRowsPath,
  storeImportRows,
  writeImportRows,
  type ImportedEpisodeRow,
} from "./evals-import-rows";
import { finishRun, getRun, publishRunState, reportRunProgress, STATUS_CHANGED, toEvent } from "./runs";

export { importMessage } from "./evals-import-rows";

/** Rows kept in the run's config and returned for the report (the counts cover every row). */
const LISTED = 100;

/** Validates a reference file; a bad row is reported by its position and field. */
export function parseReferenceFile(file: unknown): ReferenceOutput {
  let parsed: ReferenceOutput;
  try {
    parsed = parseReferenceOutput(file);
  } catch (err) {
    if (err instanceof BenchmarkError) throw new ValidationError(`Not a reference evaluator output: ${err.message}`);
    throw err;
  }
  if (parsed.results.length === 0) throw new ValidationError("The file has no result rows");
  return parsed;
}

/** The benchmark and split a dataset was imported as (dataset.source of services/datasets.ts), when it was. */
function datasetBenchmark(source: unknown): { benchmark: BenchmarkId | null; split: string | null } {
  const src = (source ?? {}) as Record<string, unknown>;
  if (src.kind !== "benchmark" || !(BENCHMARK_IDS as readonly unknown[]).includes(src.benchmark)) {
    return { benchmark: null, split: null };
  }
  const split = typeof src.split === "string" ? src.split : src.subtitles === true ? "test_subtitles" : null;
  return { benchmark: src.benchmark as BenchmarkId, split };
}

export interface ImportReferenceResult {
  run: RunOutput;
  group: { id: string; name: string };
  rows: number;
  matched: number;
  errors: number;
  unmatched: string[];
  unmatchedCount: number;
  duplicates: string[];
  errorKinds: { rowError: number; apiError: number };
  skipped: number;
  skippedByReason: Record<string, number>;
  skippedRows: { index: number; id: string; reason: string; detail: string }[];
}

/**
 * The episode a matched row becomes. Its texts are made storable (NUL and lone surrogates escaped,
 * capped; storable-text.ts, noted in `details.sanitized`) so that no row can fail its batch.
 */
function episodeOf({ result: r, sampleId, failure }: MatchedRow): ImportedEpisodeRow {
  const st = new StorableText();
  const details = st.json("details", {
    imported: true,
    // The reference keeps only the first 500 characters of the final text (driver.py::_make_result).
    finalTextTruncatedAt: 500,
    index: r.index,
    id: r.id,
    key: r.key,
    answer: r.answer,
    config: r.config,
    duration: r.durationS ?? r.durationCategory,
    pred_text: r.predText,
    ...(failure === null ? {} : { failure: failure.kind }),
    ...(Object.keys(r.extra).length ? { extra: r.extra } : {}),
  }) as Record<string, unknown>;
  const row = {
    sampleId,
    status: failure === null ? ("OK" as const) : ("ERROR" as const),
    error: failure === null ? null : capText(st.text("error", failure.reason), 4000),
    finalText: st.text("finalText", r.fullResponse),
    prediction: st.text("prediction", r.pred),
    score: failure === null ? r.score : null,
    correct: failure === null ? r.correct : null,
    toolCallCount: r.toolCalls,
  };
  const notes = st.notes();
  return { ...row, details: notes ? { ...details, sanitized: notes } : details };
}

export async function importReference(
  access: ProjectAccess,
  input: {
    name: string;
    datasetId: string;
    modelId: string;
    mode: EvalMode;
    k: number;
    groupId?: string;
    file: unknown;
  },
): Promise<ImportReferenceResult> {
  const parsed = parseReferenceFile(input.file);
  const dataset = await db().dataset.findFirst({ where: { id: input.datasetId, projectId: access.projectId } });
  if (!dataset) throw new NotFoundError("Dataset");
  const model = await db().model.findFirst({ where: { id: input.modelId, projectId: access.projectId } });
  if (!model) throw new NotFoundError("Model");
  let group = { id: `grp_${crypto.randomBytes(8).toString("hex")}`, name: input.name };
  if (input.groupId) {
    const member = await db().run.findFirst({
      where: { projectId: access.projectId, config: { path: ["group", "id"], equals: input.groupId } },
    });
    if (!member) throw new NotFoundError("Evaluation group");
    group = (member.config as { group: { id: string; name: string } }).group;
  }

  const samples = await db().sample.findMany({
    where: { datasetId: dataset.id },
    select: { id: true, key: true, answer: true, metadata: true },
  });
  let match;
  try {
    match = matchReferenceOutput(parsed, {
      ...datasetBenchmark(dataset.source),
      samples: samples.map((s) => ({ ...s, metadata: (s.metadata ?? {}) as Record<string, never> })),
    });
  } catch (err) {
    if (err instanceof BenchmarkError) throw new ValidationError(err.message);
    throw err;
  }
  const { matched, skipped, report } = match;
  if (!matched.length) {
    const reasons = Object.entries(report.byReason).map(([r, n]) => `${n} ${r}`);
    throw new ValidationError(
      `None of the ${report.rows} rows matches a sample of "${dataset.name}" (${reasons.join(", ")}; first: ${skipped
        .slice(0, 3)
        .map((s) => `results[${s.index}] ${s.detail}`)
        .join("; ")})`,
    );
  }
  const idsOf = (reason: string) => skipped.filter((s) => s.reason === reason).map((s) => s.id);
  const unmatched = idsOf("unmatched");
  const duplicates = idsOf("duplicate");
  const rows = matched.map(episodeOf);

  const config = {
    group,
    modelId: model.id,
    datasetId: dataset.id,
    mode: input.mode,
    k: input.k,
    imported: {
      ...report,
      unmatched: unmatched.slice(0, LISTED),
      duplicates: duplicates.slice(0, LISTED),
      skippedRows: skipped.slice(0, LISTED),
      referenceSummary: parsed.summary,
      message: importMessage(report),
    },
  };
  // One batch is stored here, within the request; more is the eval.import job's (the same code).
  const inline = rows.length <= IMPORT_BATCH_ROWS;
  const now = new Date();
  const created = await db().run.create({
    data: {
      projectId: access.projectId,
      createdById: access.principal.userId,
      modelId: model.id,
      kind: "import",
      jobName: "eval.import",
      name: input.name,
      config: JSON.parse(JSON.stringify(config)) as Prisma.InputJsonValue,
      message: `0/${rows.length} rows`,
      // The request is this import's one attempt (the fencing token of finishRun).
      ...(inline ? { status: "RUNNING" as const, attempts: 1, startedAt: now } : {}),
    },
  });
  await publishRunEvent(toEvent(created, STATUS_CHANGED));
  try {
    // Written before anything runs it: a request that dies in the middle leaves a RUNNING run whose
    // job is missing, which the reconciler queues (run-recovery.ts) and the job finishes from here.
    await writeImportRows(importRowsPath(access.projectId, created.id), rows);
    if (inline) {
      const message = await storeImportRows(created.id, {
        progress: (fraction, text, changed) => reportRunProgress(created.id, fraction, text, changed),
      });
      await finishRun(created.id, message, 1);
    } else {
      await enqueue("eval.import", { runId: created.id });
    }
  } catch (err) {
    // Never left QUEUED or RUNNING with nothing to finish it; the reason is on the run and answered.
    const reason = inline
      ? `Import failed: ${(err as Error).message}`
      : `Could not queue the import: ${(err as Error).message}`;
    const res = await db().run.updateMany({
      where: { id: created.id, status: { in: ["QUEUED", "RUNNING"] } },
      data: { status: "FAILED", error: reason.slice(0, 4000), finishedAt: new Date() },
    });
    if (res.count) await publishRunState(created.id, STATUS_CHANGED);
    throw err;
  }

  return {
    run: await getRun(access, created.id),
    group,
    rows: report.rows,
    matched: report.matched,
    errors: report.errors.total,
    unmatched: unmatched.slice(0, LISTED),
    unmatchedCount: unmatched.length,
    duplicates: duplicates.slice(0, LISTED),
    errorKinds: { rowError: report.errors.rowError, apiError: report.errors.apiError },
    skipped: report.skipped,
    skippedByReason: report.byReason,
    skippedRows: skipped.slice(0, LISTED),
  };
}
