// Live workers (issue 39 item 6): a real worker process announces itself in Redis, lists the jobs
// it runs (a project sees only its own by name), leaves the list at once when stopped, and
// within three missed beats when killed. PARAVT_DEVICE=cuda on a build without CUDA refuses to
// start with the reason.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { db, liveWorkers, projectAccess, queue, runs, videos, workers } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { waitUntil } from "./test-support";

process.env.REDIS_PREFIX = `paravt-test-heartbeat-${process.pid}`;
const CWD = path.join(import.meta.dirname, "..");
const children: ChildProcess[] = [];

function startWorkerProcess(env: Record<string, string>, stdout: "ignore" | "pipe" = "ignore"): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: CWD,
    env: { ...process.env, WORKER_HEARTBEAT_MS: "200", ...env },
    stdio: ["ignore", stdout, "ignore"],
  });
  children.push(child);
  return child;
}

const listed = async (pid: number | undefined) => (await liveWorkers()).workers.find((w) => w.pid === pid);

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await queue("cpu").obliterate({ force: true });
});

describe("worker heartbeat", () => {
  it("lists a live worker and its jobs, and drops it within three beats of a kill", { timeout: 120_000 }, async () => {
    const fx = await createProjectWithRoles(db());
    const other = await createProjectWithRoles(db());
    const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
    const otherAccess = await projectAccess({ kind: "user", userId: other.owner.id }, other.project.id);

    const child = startWorkerProcess({ WORKER_QUEUES: "cpu", WORKER_CONCURRENCY: "1" });
    const me = await waitUntil("the worker's announcement", () => listed(child.pid));
    expect(me).toMatchObject({
      host: os.hostname(),
      queues: ["cpu"],
      concurrency: 1,
      backend: "cpu",
      cores: os.cpus().length,
      memoryBytes: os.totalmem(),
      active: [],
    });

    // A job long enough (seconds of encoding) to be seen running.
    const { runId } = await videos.createDemoVideo(access, { durationS: 240 });
    const seen = await waitUntil("the job in the worker's list", async () => {
      const w = (await workers.projectWorkers(access)).workers.find((x) => x.pid === child.pid);
      return w?.active.length ? w : null;
    });
    expect(seen.active).toEqual([{ jobName: "video.generate", runId, since: expect.any(String) }]);
    expect(seen.otherJobs).toBe(0);
    // Another project sees the worker busy, not whose job it runs.
    const theirs = (await workers.projectWorkers(otherAccess)).workers.find((x) => x.pid === child.pid)!;
    expect(theirs.active).toEqual([]);
    expect(theirs.otherJobs).toBe(1);
    // The attempt records the worker, its backend, device and queue for the run page.
    const row = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect((row.config as { workerAttempts?: unknown }).workerAttempts).toEqual([
      {
        attempt: 1,
        host: os.hostname(),
        pid: child.pid,
        backend: "cpu",
        device: me.device,
        queue: "cpu",
        startedAt: expect.any(String),
      },
    ]);

    child.kill("SIGKILL");
    await waitUntil("the killed worker to leave the list", async () => !(await listed(child.pid)), 10_000);
    await runs.cancelRun(access, runId);
  });

  it("a worker stopped with SIGTERM leaves the list at once", { timeout: 60_000 }, async () => {
    const child = startWorkerProcess({ WORKER_QUEUES: "gpu", WORKER_HEARTBEAT_MS: "60000" }, "pipe");
    let out = "";
    child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
    await waitUntil("the worker's announcement", () => listed(child.pid));
    // A CPU-backend worker told to pull gpu says what that means (issue 39 item 6).
    await waitUntil("the warning in its log", async () =>
      /warning: WORKER_QUEUES includes gpu, but this worker's core runs on the cpu backend/.test(out),
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // Its entry would live 180 s more by TTL: it was deleted on the way out.
    expect(await listed(child.pid)).toBeUndefined();
  });

  it("an announcement this version cannot read is counted, not shown", async () => {
    const { redis, serverEnv } = await import("@paravt/shared/server");
    await redis().set(`${serverEnv().REDIS_PREFIX}:workers:hand-written`, '{"id":"x"}', "PX", 60_000);
    const res = await liveWorkers();
    expect(res.unreadable).toBe(1);
    expect(res.workers.find((w) => w.id === "x")).toBeUndefined();
    await redis().del(`${serverEnv().REDIS_PREFIX}:workers:hand-written`);
  });

  it("PARAVT_DEVICE=cuda where CUDA cannot run refuses to start, saying why", { timeout: 60_000 }, () => {
    const res = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: CWD,
      env: { ...process.env, PARAVT_DEVICE: "cuda" },
      encoding: "utf8",
      timeout: 50_000,
    });
    expect(res.status).toBe(1);
    // This machine has no GPU: either no CUDA library was built (no nvcc) or it finds no device.
    expect(res.stderr).toMatch(
      /PARAVT_DEVICE=cuda, but (this build has no CUDA backend|no CUDA device: .+): start with PARAVT_DEVICE=cpu or auto/,
    );
  });
});
