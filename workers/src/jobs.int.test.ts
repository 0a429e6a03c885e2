// The job system end to end: real Postgres rows, real BullMQ queues in Redis, real workers,
// real ffmpeg. Uses its own Redis key prefix so no other test file's jobs reach these workers.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import type { RunEvent } from "@paravt/shared";
import { db, enqueue, onRunEvents, projectAccess, queue, runs, videos } from "@paravt/shared/server";
import { makeFixture } from "@paravt/video";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processJob } from "./process-job";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { waitForRun, waitForVideoSettled } from "./test-support";

process.env.REDIS_PREFIX = `paravt-test-jobs-${process.pid}`;

let workers: RunningWorkers;
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "paravt-jobs-"));
  workers = startWorkers({ queues: ["cpu"], concurrency: 2, quiet: true });
});

afterAll(async () => {
  await workers.close();
  await queue("cpu").obliterate({ force: true });
  await fs.rm(tmp, { recursive: true, force: true });
});

async function ownerAccess() {
  const fx = await createProjectWithRoles(db());
  return projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
}

describe("job lifecycle", () => {
  it("renders and probes a demo video, publishing each status change in order", async () => {
    const access = await ownerAccess();
    const events: RunEvent[] = [];
    const stop = await onRunEvents(access.projectId, (e) => events.push(e));
    const { video, runId } = await videos.createDemoVideo(access, { durationS: 3 });
    const run = await waitForRun(runId);
    await new Promise((r) => setTimeout(r, 200)); // pub/sub delivery is asynchronous
    await stop();

    expect(run).toMatchObject({ status: "SUCCEEDED", progress: 1, attempts: 1, error: null });
    expect(run.message).toMatch(/320x180 h264, 3\.0 s/);
    // The probe queues the assets job; the video is READY once thumbnails and filmstrip exist.
    const row = await waitForVideoSettled(video.id);
    expect(row).toMatchObject({ status: "READY", width: 320, height: 180, codec: "h264", error: null });
    expect(row.durationS).toBeCloseTo(3, 1);
    await expect(fs.stat(row.path)).resolves.toBeTruthy();
    const assets = videos.videoAssets(row);
    expect(assets.thumbnail).toBe("thumbnail.jpg");
    const index = JSON.parse(
      await fs.readFile(path.join(videos.videoAssetDir(video.id), assets.filmstrip!.index), "utf8"),
    );
    expect(index.frames.length).toBe(10);
    const assetRuns = await db().run.findMany({ where: { projectId: access.projectId, jobName: "video.assets" } });
    expect(assetRuns).toHaveLength(1);
    expect(assetRuns[0]).toMatchObject({ status: "SUCCEEDED", createdById: null });

    const statuses = events.filter((e) => e.runId === runId).map((e) => e.status);
    expect(statuses.slice(0, 2)).toEqual(["QUEUED", "RUNNING"]);
    expect(statuses.at(-1)).toBe("SUCCEEDED");
    const progress = events.filter((e) => e.runId === runId).map((e) => e.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("fails a corrupt video visibly, once, with the reason on the run and the video row", async () => {
    const access = await ownerAccess();
    const file = path.join(tmp, "notes.mp4");
    await fs.writeFile(file, "this is a text file named like a video\n".repeat(50));
    const video = await db().video.create({
      data: { projectId: access.projectId, name: "notes.mp4", source: "PATH", path: file },
    });
    const launched = await runs.launchRun(access, {
      jobName: "video.probe",
      name: "Probe notes.mp4",
      payload: { videoId: video.id },
    });
    const run = await waitForRun(launched.id);
    expect(run.status).toBe("FAILED");
    // A bad file is not retried: one attempt, not three.
    expect(run.attempts).toBe(1);
    const row = await db().video.findUniqueOrThrow({ where: { id: video.id } });
    expect(row.status).toBe("FAILED");
    expect(row.error).toBeTruthy();
    expect(run.error).toBe(row.error);
  });

  it("fails a truncated video with a readable reason", async () => {
    const access = await ownerAccess();
    const file = path.join(tmp, "truncated.mp4");
    await makeFixture("truncated", file);
    const video = await db().video.create({
      data: { projectId: access.projectId, name: "truncated.mp4", source: "PATH", path: file },
    });
    const launched = await runs.launchRun(access, {
      jobName: "video.probe",
      name: "Probe",
      payload: { videoId: video.id },
    });
    const run = await waitForRun(launched.id);
    expect(run.status).toBe("FAILED");
    expect((await db().video.findUniqueOrThrow({ where: { id: video.id } })).error).toMatch(
      /truncat|incomplete|damaged/i,
    );
  });

  it("skips a job whose video was deleted, without failing or retrying", async () => {
    const access = await ownerAccess();
    const video = await db().video.create({
      data: { projectId: access.projectId, name: "gone.mp4", source: "PATH", path: path.join(tmp, "gone.mp4") },
    });
    const run = await db().run.create({
      data: { projectId: access.projectId, kind: "job", jobName: "video.probe", name: "Probe gone" },
    });
    await db().video.delete({ where: { id: video.id } });
    await enqueue("video.probe", { runId: run.id, videoId: video.id });
    const done = await waitForRun(run.id);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.message).toMatch(/^Skipped: video .* no longer exists/);
  });

  it("never runs a finished run twice (duplicate delivery is a no-op)", async () => {
    const access = await ownerAccess();
    const { runId, video } = await videos.createDemoVideo(access, { durationS: 2 });
    const first = await waitForRun(runId);
    expect(first.status).toBe("SUCCEEDED");
    await waitForVideoSettled(video.id);
    // Enqueueing the same run id again is deduplicated by BullMQ's job id...
    await enqueue("video.generate", { runId, videoId: "ignored" });
    // ...and a redelivered job (e.g. after a lost lock) is skipped by the row's status.
    const fakeJob = { name: "video.generate", data: { runId, videoId: "x" }, attemptsMade: 0, opts: { attempts: 2 } };
    await expect(processJob(fakeJob as never)).resolves.toBe("skipped");
    const again = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(again.attempts).toBe(1);
    expect(again.finishedAt).toEqual(first.finishedAt);
  });

  it("rejects a payload that does not match the catalog", async () => {
    const access = await ownerAccess();
    const run = await db().run.create({
      data: { projectId: access.projectId, kind: "job", jobName: "video.probe", name: "bad payload" },
    });
    const bad = { name: "video.probe", data: { runId: run.id, videoId: 42 }, attemptsMade: 0, opts: { attempts: 3 } };
    await expect(processJob(bad as never)).rejects.toThrow(/Invalid payload for video.probe/);
    const row = await db().run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.status).toBe("FAILED");
    expect(row.error).toMatch(/videoId/);
  });

  it("cancels a running render: ffmpeg stops, no file appears, the worker is free again", async () => {
    const access = await ownerAccess();
    const { runId, video } = await videos.createDemoVideo(access, { durationS: 1800 });
    for (;;) {
      const r = await db().run.findUniqueOrThrow({ where: { id: runId } });
      if (r.status === "RUNNING" && r.progress > 0.05) break;
      await new Promise((res) => setTimeout(res, 50));
    }
    const cancelledAt = Date.now();
    await runs.cancelRun(access, runId);
    // The next progress report (<= 250 ms apart) sees the cancel and aborts ffmpeg; the job
    // then ends (BullMQ state "completed", result "cancelled") long before the render would.
    const job = (await queue("cpu").getJob(runId))!;
    for (;;) {
      const state = await job.getState();
      if (state === "completed" || state === "failed") break;
      expect(Date.now() - cancelledAt).toBeLessThan(20_000);
      await new Promise((res) => setTimeout(res, 50));
    }
    expect((await queue("cpu").getJob(runId))!.returnvalue).toBe("cancelled");
    const next = await videos.createDemoVideo(access, { durationS: 2 });
    expect((await waitForRun(next.runId, 30_000)).status).toBe("SUCCEEDED");
    const row = await db().video.findUniqueOrThrow({ where: { id: video.id } });
    expect(row.status).toBe("PROCESSING");
    await expect(fs.stat(row.path)).rejects.toThrow();
    const files = await fs.readdir(path.dirname(row.path));
    expect(files.filter((f) => f.includes(path.basename(row.path)))).toEqual([]);
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe("CANCELLED");
  });

  it("cancels a queued run: the job leaves the queue and never starts", async () => {
    const access = await ownerAccess();
    await Promise.all(workers.workers.map((w) => w.pause()));
    try {
      const { runId } = await videos.createDemoVideo(access, { durationS: 2 });
      expect(await queue("cpu").getJob(runId)).toBeTruthy();
      const cancelled = await runs.cancelRun(access, runId);
      expect(cancelled.status).toBe("CANCELLED");
      expect(await queue("cpu").getJob(runId)).toBeUndefined();
    } finally {
      workers.workers.forEach((w) => w.resume());
    }
  });
});
