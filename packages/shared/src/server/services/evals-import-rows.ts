// Storing an imported reference output's rows (SPEC §6; the request side is evals-import.ts). The
// request matches the file's rows to samples and writes the episodes they become, one JSON line
// each, to `DATA_DIR/projects/<project>/imports/<run>.jsonl`; `storeImportRows` then stores them
// in batches of IMPORT_BATCH_ROWS, each batch one INSERT, never one long transaction (issue 42:
// 20,000 rows in one interactive transaction outran Prisma's 5 s limit and answered 500). It runs
// in the request for a file of one batch, else as the `eval.import` job; both are this code.
//
// Resumable and exactly once: episodes are keyed by (run, sample, rollout 0). Each batch first
// asks which of its samples are already stored and inserts only the others (ON CONFLICT DO
// NOTHING besides, for a stale delivery racing a new one), so a retried or resumed import skips
// what a killed worker stored and counts every row once. Progress is `n/total rows` in file order.
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import type { ReferenceImportReport } from "@paravt/benchmarks";
import { Prisma } from "@paravt/db";
import { z } from "zod";
import { importedRunConfig } from "../../contracts/evals";
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { databaseRefusal } from "../db-errors";
import { serverEnv } from "../env";
import type { RunChange } from "../../contracts/runs";
import { computeRunSummary } from "./evals-summary";
import { countStored, storedSampleIds } from "./evals-store";
import { insertTallied, type TalliedEpisode } from "./evals-tally-store";

/** Rows per INSERT: about 1 MB of SQL parameters at the reference's 500-character finals. */
export const IMPORT_BATCH_ROWS = 1000;

/** One stored row of an import: the episode a matched reference row becomes (evals-import.ts). */
export const importedEpisodeRow = z.object({
  sampleId: z.string().min(1),
  status: z.enum(["OK", "ERROR"]),
  error: z.string().nullable(),
  finalText: z.string().nullable(),
  prediction: z.string().nullable(),
  score: z.number().nullable(),
  correct: z.boolean().nullable(),
  toolCallCount: z.number().int().min(0),
  details: z.record(z.string(), z.unknown()),
});
export type ImportedEpisodeRow = z.infer<typeof importedEpisodeRow>;

/** The import's settings on its run (the request wrote them; `imported.matched` rows to store). */
const importRunSettings = importedRunConfig.extend({
  imported: importedRunConfig.shape.imported.extend({
    errors: z.object({ total: z.number().int(), rowError: z.number().int(), apiError: z.number().int() }),
    skipped: z.number().int(),
    byReason: z.record(z.string(), z.number().int()),
    /** The run's final message, written by the request (jsonb does not keep `byReason`'s order). */
    message: z.string().optional(),
  }),
});

/** "Imported 2 of 6 rows (1 error); skipped 4: 2 ambiguous, 1 unmatched, 1 duplicate" (the run's message). */
export function importMessage(
  report: Pick<ReferenceImportReport, "rows" | "matched" | "errors" | "skipped" | "byReason"> &
    Partial<Pick<ReferenceImportReport, "dataset" | "benchmark">>,
): string {
  const errors = report.errors.total ? ` (${report.errors.total} error${report.errors.total > 1 ? "s" : ""})` : "";
  const why = Object.entries(report.byReason).map(([reason, n]) => `${n} ${reason}`);
  const skipped = report.skipped ? `; skipped ${report.skipped}: ${why.join(", ")}` : "";
  return `Imported ${report.matched} of ${report.rows} rows${errors}${skipped}`;
}

/** Where an import's rows wait to be stored (removed once they all are). */
export function importRowsPath(projectId: string, runId: string): string {
  return path.join(serverEnv().DATA_DIR, "projects", projectId, "imports", `${runId}.jsonl`);
}

/** Writes the rows file whole or not at all (a temporary file renamed), so a reader never sees half of it. */
export async function writeImportRows(file: string, rows: readonly ImportedEpisodeRow[]): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const out = fs.createWriteStream(tmp);
  try {
    for (const row of rows) {
      if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
  } catch (err) {
    out.destroy();
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
  await fs.promises.rename(tmp, file);
}

/** The rows of a file in batches, each line checked (the file is input like any other). */
async function* batchesOf(file: string, size: number): AsyncGenerator<ImportedEpisodeRow[]> {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  let batch: ImportedEpisodeRow[] = [];
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let row;
    try {
      row = importedEpisodeRow.parse(JSON.parse(line));
    } catch (err) {
      throw new ValidationError(`The import's rows file is damaged at line ${n}: ${(err as Error).message}`);
    }
    batch.push(row);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

export interface StoreImportOptions {
  /**
   * Called after each batch with the share done, `n/total rows` and the episodes it stored; may
   * throw to stop (a cancel: reportRunProgress throws RunCancelledError).
   */
  progress: (fraction: number, message: string, changed: RunChange) => Promise<void>;
  /** Aborted when this delivery lost its job: stop between batches. */
  signal?: AbortSignal;
}

/**
 * Stores the rows of an import run that are not stored yet, then its summary; returns the run's
 * final message. Throws ValidationError when it cannot succeed however often it is retried (its
 * settings or rows file are gone or damaged, a sample it names was deleted meanwhile).
 */
export async function storeImportRows(runId: string, opts: StoreImportOptions): Promise<string> {
  const run = await db().run.findUnique({ where: { id: runId } });
  if (!run) throw new NotFoundError("Run");
  const parsed = importRunSettings.safeParse(run.config);
  if (!parsed.success) throw new ValidationError(`The import's settings are not readable: ${parsed.error.message}`);
  const settings = parsed.data;
  const total = settings.imported.matched;
  const file = importRowsPath(run.projectId, run.id);

  // A retry after every row was stored (the worker died while summarizing) needs no rows file.
  if ((await countStored(runId)) < total) {
    if (!fs.existsSync(file)) {
      throw new ValidationError(`The import's rows are no longer on the server (${file}); import the file again`);
    }
    let done = 0;
    for await (const batch of batchesOf(file, IMPORT_BATCH_ROWS)) {
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error("aborted");
      const stored = await storedSampleIds(
        runId,
        batch.map((r) => r.sampleId),
      );
      const fresh = batch.filter((r) => !stored.has(r.sampleId));
      const inserted = fresh.length ? await insertBatch(run.id, run.modelId, settings, fresh) : 0;
      done += batch.length;
      await opts.progress(0.98 * (done / Math.max(1, total)), `${done}/${total} rows`, {
        episodes: { count: inserted },
      });
    }
  }
  const count = await countStored(runId);
  if (count !== total) {
    // Not expected: every row of the file was just stored or found. A retry looks again.
    throw new Error(`Stored ${count} of ${total} rows; the rows file holds a different number`);
  }
  await opts.progress(0.99, `${total}/${total} rows; summarizing`, {});
  // Summarized from the stored rows, like an evaluated run (evals-summary.ts).
  const summary = await computeRunSummary(runId, total);
  await db().run.update({
    where: { id: runId },
    data: { summary: JSON.parse(JSON.stringify(summary)) as Prisma.InputJsonValue },
  });
  await fs.promises.rm(file, { force: true });
  return settings.imported.message ?? importMessage(settings.imported);
}

/** One batch is one short transaction whatever the machine's load; Prisma's 5 s default is not that. */
const BATCH_TX = { timeout: 60_000, maxWait: 30_000 } as const;

/**
 * Inserts one batch in one statement, its counters added to the run's tallies in the same
 * transaction (evals-tally-store.ts); returns how many rows it stored (the unique key skips the
 * rest). The rows travel as one JSON parameter expanded by `jsonb_to_recordset`: 3.5-4x faster
 * than Prisma's createMany of the same 1000 rows (140-170 ms vs 500-800 ms on the bench machine),
 * whose per-value parameters dominate. Columns left out keep the values Prisma's createMany
 * leaves (defaults, NULL); the id is a UUID, as any text id is fine for an episode.
 */
async function insertBatch(
  runId: string,
  modelId: string | null,
  settings: { k: number; mode: string },
  rows: readonly ImportedEpisodeRow[],
): Promise<number> {
  const bySample = new Map(rows.map((r) => [r.sampleId, r]));
  try {
    return await db().$transaction(async (tx) => {
      let count = 0;
      await insertTallied(tx, runId, [...bySample.keys()], async () => {
        const created = await tx.$queryRaw<{ sampleId: string }[]>`
          INSERT INTO episodes (id, run_id, sample_id, model_id, rollout_index, k, prompt_mode, status, error,
            final_text, prediction, score, correct, tool_call_count, details)
          SELECT gen_random_uuid()::text, ${runId}::text, r."sampleId", ${modelId}::text, 0, ${settings.k}::int,
            ${settings.mode}::text, r.status::"EpisodeStatus", r.error, r."finalText", r.prediction, r.score,
            r.correct, r."toolCallCount", r.details
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r("sampleId" text, status text, error text,
            "finalText" text, prediction text, score float8, correct boolean, "toolCallCount" int, details jsonb)
          ON CONFLICT (run_id, sample_id, rollout_index) DO NOTHING
          RETURNING sample_id AS "sampleId"`;
        count = created.length;
        return created.map(({ sampleId }): TalliedEpisode => {
          const r = bySample.get(sampleId)!;
          return { ...r, promptMode: settings.mode, turns: [] };
        });
      });
      return count;
    }, BATCH_TX);
  } catch (err) {
    if (databaseRefusal(err)?.kind === "reference") {
      throw new ValidationError(
        "A sample or the model this import names was deleted while it ran; import the file again",
      );
    }
    throw err;
  }
}
