// A run's attempt log (issue 39 item 6): each delivery's worker, backend, device and queue, and
// how it ended, through the lifecycle functions workers call. Real Postgres.
import { createProjectWithRoles } from "@paravt/db/factories";
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_RUN_ATTEMPT_ENTRIES } from "../../contracts/runs";
import { db } from "../db";
import { redis } from "../redis";
import { setWorkerIdentity } from "../worker-registry";
import { projectAccess } from "./access";
import { startRunPart } from "./evals-store";
import { cancelRun, failRunAttempt, finishRun, getRunConfig, startRunAttempt } from "./runs";

process.env.REDIS_PREFIX = `paravt-test-attempts-${process.pid}`;

afterAll(() => {
  redis().disconnect();
});

async function queuedRun(kind: "eval" | "sft", config: object = { datasetId: "d", seed: 3 }) {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
  const run = await db().run.create({
    data: { projectId: fx.project.id, kind, jobName: kind === "eval" ? "eval.run" : "train.sft", name: "r", config },
  });
  return { access, run };
}

const me = { host: os.hostname(), pid: process.pid };
const at = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);

describe("the attempt log", () => {
  it("records each attempt's worker and queue and how it ended; the page reads every one", async () => {
    const { access, run } = await queuedRun("sft");
    // An in-process worker announced nothing: host, pid, attempt and queue only.
    await startRunAttempt(run.id, { queue: "gpu" });
    await failRunAttempt(run.id, "CUDA error: out of memory", true, 1);
    // The worker process of the next attempt announced its core (workers/src/heartbeat.ts).
    setWorkerIdentity({ backend: "cuda", device: "NVIDIA H200 · 139 GiB · sm 9.0" });
    try {
      await startRunAttempt(run.id, { queue: "gpu" });
      // Attempt 2's worker is lost (no end written); the job moves on and attempt 3 runs on cpu.
      await startRunAttempt(run.id, { queue: "cpu" });
      await finishRun(run.id, "Done", 3);
    } finally {
      setWorkerIdentity(null);
    }
    const out = await getRunConfig(access, run.id);
    expect(out.attempts).toEqual([
      {
        attempt: 1,
        ...me,
        queue: "gpu",
        startedAt: at,
        endedAt: at,
        outcome: "retrying",
        reason: "CUDA error: out of memory",
      },
      {
        attempt: 2,
        ...me,
        backend: "cuda",
        device: "NVIDIA H200 · 139 GiB · sm 9.0",
        queue: "gpu",
        startedAt: at,
        endedAt: at,
        outcome: "interrupted",
        reason: expect.stringMatching(/another delivery started it again/),
      },
      {
        attempt: 3,
        ...me,
        backend: "cuda",
        device: "NVIDIA H200 · 139 GiB · sm 9.0",
        queue: "cpu",
        startedAt: at,
        endedAt: at,
        outcome: "succeeded",
      },
    ]);
    // The last attempt's worker, as the page showed it before the log; settings stay apart.
    expect(out.worker).toEqual({ ...me, attempt: 3, backend: "cuda", device: "NVIDIA H200 · 139 GiB · sm 9.0" });
    expect(out.config).toEqual({ datasetId: "d", seed: 3 });
  });

  it("a delivery whose lock was lost writes no end over its successor's", async () => {
    const { access, run } = await queuedRun("sft");
    await startRunAttempt(run.id, { queue: "cpu" });
    await startRunAttempt(run.id, { queue: "cpu" });
    // Attempt 1 finishing late: the fence refuses it, and the log keeps attempt 2 open.
    await finishRun(run.id, "Done", 1);
    await failRunAttempt(run.id, "stale", false, 1);
    const log = (await getRunConfig(access, run.id)).attempts;
    expect(log.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, "interrupted"],
      [2, undefined],
    ]);
    await cancelRun(access, run.id);
    expect((await getRunConfig(access, run.id)).attempts.at(-1)).toMatchObject({ attempt: 2, outcome: "cancelled" });
  });

  it("lists an evaluation's shard worker once, beside its parent's attempts", async () => {
    const { access, run } = await queuedRun("eval", { sampleCount: 2, shardSize: 1 });
    await startRunPart(run.id, { queue: "gpu" });
    await startRunPart(run.id, { queue: "gpu" });
    await startRunAttempt(run.id, { queue: "cpu" });
    await finishRun(run.id, "Done", 1);
    const out = await getRunConfig(access, run.id);
    expect(out.attempts).toEqual([
      { shards: true, ...me, queue: "gpu", startedAt: at },
      { attempt: 1, ...me, queue: "cpu", startedAt: at, endedAt: at, outcome: "succeeded" },
    ]);
    expect(out.sampleCount).toBe(2);
  });

  it(`keeps the newest ${MAX_RUN_ATTEMPT_ENTRIES} entries`, async () => {
    const { access, run } = await queuedRun("sft");
    for (let i = 0; i < MAX_RUN_ATTEMPT_ENTRIES + 2; i++) await startRunAttempt(run.id);
    const log = (await getRunConfig(access, run.id)).attempts;
    expect(log).toHaveLength(MAX_RUN_ATTEMPT_ENTRIES);
    expect(log[0]!.attempt).toBe(3);
    expect(log.at(-1)!.attempt).toBe(MAX_RUN_ATTEMPT_ENTRIES + 2);
  });
});
