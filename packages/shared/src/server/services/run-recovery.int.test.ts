// The reconciler and resume paths (issue 37 item 3) against the real test database and a real
// BullMQ queue under this file's own Redis prefix. The whole story (a worker, Postgres and Redis
// really going down) is the fault suite's (workers/faults/); this file pins each decision.
import { createProjectWithRoles } from "@paravt/db/factories";
import type { Run } from "@paravt/db";
import { UnrecoverableError, Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../db";
import { serverEnv } from "../env";
import { closeQueues, enqueue, queue } from "../queues";
import { createRedis, redis } from "../redis";
import { projectAccess, type ProjectAccess } from "./access";
import { reconcileRuns, resumeAfterStalls, resumeRun } from "./run-recovery";

process.env.REDIS_PREFIX = `paravt-test-recovery-${process.pid}`;

let access: ProjectAccess;
let projectId: string;

beforeAll(async () => {
  const fx = await createProjectWithRoles(db());
  projectId = fx.project.id;
  access = await projectAccess({ kind: "user", userId: fx.editor.id }, projectId);
});

afterAll(async () => {
  await queue("cpu").obliterate({ force: true });
  await closeQueues();
  redis().disconnect();
});

async function row(data: Partial<Run> & Pick<Run, "jobName" | "status">, ageMs = 3600_000): Promise<Run> {
  const r = await db().run.create({
    data: {
      projectId,
      kind: "job",
      name: data.jobName,
      jobName: data.jobName,
      status: data.status,
      progress: data.progress ?? 0,
      config: (data.config ?? {}) as object,
    },
  });
  // As if nothing had touched the row for `ageMs` (the reconciler leaves fresh rows alone).
  await db()
    .$executeRaw`UPDATE runs SET updated_at = now() - make_interval(secs => ${ageMs / 1000}) WHERE id = ${r.id}`;
  return r;
}

const reread = (id: string) => db().run.findUniqueOrThrow({ where: { id } });

describe("reconcileRuns", () => {
  it("queues a RUNNING run whose job is gone again, from its row", async () => {
    const r = await row({ jobName: "video.probe", status: "RUNNING", config: { videoId: "v-lost" } });
    const report = await reconcileRuns({ projectId, graceMs: 1_000 });
    expect(report.requeued).toContain(r.id);
    const after = await reread(r.id);
    expect(after.status).toBe("QUEUED");
    expect(after.message).toMatch(/its job was lost/);
    const job = await queue("cpu").getJob(r.id);
    expect(job?.data).toEqual({ runId: r.id, videoId: "v-lost" });
    expect(await job?.getState()).toBe("waiting");
    await job?.remove();
  });

  it("writes the failure the queue decided while the row could not be written", async () => {
    const r = await row({ jobName: "video.probe", status: "RUNNING", config: { videoId: "v-failed" } });
    await enqueue("video.probe", { runId: r.id, videoId: "v-failed" });
    // A bare BullMQ worker fails the job and writes nothing to Postgres, like ours with Postgres down.
    const failed = new Promise<void>((resolve) => {
      const w = new Worker(
        "cpu",
        async () => {
          throw new UnrecoverableError("job stalled more than allowable limit");
        },
        { connection: createRedis(), prefix: serverEnv().REDIS_PREFIX },
      );
      w.on("failed", () => void w.close().then(resolve));
    });
    await failed;
    const report = await reconcileRuns({ projectId, graceMs: 1_000 });
    expect(report.failed).toContain(r.id);
    const after = await reread(r.id);
    expect({ status: after.status, error: after.error }).toEqual({
      status: "FAILED",
      error: "job stalled more than allowable limit",
    });
    expect(after.finishedAt).not.toBeNull();
  });

  it("leaves live jobs and fresh rows alone, and fails a lost run its row cannot rebuild", async () => {
    const live = await row({ jobName: "video.probe", status: "QUEUED", config: { videoId: "v-live" } });
    await enqueue("video.probe", { runId: live.id, videoId: "v-live" });
    const fresh = await row({ jobName: "video.probe", status: "QUEUED", config: { videoId: "v-fresh" } }, 0);
    // suite.generate's payload names its dataset, which this row's config does not hold.
    const opaque = await row({ jobName: "suite.generate", status: "RUNNING", config: { seed: 1 } });
    const report = await reconcileRuns({ projectId, graceMs: 60_000 });
    expect(report.requeued).not.toContain(live.id);
    expect(report.requeued).not.toContain(fresh.id);
    expect((await reread(live.id)).status).toBe("QUEUED");
    expect((await reread(fresh.id)).status).toBe("QUEUED");
    expect(await queue("cpu").getJob(fresh.id)).toBeUndefined();
    const after = await reread(opaque.id);
    expect(after.status).toBe("FAILED");
    expect(after.error).toMatch(/do not say how to queue suite\.generate again/);
    await (await queue("cpu").getJob(live.id))?.remove();
  });
});

describe("resumeAfterStalls", () => {
  it("queues a training run whose workers died again while it progresses, and fails it when it does not", async () => {
    const r = await row({ jobName: "train.rl", status: "RUNNING", progress: 0.4 });
    expect(await resumeAfterStalls(r.id, "job stalled more than allowable limit")).toBe(true);
    expect((await reread(r.id)).status).toBe("QUEUED");
    expect(await queue("cpu").getJob(r.id)).toBeDefined();
    await (await queue("cpu").getJob(r.id))?.remove();

    await db().run.update({ where: { id: r.id }, data: { status: "RUNNING", progress: 0.6 } });
    expect(await resumeAfterStalls(r.id, "job stalled more than allowable limit")).toBe(true);
    await (await queue("cpu").getJob(r.id))?.remove();

    // Killed again without a step stored since: it would die forever.
    await db().run.update({ where: { id: r.id }, data: { status: "RUNNING" } });
    expect(await resumeAfterStalls(r.id, "job stalled more than allowable limit")).toBe(false);
    const after = await reread(r.id);
    expect(after.status).toBe("FAILED");
    expect(after.error).toMatch(/no progress since the previous takeover/);
  });

  it("fails a job that cannot resume", async () => {
    const r = await row({ jobName: "video.assets", status: "RUNNING", config: { videoId: "v" }, progress: 0.5 });
    expect(await resumeAfterStalls(r.id, "job stalled more than allowable limit")).toBe(false);
    expect((await reread(r.id)).status).toBe("FAILED");
  });
});

describe("resumeRun", () => {
  it("queues a failed training run again and refuses what cannot resume", async () => {
    const failed = await row({ jobName: "train.sft", status: "FAILED" });
    const out = await resumeRun(access, failed.id);
    expect(out.status).toBe("QUEUED");
    expect(out.error).toBeNull();
    expect(out.message).toMatch(/continues from the last checkpoint/);
    expect(await (await queue("cpu").getJob(failed.id))?.getState()).toBe("waiting");
    await (await queue("cpu").getJob(failed.id))?.remove();

    const running = await row({ jobName: "train.sft", status: "RUNNING" });
    await expect(resumeRun(access, running.id)).rejects.toThrow(/only a failed or cancelled run can be resumed/);
    const probe = await row({ jobName: "video.probe", status: "FAILED", config: { videoId: "v" } });
    await expect(resumeRun(access, probe.id)).rejects.toThrow(/Only evaluation and training runs can be resumed/);
    await expect(resumeRun(access, "no-such-run")).rejects.toThrow(/Run/);
  });
});
