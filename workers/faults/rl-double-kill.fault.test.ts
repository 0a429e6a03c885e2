// An RL run whose worker is killed twice (issue 37 item 3). BullMQ allows one takeover
// (maxStalledCount 1) and fails the job at the second; before the fix that failed the run although
// it had checkpoints to continue from. Now a resumable job that progressed since the previous
// takeover is queued again and continues from its last committed checkpoint.
import fs from "node:fs/promises";
import path from "node:path";
import { datasets, db, metrics, serverEnv, training } from "@paravt/shared/server";
import { afterEach, describe, expect, it } from "vitest";
import { projectWithOwnerAccess, tinyCheckpoint } from "../src/test-fixtures";
import { waitForRun, waitUntil } from "../src/test-support";
import { startWorkerProcess, type WorkerProcess } from "./worker-process";

const STEPS = 6;
let worker: WorkerProcess | undefined;

afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail" && worker) console.error(`worker log:\n${worker.output().slice(-6000)}`);
  await worker?.kill();
});

const stored = async (runId: string) => (await metrics.lastStoredStep(runId)) ?? 0;

describe("an RL run whose worker is killed twice", () => {
  it("is queued again after the second kill and finishes with every step once", async () => {
    worker = await startWorkerProcess("rl-kill-1");
    const { fx, access } = await projectWithOwnerAccess();
    const suite = await datasets.generateSuite(access, {
      name: "rl kills",
      seed: 5,
      count: 1,
      minMinutes: 1,
      maxMinutes: 1,
    });
    expect((await waitForRun(suite.runId, 150_000)).status).toBe("SUCCEEDED");
    const start = await db().model.create({
      data: {
        projectId: fx.project.id,
        name: "tiny-start",
        kind: "NANO_CHECKPOINT",
        config: { checkpoint: await tinyCheckpoint(path.join(process.env.MEDIA_ROOTS!, "tiny")) },
      },
    });
    const run = await training.launchRl(access, {
      datasetId: suite.dataset.id,
      modelId: start.id,
      name: "nano-rl-double-kill",
      steps: STEPS,
      checkpointEvery: 1,
      seed: 7,
      overrides: { groupSize: 2, promptsPerStep: 1, maxNewTokens: 16, maxTurns: 1 },
    });

    await waitUntil("step 2 stored", async () => (await stored(run.id)) >= 2, 120_000);
    await worker.kill();
    worker = await startWorkerProcess("rl-kill-2");
    const after1 = await stored(run.id);
    await waitUntil("a step past the first kill", async () => (await stored(run.id)) > after1, 120_000);
    await worker.kill();
    worker = await startWorkerProcess("rl-kill-3");

    const done = await waitForRun(run.id, 180_000);
    expect({ status: done.status, error: done.error }).toEqual({ status: "SUCCEEDED", error: null });
    expect(worker.output()).toContain("stalled more than allowable limit");
    const steps = await db().metric.findMany({
      where: { runId: run.id, name: "reward_mean" },
      select: { step: true },
      orderBy: { step: "asc" },
    });
    expect(steps.map((s) => s.step)).toEqual(Array.from({ length: STEPS }, (_, i) => i + 1));
    const episodes = await db().episode.findMany({ where: { runId: run.id }, select: { rolloutIndex: true } });
    expect(episodes.map((e) => e.rolloutIndex).sort((a, b) => a - b)).toEqual(
      Array.from({ length: STEPS }, (_, i) => [(i + 1) * 1000, (i + 1) * 1000 + 1]).flat(),
    );
    const runDir = path.join(serverEnv().DATA_DIR, "checkpoints", run.id);
    expect((await fs.readdir(runDir)).filter((n) => /^step-\d+$/.test(n))).toHaveLength(STEPS);
    console.log(
      `[faults] RL worker killed twice (after steps ${2} and ${after1 + 1}+): SUCCEEDED, ${done.attempts} deliveries, ${STEPS}/${STEPS} steps once`,
    );
  });
});
