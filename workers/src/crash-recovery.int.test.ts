// A worker process killed in the middle of a job: another worker takes the job over after the
// lock expires, the run finishes once, and nothing is counted twice.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { db, projectAccess, queue, videos } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { waitUntil } from "./test-support";

process.env.REDIS_PREFIX = `paravt-test-crash-${process.pid}`;
const LOCK_MS = 2_000;

let child: ChildProcess | undefined;
let rescuer: RunningWorkers | undefined;

afterAll(async () => {
  child?.kill("SIGKILL");
  await rescuer?.close();
  await queue("cpu").obliterate({ force: true });
});

describe("a killed worker", () => {
  it(
    "loses no job: the run is taken over, succeeds once, and its attempt is counted",
    { timeout: 180_000 },
    async () => {
      const fx = await createProjectWithRoles(db());
      const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
      // Long enough (~seconds of encoding) that the kill lands mid-job.
      const { video, runId } = await videos.createDemoVideo(access, { durationS: 240 });

      child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: path.join(import.meta.dirname, ".."),
        // The stalled check is throttled per queue by a Redis key that lives as long as the interval
        // of the worker that set it, so the child uses the same short interval as the rescuer.
        env: { ...process.env, WORKER_QUEUES: "cpu", WORKER_LOCK_MS: String(LOCK_MS), WORKER_STALLED_CHECK_MS: "1000" },
        stdio: "ignore",
      });
      await waitUntil("the child worker to start the run", async () => {
        const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
        return run.status === "RUNNING";
      });
      child.kill("SIGKILL");

      // A second worker notices the expired lock and runs the job again.
      rescuer = startWorkers({ queues: ["cpu"], concurrency: 1, lockMs: 30_000, stalledCheckMs: 1_000, quiet: true });
      const run = await waitUntil(
        "the run to finish",
        async () => {
          const r = await db().run.findUniqueOrThrow({ where: { id: runId } });
          return r.status === "SUCCEEDED" || r.status === "FAILED" ? r : null;
        },
        120_000,
      );
      expect(run.status).toBe("SUCCEEDED");
      expect(run.attempts).toBe(2);
      const row = await waitUntil("the video's assets", async () => {
        const v = await db().video.findUniqueOrThrow({ where: { id: video.id } });
        return v.status === "READY" || v.status === "FAILED" ? v : null;
      });
      expect(row.status).toBe("READY");
      expect(row.durationS).toBeCloseTo(240, 0);
      expect(await db().video.count({ where: { projectId: fx.project.id } })).toBe(1);
    },
  );
});
