// A benchmark copy of 20,000 questions through dataset.import (issue 42 item 4): a Charades-STA
// copy as lmms-lab ships it becomes 20,000 samples written 1000 per statement with `n/total
// samples` progress; a retry (the same job run again on the same dataset, as after a killed
// worker) rewrites none of the samples already stored and stores only the missing ones.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RunEvent } from "@paravt/shared";
import { datasets, db, onRunEvents, queue, runs } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { writeCharadesCopy } from "../../packages/benchmarks/test/charades-reference";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { importReportOf, projectWithOwnerAccess } from "./test-fixtures";
import { waitForRun } from "./test-support";

const mediaRoot = fs.mkdtempSync(path.join(os.tmpdir(), "paravt-bench-large-"));
process.env.REDIS_PREFIX = `paravt-test-bench-large-${process.pid}`;
process.env.MEDIA_ROOTS = mediaRoot;

const QUERIES = 20_000;
let workers: RunningWorkers | undefined;

afterAll(async () => {
  await workers?.close();
  await queue("cpu").obliterate({ force: true });
  fs.rmSync(mediaRoot, { recursive: true, force: true });
});

/** Row versions of the dataset's samples (Postgres `xmin`): unchanged when a row was not written. */
async function versions(datasetId: string): Promise<Map<string, string>> {
  const rows = await db().$queryRaw<{ key: string; xmin: string }[]>`
    SELECT key, xmin::text AS xmin FROM samples WHERE dataset_id = ${datasetId}`;
  return new Map(rows.map((r) => [r.key, r.xmin]));
}

describe("a benchmark copy of 20,000 questions", () => {
  it(
    "is imported in batches with n/total progress, and a retry stores only what is missing",
    { timeout: 240_000 },
    async () => {
      const dir = path.join(mediaRoot, "charades_sta");
      const videos = await writeCharadesCopy(dir, QUERIES);
      const { access } = await projectWithOwnerAccess();
      const events: RunEvent[] = [];
      const stop = await onRunEvents(access.projectId, (e) => events.push(e));
      const { dataset, runId } = await datasets.importBenchmark(access, {
        name: "Charades-STA 20k",
        benchmark: "charades_sta",
        path: dir,
        subtitles: false,
      });
      // Only the import's queue matters here; the placeholder videos' probes fail on their own.
      workers = startWorkers({ queues: ["cpu"], concurrency: 1, quiet: true });
      const run = await waitForRun(runId, 220_000);
      await new Promise((r) => setTimeout(r, 200)); // pub/sub delivery is asynchronous
      await stop();
      expect(run).toMatchObject({ status: "SUCCEEDED", error: null });
      expect(run.message).toBe(`${QUERIES} samples, 0 skipped, ${videos} videos (${videos} new)`);
      expect(await db().sample.count({ where: { datasetId: dataset.id } })).toBe(QUERIES);
      expect((await importReportOf(dataset.id)).loaded).toBe(QUERIES);
      const progress = events
        .filter((e) => e.runId === runId && /^\d+\/\d+ samples$/.test(e.message ?? ""))
        .map((e) => Number(e.message!.split("/")[0]));
      expect(progress).toEqual(Array.from({ length: QUERIES / 1000 }, (_, i) => (i + 1) * 1000));

      // As after a worker killed halfway: 5,000 samples missing, the job run again on the dataset.
      const before = await versions(dataset.id);
      const gone = new Set([...before.keys()].sort().slice(0, 5000));
      await db().sample.deleteMany({ where: { datasetId: dataset.id, key: { in: [...gone] } } });
      const again = await runs.launchSystemRun(access.projectId, {
        jobName: "dataset.import",
        name: "Import again",
        payload: { datasetId: dataset.id },
        config: { datasetId: dataset.id, kind: "benchmark", benchmark: "charades_sta", dir, subtitles: false },
      });
      expect((await waitForRun(again.id, 220_000)).status).toBe("SUCCEEDED");
      const after = await versions(dataset.id);
      expect(after.size).toBe(QUERIES);
      // The 15,000 stored samples were not written again; the 5,000 missing ones were stored.
      const rewritten = [...before].filter(([key, xmin]) => !gone.has(key) && after.get(key) !== xmin);
      expect(rewritten).toEqual([]);
      expect([...gone].every((key) => after.has(key))).toBe(true);
    },
  );
});
