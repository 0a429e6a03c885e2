// Routing to the gpu queue (issue 39 item 6) against the real test database, Redis and BullMQ
// under this file's own Redis prefix: which queue each producer picks for which live workers, a
// job never queued twice across the two queues, and the reconciler moving jobs left on the gpu
// queue back to cpu once the CUDA worker's announcement has expired. A worker process really
// running a moved job is workers/src/gpu-routing.int.test.ts.
import { createProjectWithRoles } from "@paravt/db/factories";
import os from "node:os";
import { UnrecoverableError, Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evalKnobs } from "../contracts/evals";
import type { WorkerInfo } from "../contracts/workers";
import { db } from "./db";
import { serverEnv } from "./env";
import { routeJob } from "./job-routing";
import { closeQueues, enqueue, findJob, queue, removeQueuedJob } from "./queues";
import { createRedis, redis } from "./redis";
import { projectAccess, type ProjectAccess } from "./services/access";
import { closeEvalFlows, createEvalRun, shardJobId } from "./services/evals";
import { NO_GPU_WORKER_REASON, reconcileRuns, resumeRun } from "./services/run-recovery";
import { launchRun } from "./services/runs";
import { announceWorker, liveWorkers, withdrawWorker } from "./worker-registry";

process.env.REDIS_PREFIX = `paravt-test-routing-${process.pid}`;

let access: ProjectAccess;
let projectId: string;

beforeAll(async () => {
  const fx = await createProjectWithRoles(db());
  projectId = fx.project.id;
  access = await projectAccess({ kind: "user", userId: fx.owner.id }, projectId);
});

afterAll(async () => {
  for (const w of (await liveWorkers()).workers) await withdrawWorker(w.id);
  await queue("cpu").obliterate({ force: true });
  await queue("gpu").obliterate({ force: true });
  await closeEvalFlows();
  await closeQueues();
  redis().disconnect();
});

let workerSeq = 0;

/** A worker's announcement exactly as workers/src/heartbeat.ts writes it, through the registry. */
async function announce(backend: string, queues: WorkerInfo["queues"], ttlMs = 60_000): Promise<string> {
  const id = `${os.hostname()}:${process.pid}:routing-${++workerSeq}`;
  const now = new Date().toISOString();
  await announceWorker(
    {
      id,
      host: os.hostname(),
      pid: process.pid,
      queues,
      concurrency: 1,
      backend,
      device: backend === "cuda" ? "NVIDIA H200" : "test CPU",
      memoryBytes: 141 * 2 ** 30,
      cores: 16,
      startedAt: now,
      seenAt: now,
      active: [],
    },
    ttlMs,
  );
  return id;
}

/** Until the announcement has expired by its TTL (nothing deletes it). */
async function expired(id: string): Promise<void> {
  for (;;) {
    if (!(await liveWorkers()).workers.some((w) => w.id === id)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sftRun = (name: string) =>
  launchRun(access, { jobName: "train.sft", kind: "sft", name, config: { note: "routing test" }, payload: {} });

async function modelRow(kind: "NANO_CHECKPOINT" | "OPENAI_COMPATIBLE") {
  return db().model.create({
    data: { projectId, name: `${kind} ${Math.random()}`, kind, config: {} },
  });
}

async function evalRun(model: { id: string; name: string }, samples: number) {
  return createEvalRun(access, {
    group: { id: `grp_${Math.random()}`, name: "g" },
    model,
    dataset: { id: "ds-not-read", name: "d" },
    mode: "agentic_general",
    k: 4,
    knobs: evalKnobs.parse({}),
    sampleIds: Array.from({ length: samples }, (_, i) => `s${i}`),
    shardSize: 1,
  });
}

const where = async (name: Parameters<typeof findJob>[0], id: string) => {
  const found = await findJob(name, id);
  return found ? { queue: found.job.queueName, state: found.state } : null;
};

describe("routeJob", () => {
  it("sends train jobs to gpu only while a live CUDA worker pulls gpu, and other jobs never", async () => {
    const run = await db().run.create({ data: { projectId, kind: "sft", jobName: "train.sft", name: "r" } });
    expect(await routeJob("train.sft", run.id)).toBe("cpu");
    // A CPU worker told to pull gpu, and a CUDA worker that does not pull gpu, are no GPU to route to.
    const cpuOnGpu = await announce("cpu", ["cpu", "gpu"]);
    const cudaOnCpu = await announce("cuda", ["cpu"]);
    expect(await routeJob("train.sft", run.id)).toBe("cpu");
    const cuda = await announce("cuda", ["gpu"]);
    expect(await routeJob("train.sft", run.id)).toBe("gpu");
    expect(await routeJob("train.rl", run.id)).toBe("gpu");
    expect(await routeJob("video.probe", run.id)).toBe("cpu");
    expect(await routeJob("eval.run", run.id)).toBe("cpu");
    for (const id of [cpuOnGpu, cudaOnCpu, cuda]) await withdrawWorker(id);
    expect(await routeJob("train.sft", run.id)).toBe("cpu");
  });

  it("sends an evaluation's shards to gpu only for a nano checkpoint; the parent stays on cpu", async () => {
    const cuda = await announce("cuda", ["gpu", "cpu"]);
    const nano = await evalRun(await modelRow("NANO_CHECKPOINT"), 2);
    const remote = await evalRun(await modelRow("OPENAI_COMPATIBLE"), 2);
    expect(await where("eval.run", nano.id)).toEqual({ queue: "cpu", state: "waiting-children" });
    expect(await where("eval.shard", shardJobId(nano.id, 0))).toEqual({ queue: "gpu", state: "waiting" });
    expect(await where("eval.shard", shardJobId(nano.id, 1))).toEqual({ queue: "gpu", state: "waiting" });
    expect(await where("eval.shard", shardJobId(remote.id, 0))).toEqual({ queue: "cpu", state: "waiting" });
    await withdrawWorker(cuda);
    // Cancelling removes the shards no worker started, in whichever queue they wait.
    await removeQueuedJob("eval.run", nano.id);
    await removeQueuedJob("eval.run", remote.id);
    expect(await where("eval.shard", shardJobId(nano.id, 0))).toBeNull();
    expect(await where("eval.shard", shardJobId(remote.id, 1))).toBeNull();
  });

  it("never queues a job twice: a run already waiting on cpu is not added to gpu", async () => {
    const run = await sftRun("queued before the GPU came");
    expect(await where("train.sft", run.id)).toEqual({ queue: "cpu", state: "waiting" });
    const cuda = await announce("cuda", ["gpu"]);
    expect(await enqueue("train.sft", { runId: run.id })).toBe("cpu");
    expect(await queue("gpu").getJob(run.id)).toBeUndefined();
    await withdrawWorker(cuda);
    expect(await removeQueuedJob("train.sft", run.id)).toBe(true);
  });
});

describe("a run queued again", () => {
  it("a resumed run whose failed job is on gpu goes where routeJob says now, and only there", async () => {
    const cuda = await announce("cuda", ["gpu"]);
    const run = await sftRun("failed on the GPU");
    expect(await where("train.sft", run.id)).toMatchObject({ queue: "gpu" });
    // Its job fails for good on a gpu worker, and the row says FAILED, as the processor leaves them.
    const gpuWorker = new Worker(
      "gpu",
      async () => {
        throw new UnrecoverableError("CUDA error: device lost");
      },
      { connection: createRedis(), prefix: serverEnv().REDIS_PREFIX },
    );
    await new Promise((resolve) => gpuWorker.once("failed", resolve));
    await gpuWorker.close();
    await db().run.update({ where: { id: run.id }, data: { status: "FAILED", error: "CUDA error: device lost" } });
    expect(await where("train.sft", run.id)).toEqual({ queue: "gpu", state: "failed" });
    await withdrawWorker(cuda);

    const out = await resumeRun(access, run.id);
    expect(out.status).toBe("QUEUED");
    expect(await where("train.sft", run.id)).toEqual({ queue: "cpu", state: "waiting" });
    expect(await queue("gpu").getJob(run.id)).toBeUndefined();
    await removeQueuedJob("train.sft", run.id);
  });
});

describe("jobs left on the gpu queue", () => {
  it("go back to cpu once the CUDA worker's announcement expires, with the reason on the run", async () => {
    const cuda = await announce("cuda", ["gpu"], 1_500);
    const run = await sftRun("routed to gpu");
    expect(await where("train.sft", run.id)).toEqual({ queue: "gpu", state: "waiting" });
    const nano = await evalRun(await modelRow("NANO_CHECKPOINT"), 2);
    expect(await where("eval.shard", shardJobId(nano.id, 0))).toMatchObject({ queue: "gpu" });

    // While the GPU worker lives, nothing moves.
    expect((await reconcileRuns({ projectId, graceMs: 60_000 })).movedToCpu).toEqual([]);
    await expired(cuda);
    const report = await reconcileRuns({ projectId, graceMs: 60_000 });
    expect(report.movedToCpu).toEqual(
      expect.arrayContaining([
        { runId: run.id, jobId: run.id, jobName: "train.sft", state: "waiting" },
        { runId: nano.id, jobId: shardJobId(nano.id, 0), jobName: "eval.shard", state: "waiting" },
        { runId: nano.id, jobId: shardJobId(nano.id, 1), jobName: "eval.shard", state: "waiting" },
      ]),
    );
    expect(report.movedToCpu).toHaveLength(3);
    expect(await queue("gpu").getJobCounts("wait", "delayed", "active", "prioritized")).toEqual({
      wait: 0,
      delayed: 0,
      active: 0,
      prioritized: 0,
    });
    const moved = await queue("cpu").getJob(run.id);
    expect(moved?.opts.attempts).toBe(3);
    expect(await moved?.getState()).toBe("waiting");
    const row = await db().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.status).toBe("QUEUED");
    expect(row.attempts).toBe(0);
    expect(row.message).toBe(`Moved to the cpu queue: ${NO_GPU_WORKER_REASON}`);

    // The shards now wait on cpu under the same parent, which still waits for both of them.
    const parent = await queue("cpu").getJob(nano.id);
    expect(await parent!.getState()).toBe("waiting-children");
    expect(await parent!.getDependenciesCount({ unprocessed: true })).toEqual({ unprocessed: 2 });
    for (const i of [0, 1]) {
      const shard = await queue("cpu").getJob(shardJobId(nano.id, i));
      expect(await shard!.getState()).toBe("waiting");
      expect(shard!.parent?.id).toBe(nano.id);
      expect(shard!.opts.failParentOnFailure).toBe(true);
    }
    // A second pass finds nothing more to move.
    expect((await reconcileRuns({ projectId, graceMs: 60_000 })).movedToCpu).toEqual([]);
    await removeQueuedJob("train.sft", run.id);
    await removeQueuedJob("eval.run", nano.id);
  });

  it("a delayed retry keeps the attempts it has left", async () => {
    const cuda = await announce("cuda", ["gpu"], 1_500);
    const run = await sftRun("failed once on the GPU");
    expect(await where("train.sft", run.id)).toMatchObject({ queue: "gpu" });
    // Its first attempt fails on a gpu worker (a BullMQ worker alone, not announced) and waits
    // out the back-off, delayed, as a device fault leaves it.
    const gpuWorker = new Worker(
      "gpu",
      async () => {
        throw new Error("CUDA error: an illegal memory access was encountered");
      },
      { connection: createRedis(), prefix: serverEnv().REDIS_PREFIX },
    );
    await new Promise((resolve) => gpuWorker.once("failed", resolve));
    // Closed before the back-off ends: no worker pulls gpu any more, the job stays delayed.
    await gpuWorker.close();
    expect(await where("train.sft", run.id)).toEqual({ queue: "gpu", state: "delayed" });
    await expired(cuda);
    const report = await reconcileRuns({ projectId, graceMs: 60_000 });
    expect(report.movedToCpu).toContainEqual({ runId: run.id, jobId: run.id, jobName: "train.sft", state: "delayed" });
    const moved = await queue("cpu").getJob(run.id);
    expect(moved?.opts.attempts).toBe(2);
    expect(await moved?.getState()).toBe("waiting");
    expect(await queue("gpu").getJob(run.id)).toBeUndefined();
    await moved!.remove();
  });
});
