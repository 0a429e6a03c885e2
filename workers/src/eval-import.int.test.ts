// A reference evaluator output of 20,000 rows imported end to end (issue 42 item 4: one
// transaction of 20,000 rows outran Prisma's 5 s and answered 500): the request checks and matches
// the whole file and queues `eval.import`, which a real worker runs in batches of 1000 with
// `n/total rows` progress. Then a delivery that dies mid-import and the retry that resumes it, and
// an import whose rows are gone failing with the reason. Inputs are a Charades-STA copy as
// lmms-lab ships it and the `charades.json` the reference evaluator writes for it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadBenchmark, type Sample } from "@paravt/benchmarks";
import type { RunEvent } from "@paravt/shared";
import { db, evals, onRunEvents, queue, runs } from "@paravt/shared/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { charadesReferenceOutput, writeCharadesCopy } from "../../packages/benchmarks/test/charades-reference";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { projectWithOwnerAccess } from "./test-fixtures";
import { waitForRun } from "./test-support";

process.env.REDIS_PREFIX = `paravt-test-eval-import-${process.pid}`;

const QUERIES = 20_000;

let tmp: string;
let workers: RunningWorkers | undefined;
let fx: Awaited<ReturnType<typeof projectWithOwnerAccess>>;
let datasetId: string;
let modelId: string;
let samples: Sample[];
let file: ReturnType<typeof charadesReferenceOutput>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "paravt-eval-import-"));
  await writeCharadesCopy(tmp, QUERIES);
  const loaded = await loadBenchmark({ benchmark: "charades_sta", dir: tmp });
  samples = loaded.samples;
  expect(samples).toHaveLength(QUERIES);
  fx = await projectWithOwnerAccess();
  const projectId = fx.access.projectId;
  // As the benchmark import stores it: source {kind: benchmark, …} and one sample per query.
  const dataset = await db().dataset.create({
    data: {
      projectId,
      name: "Charades-STA",
      source: { kind: "benchmark", benchmark: "charades_sta", dir: tmp, split: loaded.split, subtitles: false },
    },
  });
  datasetId = dataset.id;
  for (let i = 0; i < samples.length; i += 5000) {
    await db().sample.createMany({
      data: samples.slice(i, i + 5000).map((s) => ({
        datasetId,
        key: s.key,
        question: s.question,
        answer: s.answer,
        questionType: s.questionType,
        metadata: s.metadata as object,
      })),
    });
  }
  modelId = (await db().model.create({ data: { projectId, name: "ParaVT-8B", kind: "EXTERNAL", config: {} } })).id;
  file = charadesReferenceOutput(samples, { errorEvery: 97, apiErrorEvery: 101, unmatched: 3, duplicates: 2 });
}, 120_000);

afterEach(async () => {
  await workers?.close();
  workers = undefined;
});

afterAll(async () => {
  await queue("cpu").obliterate({ force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
});

const input = (name: string, f: unknown, groupId?: string) => ({
  name,
  datasetId,
  modelId,
  mode: "agentic_general" as const,
  k: 64,
  file: f,
  ...(groupId ? { groupId } : {}),
});

/** Every stored field of a run's episodes but its own ids, by sample. */
async function episodesBySample(runId: string, sampleIds?: string[]) {
  const rows = await db().episode.findMany({
    where: { runId, ...(sampleIds ? { sampleId: { in: sampleIds } } : {}) },
    omit: { id: true, runId: true, createdAt: true },
  });
  return new Map(rows.map((r) => [r.sampleId, r]));
}

const distinctSamples = async (runId: string) =>
  (await db().episode.groupBy({ by: ["sampleId"], where: { runId } })).length;

describe("importing a reference output of 20,000 rows", () => {
  it(
    "runs as a job in batches of 1000 with n/total progress, storing what a small import stores",
    { timeout: 240_000 },
    async () => {
      const { access } = fx;
      const small = await evals.importReference(
        access,
        input("small", { ...file, results: file.results.slice(0, 300) }),
      );
      // One batch or less: stored within the request, as before.
      expect(small.run.status).toBe("SUCCEEDED");

      const events: RunEvent[] = [];
      const stop = await onRunEvents(access.projectId, (e) => events.push(e));
      const big = await evals.importReference(access, input("big", file, small.group.id));
      // Error rows and `[API error: …]` finals among the rows that match (the first QUERIES).
      const errors = file.results
        .slice(0, QUERIES)
        .filter((r) => "error" in r || String(r.pred).startsWith("[API error")).length;
      expect(big).toMatchObject({
        rows: QUERIES + 5,
        matched: QUERIES,
        skipped: 5,
        skippedByReason: { unmatched: 3, duplicate: 2 },
        unmatchedCount: 3,
        errors,
      });
      expect(errors).toBeGreaterThan(300);
      expect(big.run.status).toBe("QUEUED");
      const rowsFile = evals.importRowsPath(access.projectId, big.run.id);
      expect(fs.existsSync(rowsFile)).toBe(true);

      workers = startWorkers({ queues: ["cpu"], concurrency: 1, quiet: true });
      const run = await waitForRun(big.run.id, 220_000);
      await new Promise((r) => setTimeout(r, 200)); // pub/sub delivery is asynchronous
      await stop();
      expect(run).toMatchObject({ status: "SUCCEEDED", progress: 1, attempts: 1, error: null });
      const why = Object.entries(big.skippedByReason).map(([reason, n]) => `${n} ${reason}`);
      expect(run.message).toBe(
        `Imported ${QUERIES} of ${QUERIES + 5} rows (${errors} errors); skipped 5: ${why.join(", ")}`,
      );
      expect(await evals.countStored(big.run.id)).toBe(QUERIES);
      expect(await distinctSamples(big.run.id)).toBe(QUERIES);
      expect(fs.existsSync(rowsFile)).toBe(false);

      // The progress the page shows: n/total rows after every batch, only ever forward.
      const progress = events
        .filter((e) => e.runId === big.run.id && e.status === "RUNNING" && /^\d+\/\d+ rows$/.test(e.message ?? ""))
        .map((e) => ({ n: Number(e.message!.split("/")[0]), fraction: e.progress }));
      // (0: the row as the request wrote it, when the worker moved it to RUNNING.)
      expect(progress.map((p) => p.n)).toEqual(Array.from({ length: QUERIES / 1000 + 1 }, (_, i) => i * 1000));
      expect(progress.every((p, i) => i === 0 || p.fraction > progress[i - 1]!.fraction)).toBe(true);

      // The same rows stored by the small (in-request) import and by the job are equal, field by field.
      const smallRows = await episodesBySample(small.run.id);
      expect(smallRows.size).toBe(small.matched);
      const bigRows = await episodesBySample(big.run.id, [...smallRows.keys()]);
      expect(bigRows).toEqual(smallRows);
      expect([...smallRows.values()].filter((e) => e.status === "ERROR").length).toBeGreaterThan(0);

      const out = await evals.getEvalRun(access, big.run.id);
      expect(out.summary).toMatchObject({ samples: QUERIES, stored: QUERIES, errors: big.errors });
      expect(out.summary.grounding?.n).toBe(QUERIES - big.errors);
    },
  );

  it(
    "resumes after a delivery dies mid-import: stored rows are skipped, nothing is stored twice",
    { timeout: 240_000 },
    async () => {
      const { access } = fx;
      const out = await evals.importReference(access, input("killed", file));
      const runId = out.run.id;
      // The first delivery: the import's store loop as the handler runs it, dying (as a SIGKILL
      // would: nothing more written) right after its third batch. The row stays RUNNING and the
      // job stays on the queue.
      await runs.startRunAttempt(runId);
      await expect(
        evals.storeImportRows(runId, {
          progress: async (fraction, message, changed) => {
            await runs.reportRunProgress(runId, fraction, message, changed);
            if (message === `3000/${QUERIES} rows`) throw new Error("killed");
          },
        }),
      ).rejects.toThrow("killed");
      const before = await db().run.findUniqueOrThrow({ where: { id: runId } });
      expect(before).toMatchObject({ status: "RUNNING", attempts: 1, message: `3000/${QUERIES} rows` });
      const kept = await db().episode.findMany({ where: { runId }, select: { id: true, createdAt: true } });
      expect(kept).toHaveLength(3000);
      const diedAt = new Date();

      // The retry: a real worker takes the job over and continues from the stored rows.
      workers = startWorkers({ queues: ["cpu"], concurrency: 1, quiet: true });
      const run = await waitForRun(runId, 220_000);
      expect(run).toMatchObject({ status: "SUCCEEDED", progress: 1, attempts: 2 });
      expect(await evals.countStored(runId)).toBe(QUERIES);
      expect(await distinctSamples(runId)).toBe(QUERIES);
      // The rows stored before the death are the same rows; the retry stored only the rest.
      const stillThere = await db().episode.findMany({
        where: { id: { in: kept.map((k) => k.id) } },
        select: { id: true, createdAt: true },
      });
      expect(stillThere).toHaveLength(3000);
      expect(await db().episode.count({ where: { runId, createdAt: { gte: diedAt } } })).toBe(QUERIES - 3000);
      expect((await evals.getEvalRun(access, runId)).summary).toMatchObject({ stored: QUERIES });
    },
  );

  it("refuses a damaged file before any job, and fails an import whose rows are gone with the reason", async () => {
    const { access } = fx;
    const damaged = { ...file, results: file.results.map((r, i) => (i === 15_000 ? { ...r, tool_calls: -1 } : r)) };
    const runsBefore = await db().run.count({ where: { projectId: access.projectId } });
    await expect(evals.importReference(access, input("damaged", damaged))).rejects.toThrow(
      /^Not a reference evaluator output: .*results\[15000\] \(id \d+\): tool_calls/,
    );
    expect(await db().run.count({ where: { projectId: access.projectId } })).toBe(runsBefore);

    const out = await evals.importReference(access, input("gone", { ...file, results: file.results.slice(0, 1500) }));
    expect(out.run.status).toBe("QUEUED");
    fs.rmSync(evals.importRowsPath(access.projectId, out.run.id));
    workers = startWorkers({ queues: ["cpu"], concurrency: 1, quiet: true });
    const run = await waitForRun(out.run.id);
    expect(run.status).toBe("FAILED");
    expect(run.error).toMatch(/The import's rows are no longer on the server .*; import the file again/);
    expect(run.attempts).toBe(1);
  });
});
