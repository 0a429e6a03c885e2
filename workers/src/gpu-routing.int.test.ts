// GPU routing end to end (issue 39 item 6), real Postgres, Redis, BullMQ, ffmpeg and workers: an
// SFT run launched while a CUDA worker is announced waits on the gpu queue, where no CPU worker
// takes it; once that announcement expires the reconciler moves it to cpu and a CPU worker trains
// it exactly once. And a GPU worker killed mid-training: its job is not left active on the gpu
// queue, it is moved and resumed on cpu from the last checkpoint, every step stored once.
// (This build has no CUDA backend: the CUDA worker here is its announcement, written through the
// registry exactly as workers/src/heartbeat.ts writes it; the killed one is a real worker process
// told to pull gpu.)
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { RunAttempt } from "@paravt/shared";
import {
  announceWorker,
  datasets,
  db,
  findJob,
  liveWorkers,
  metrics,
  projectAccess,
  queue,
  runRecovery,
  training,
} from "@paravt/shared/server";
import { createProjectWithRoles } from "@paravt/db/factories";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { waitForRun, waitUntil } from "./test-support";

const mediaRoot = path.join(os.tmpdir(), `paravt-gpu-routing-media-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-gpu-routing-${process.pid}`;
process.env.MEDIA_ROOTS = mediaRoot;
const LOCK_MS = 2_000;

let cpuWorker: RunningWorkers;
let gpuProcess: ChildProcess | undefined;

beforeAll(async () => {
  await fs.mkdir(mediaRoot, { recursive: true });
  cpuWorker = startWorkers({ queues: ["cpu"], concurrency: 2, lockMs: 30_000, stalledCheckMs: 1_000, quiet: true });
});

afterAll(async () => {
  gpuProcess?.kill("SIGKILL");
  await cpuWorker.close();
  await queue("cpu").obliterate({ force: true });
  await queue("gpu").obliterate({ force: true });
  await fs.rm(mediaRoot, { recursive: true, force: true });
});

/** A CUDA worker's announcement (no such worker runs here), living `ttlMs` unless refreshed. */
async function announceCudaWorker(ttlMs: number): Promise<string> {
  const id = `${os.hostname()}:${process.pid}:cuda-${Math.random().toString(36).slice(2, 8)}`;
  const now = new Date().toISOString();
  await announceWorker(
    {
      id,
      host: "gpu-box",
      pid: 4242,
      queues: ["gpu"],
      concurrency: 1,
      backend: "cuda",
      device: "NVIDIA H200 · 139 GiB · sm 9.0",
      memoryBytes: 139 * 2 ** 30,
      cores: 16,
      startedAt: now,
      seenAt: now,
      active: [],
    },
    ttlMs,
  );
  return id;
}

const gone = (id: string) =>
  waitUntil(
    `worker ${id}'s announcement to expire`,
    async () => !(await liveWorkers()).workers.some((w) => w.id === id),
  );

async function projectWithSuite(seed: number) {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
  const { dataset, runId } = await datasets.generateSuite(access, {
    name: `suite ${seed}`,
    seed,
    count: 1,
    minMinutes: 1,
    maxMinutes: 1,
  });
  expect((await waitForRun(runId, 120_000)).status).toBe("SUCCEEDED");
  return { projectId: fx.project.id, access, dataset };
}

const sft = (datasetId: string, name: string, steps: number, checkpointEvery: number) => ({
  datasetId,
  name,
  preset: "tiny" as const,
  steps,
  batchSize: 1,
  lr: 1e-3,
  seed: 1,
  checkpointEvery,
});

const attemptsOf = async (runId: string) =>
  ((await db().run.findUniqueOrThrow({ where: { id: runId } })).config as { workerAttempts: RunAttempt[] })
    .workerAttempts;

describe("gpu routing with real workers", () => {
  it(
    "a job waiting on gpu after its CUDA worker expired is moved to cpu and trained once",
    { timeout: 240_000 },
    async () => {
      const { projectId, access, dataset } = await projectWithSuite(11);
      const cuda = await announceCudaWorker(1_500);
      const run = await training.launchSft(access, sft(dataset.id, "routed", 2, 1));
      const waiting = await findJob("train.sft", run.id);
      expect({ queue: waiting?.job.queueName, state: waiting?.state }).toEqual({ queue: "gpu", state: "waiting" });

      await gone(cuda);
      const report = await runRecovery.reconcileRuns({ projectId, graceMs: 60_000 });
      expect(report.movedToCpu).toEqual([{ runId: run.id, jobId: run.id, jobName: "train.sft", state: "waiting" }]);

      const done = await waitForRun(run.id, 180_000);
      expect(done.error).toBeNull();
      expect(done.status).toBe("SUCCEEDED");
      expect(done.attempts).toBe(1);
      const [loss] = await metrics.readSeries(access, { runId: run.id, names: ["loss"], maxPoints: 100 });
      expect(loss!.points.map((p) => p.step)).toEqual([1, 2]);
      expect(await attemptsOf(run.id)).toEqual([
        expect.objectContaining({ attempt: 1, pid: process.pid, queue: "cpu", outcome: "succeeded" }),
      ]);
      expect(await db().model.count({ where: { projectId, name: "routed" } })).toBe(1);
      expect(await queue("gpu").getJob(run.id)).toBeUndefined();
    },
  );

  it(
    "a GPU worker killed mid-training: the job moves to cpu and resumes, every step once",
    { timeout: 300_000 },
    async () => {
      const { projectId, access, dataset } = await projectWithSuite(12);
      // The one that takes the job is a real worker process on gpu (a CPU core here); routing
      // needs a CUDA worker, announced once that process is up.
      gpuProcess = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: path.join(import.meta.dirname, ".."),
        env: {
          ...process.env,
          WORKER_QUEUES: "gpu",
          WORKER_HEARTBEAT_MS: "200",
          WORKER_LOCK_MS: String(LOCK_MS),
          WORKER_STALLED_CHECK_MS: "1000",
        },
        stdio: "ignore",
      });
      const gpuPid = gpuProcess.pid;
      await waitUntil("the gpu worker's announcement", async () =>
        (await liveWorkers()).workers.some((w) => w.pid === gpuPid),
      );
      const cuda = await announceCudaWorker(1_500);
      const run = await training.launchSft(access, sft(dataset.id, "killed on gpu", 30, 5));
      expect((await findJob("train.sft", run.id))?.job.queueName).toBe("gpu");
      await waitUntil(
        "training on the gpu worker past step 7",
        async () => {
          const r = await db().run.findUniqueOrThrow({ where: { id: run.id } });
          const m = /^step (\d+)\/30/.exec(r.message ?? "");
          return m && Number(m[1]) >= 7;
        },
        120_000,
      );
      gpuProcess.kill("SIGKILL");
      await gone(cuda);
      await waitUntil(
        "the killed worker's announcement to expire",
        async () => !(await liveWorkers()).workers.some((w) => w.pid === gpuPid),
      );
      // Active on the gpu queue with nobody to notice its lock expiring, until the reconciler does.
      const moved = await waitUntil("the reconciler to move the dead worker's job", async () => {
        const r = await runRecovery.reconcileRuns({ projectId, graceMs: 60_000 });
        return r.movedToCpu.find((m) => m.runId === run.id);
      });
      expect(moved).toEqual({ runId: run.id, jobId: run.id, jobName: "train.sft", state: "active" });

      const done = await waitForRun(run.id, 240_000);
      expect(done.error).toBeNull();
      expect(done.status).toBe("SUCCEEDED");
      expect(done.attempts).toBe(2);
      const [loss] = await metrics.readSeries(access, { runId: run.id, names: ["loss"], maxPoints: 1000 });
      expect(loss!.points.map((p) => p.step)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      const log = await attemptsOf(run.id);
      expect(log).toEqual([
        expect.objectContaining({ attempt: 1, pid: gpuPid, backend: "cpu", queue: "gpu", outcome: "interrupted" }),
        expect.objectContaining({ attempt: 2, pid: process.pid, queue: "cpu", outcome: "succeeded" }),
      ]);
      expect(log[0]!.reason).toMatch(/its worker was lost; no live worker pulls the gpu queue/);
    },
  );
});
