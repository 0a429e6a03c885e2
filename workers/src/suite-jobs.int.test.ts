// Needle suites through the job system: render + import from the UI's mutation, import of an
// existing directory, idempotence of a repeated import, and a broken suite failing with a reason.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { turnTokenStats } from "@paravt/nano";
import { datasetTurnTokens, measuredMaxNewTokens } from "@paravt/shared";
import { datasets, db, metrics, projectAccess, queue, runs, training } from "@paravt/shared/server";
import { readSuite } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { waitForRun, waitUntil } from "./test-support";

const mediaRoot = path.join(os.tmpdir(), `paravt-suite-media-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-suite-${process.pid}`;
process.env.MEDIA_ROOTS = mediaRoot;

let workers: RunningWorkers;

beforeAll(async () => {
  await fs.mkdir(mediaRoot, { recursive: true });
  workers = startWorkers({ queues: ["cpu"], concurrency: 2, quiet: true });
});

afterAll(async () => {
  await workers.close();
  await queue("cpu").obliterate({ force: true });
  await fs.rm(mediaRoot, { recursive: true, force: true });
});

/** A fresh project (owner access) with a generated and imported one-video suite. */
async function projectWithSuite(name: string, seed: number) {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
  const { dataset, runId } = await datasets.generateSuite(access, {
    name,
    seed,
    count: 1,
    minMinutes: 1,
    maxMinutes: 1,
  });
  expect((await waitForRun(runId)).status).toBe("SUCCEEDED");
  return { fx, access, dataset };
}

/** SFT settings of the tests: the tiny preset, batch 1. */
const sftSettings = (datasetId: string, name: string, steps: number, checkpointEvery: number) => ({
  datasetId,
  name,
  preset: "tiny" as const,
  steps,
  batchSize: 1,
  lr: 1e-3,
  seed: 1,
  checkpointEvery,
});

describe("needle suite jobs", () => {
  it(
    "generates a suite, imports its videos and samples, and a second import duplicates nothing",
    { timeout: 240_000 },
    async () => {
      const fx = await createProjectWithRoles(db());
      const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
      const { dataset, runId } = await datasets.generateSuite(access, {
        name: "tiny suite",
        seed: 3,
        count: 1,
        minMinutes: 1,
        maxMinutes: 1,
        optionStyle: "text-first",
      });
      const run = await waitForRun(runId);
      expect(run.status).toBe("SUCCEEDED");
      expect(run.message).toMatch(/^1 videos \(1 new\), 3 samples$/);

      const samples = await db().sample.findMany({ where: { datasetId: dataset.id }, include: { video: true } });
      expect(samples).toHaveLength(3);
      expect(samples.filter((s) => s.questionType === "mcq").length).toBeGreaterThan(0);
      for (const s of samples) {
        expect(s.video).not.toBeNull();
        expect(Object.keys((s.metadata as { visibleAtK: object }).visibleAtK).sort()).toEqual([
          "16",
          "32",
          "4",
          "64",
          "8",
        ]);
        if (s.questionType === "mcq") {
          expect(s.answer).toMatch(/^[A-D]$/);
          // optionStyle "text-first" reached the renderer: options read "- white (C)", not "C. white".
          expect(s.question).toMatch(/\n- [^\n]+ \(A\)\n- [^\n]+ \(B\)\n/);
          expect(s.question).not.toMatch(/\nA\. /);
        }
      }
      const video = samples[0]!.video!;
      expect(video.source).toBe("GENERATED");
      const ready = await waitUntil("the suite video to be READY", async () => {
        const v = await db().video.findUniqueOrThrow({ where: { id: video.id } });
        return v.status === "READY" || v.status === "FAILED" ? v : null;
      });
      expect(ready.status).toBe("READY");
      expect(ready.durationS).toBeCloseTo(64, 0);
      const source = (await db().dataset.findUniqueOrThrow({ where: { id: dataset.id } })).source as {
        visibility: { group: string }[];
        seed: number;
      };
      expect(source.seed).toBe(3);
      expect(source.visibility.map((r) => r.group)).toContain("all");
      // The tokens per generated turn of its oracle trajectories, measured at import (issue 41 item 1).
      const measured = datasetTurnTokens(source);
      expect(measured).toEqual(turnTokenStats(await readSuite(datasets.suiteDir(dataset.id))));
      expect(measured!.main.turns).toBeGreaterThan(0);
      expect(measured!.main.p99).toBeGreaterThan(64);
      expect(measuredMaxNewTokens(measured)).toBeGreaterThan(measured!.main.p99);

      // Importing the same directory again (e.g. into a second dataset) reuses the videos.
      const suitePath = path.join(mediaRoot, "copy");
      await fs.cp(datasets.suiteDir(dataset.id), suitePath, { recursive: true });
      const again = await datasets.importSuite(access, { name: "same suite again", path: suitePath });
      expect((await waitForRun(again.runId)).status).toBe("SUCCEEDED");
      const twice = await datasets.importSuite(access, { name: "and again", path: suitePath });
      const r2 = await waitForRun(twice.runId);
      expect(r2.message).toMatch(/^1 videos \(0 new\), 3 samples$/);
      expect(await db().video.count({ where: { projectId: fx.project.id } })).toBe(2);
      expect(await db().sample.count({ where: { dataset: { projectId: fx.project.id } } })).toBe(9);
    },
  );

  it("fails an import of a broken suite with the file and line, once", async () => {
    const fx = await createProjectWithRoles(db());
    const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
    const dir = path.join(mediaRoot, "broken");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "manifest.json"), "{ not json");
    const { runId, dataset } = await datasets.importSuite(access, { name: "broken", path: dir });
    const run = await waitForRun(runId);
    expect(run.status).toBe("FAILED");
    expect(run.attempts).toBe(1);
    expect(run.error).toMatch(/manifest\.json/);
    expect(await db().sample.count({ where: { datasetId: dataset.id } })).toBe(0);
  });

  it("refuses a suite path outside the media roots before creating anything", async () => {
    const fx = await createProjectWithRoles(db());
    const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
    await expect(datasets.importSuite(access, { name: "x", path: os.tmpdir() })).rejects.toThrow(
      /outside the media roots/,
    );
    expect(await db().dataset.count({ where: { projectId: fx.project.id } })).toBe(0);
    expect(await runs.listRuns(access, { limit: 10 })).toHaveLength(0);
  });

  it(
    "trains nano on a suite (train.sft): per-step metrics, checkpoints, a registered model",
    { timeout: 240_000 },
    async () => {
      const { fx, access, dataset } = await projectWithSuite("sft data", 5);

      const run = await training.launchSft(access, sftSettings(dataset.id, "nano-sft-test", 4, 2));
      expect(run).toMatchObject({ kind: "sft", jobName: "train.sft", status: "QUEUED" });
      const done = await waitForRun(run.id, 180_000);
      expect(done.error).toBeNull();
      expect(done.status).toBe("SUCCEEDED");
      expect(done.message).toMatch(/^4 steps · final loss \d+\.\d{3} · model "nano-sft-test" registered$/);

      const [loss, acc] = await metrics.readSeries(access, {
        runId: run.id,
        names: ["loss", "token_accuracy"],
        maxPoints: 100,
      });
      expect(loss!.points.map((p) => p.step)).toEqual([1, 2, 3, 4]);
      expect(loss!.points.every((p) => Number.isFinite(p.value) && p.value > 0)).toBe(true);
      expect(acc!.points).toHaveLength(4);

      const model = await db().model.findUniqueOrThrow({
        where: { projectId_name: { projectId: fx.project.id, name: "nano-sft-test" } },
      });
      expect(model.kind).toBe("NANO_CHECKPOINT");
      const checkpoint = (model.config as { checkpoint: string }).checkpoint;
      expect(path.basename(checkpoint)).toBe("step-000004");
      await expect(fs.stat(path.join(checkpoint, "model.safetensors"))).resolves.toBeTruthy();
      await expect(fs.stat(path.join(path.dirname(checkpoint), "step-000002"))).resolves.toBeTruthy();
      // The checkpoint records the run as its lineage's one stage (what the Models page shows).
      const config = JSON.parse(await fs.readFile(path.join(checkpoint, "config.json"), "utf8"));
      expect(config.lineage).toEqual([
        expect.objectContaining({ name: run.id, trainer: "workbench train.sft job", steps: 4, parentHash: null }),
      ]);
      expect(config.lineage[0].data.dataHash).toBe(config.training.dataCursor.datasetHash);
      expect(config.trainedKs).toEqual([4, 8, 16, 32, 64]);
    },
  );

  it("refuses SFT on a dataset that is not a needle suite", async () => {
    const fx = await createProjectWithRoles(db());
    const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
    const plain = await db().dataset.create({ data: { projectId: fx.project.id, name: "plain" } });
    await expect(training.launchSft(access, sftSettings(plain.id, "x", 1, 0))).rejects.toThrow(
      /Only a needle-suite dataset can train nano/,
    );
  });

  it(
    "survives a crash of the training process: the worker lives, the retry resumes, no step twice",
    { timeout: 240_000 },
    async () => {
      const { access, dataset } = await projectWithSuite("crash data", 6);
      const run = await training.launchSft(access, sftSettings(dataset.id, "nano-crash-test", 30, 5));
      // Wait until the child has passed a checkpoint, then crash it the way a native bug would.
      const pid = await waitUntil("training past step 7", async () => {
        const r = await db().run.findUniqueOrThrow({ where: { id: run.id } });
        const m = /step (\d+)\/30 .* pid (\d+)/.exec(r.message ?? "");
        return m && Number(m[1]) >= 7 ? Number(m[2]) : null;
      });
      process.kill(pid, "SIGSEGV");

      const done = await waitForRun(run.id, 180_000);
      expect(done.status).toBe("SUCCEEDED");
      expect(done.attempts).toBe(2);
      const [loss] = await metrics.readSeries(access, { runId: run.id, names: ["loss"], maxPoints: 1000 });
      expect(loss!.points.map((p) => p.step)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      // This test's own process hosts the worker: it is still here and still takes jobs.
      const after = await datasets.generateSuite(access, {
        name: "after crash",
        seed: 7,
        count: 1,
        minMinutes: 1,
        maxMinutes: 1,
      });
      expect((await waitForRun(after.runId)).status).toBe("SUCCEEDED");
    },
  );
});
