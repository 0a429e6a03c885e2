// Training while Redis stops answering for longer than the job's lock (issue 37 item 4): the lock
// expires, BullMQ hands the job out again, and before fencing the first trainer went on training
// beside the second for as long as it lasted. Now the worker that cannot renew the lock kills its
// trainer, a stale holder cannot commit a checkpoint (the run's fencing token), and the run ends
// with every step stored once. A real worker process, a real Redis frozen with SIGSTOP.
import fs from "node:fs/promises";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { datasets, db, metrics, projectAccess, serverEnv, training } from "@paravt/shared/server";
import { afterEach, describe, expect, it } from "vitest";
import { waitForRun, waitUntil } from "../src/test-support";
import { pauseRedis, resumeRedis } from "./services";
import { LOCK_MS, sleep, startWorkerProcess, type WorkerProcess } from "./worker-process";

const STEPS = 30;
let worker: WorkerProcess | undefined;

afterEach(async (ctx) => {
  if (ctx.task.result?.state === "fail" && worker) console.error(`worker log:\n${worker.output().slice(-6000)}`);
  await worker?.kill();
});

/** Live (not zombie) processes running the SFT child (workers/src/sft-child.ts). */
async function trainerPids(): Promise<number[]> {
  const out: number[] = [];
  for (const name of await fs.readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = await fs.readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "");
    if (!cmd.includes("sft-child.ts")) continue;
    const stat = await fs.readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    if (stat && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z") out.push(Number(name));
  }
  return out;
}

describe("an SFT run whose Redis freezes for longer than the job lock", () => {
  it("never has two trainers at once, and ends with every step once", async () => {
    worker = await startWorkerProcess("sft-fence");
    const fx = await createProjectWithRoles(db());
    const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
    const suite = await datasets.generateSuite(access, {
      name: "fence",
      seed: 3,
      count: 1,
      minMinutes: 1,
      maxMinutes: 1,
    });
    expect((await waitForRun(suite.runId, 150_000)).status).toBe("SUCCEEDED");
    const run = await training.launchSft(access, {
      datasetId: suite.dataset.id,
      name: "nano-sft-fence",
      preset: "tiny",
      steps: STEPS,
      batchSize: 1,
      lr: 1e-3,
      seed: 1,
      checkpointEvery: 2,
    });

    // Sample the trainer processes throughout: the most alive at one time, and every one seen.
    const seen = new Set<number>();
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const pids = await trainerPids();
        pids.forEach((p) => seen.add(p));
        most = Math.max(most, pids.length);
        await sleep(50);
      }
    })();

    await waitUntil("step 2 stored", async () => ((await metrics.lastStoredStep(run.id)) ?? 0) >= 2, 120_000);
    pauseRedis();
    await sleep(LOCK_MS * 3);
    resumeRedis();

    const done = await waitForRun(run.id, 180_000);
    sampling = false;
    await sampler;
    expect({ status: done.status, error: done.error }).toEqual({ status: "SUCCEEDED", error: null });
    // The fault really bit: the job was delivered again and a second trainer took over...
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect(worker.output()).toContain("job lock lost: stopping it");
    // ...but never beside the first.
    expect(most).toBe(1);

    // Every step's metrics once, none missing; every committed checkpoint complete.
    const steps = await db().metric.findMany({
      where: { runId: run.id, name: "loss" },
      select: { step: true },
      orderBy: { step: "asc" },
    });
    expect(steps.map((s) => s.step)).toEqual(Array.from({ length: STEPS }, (_, i) => i + 1));
    const runDir = path.join(serverEnv().DATA_DIR, "checkpoints", run.id);
    const names = (await fs.readdir(runDir)).sort();
    expect(names.filter((n) => n.startsWith("staging-"))).toEqual([]);
    expect(names.filter((n) => /^step-\d+$/.test(n))).toEqual(
      Array.from({ length: STEPS / 2 }, (_, i) => `step-${String((i + 1) * 2).padStart(6, "0")}`),
    );
    console.log(
      `[faults] redis frozen ${(LOCK_MS * 3) / 1000} s (lock ${LOCK_MS / 1000} s) during SFT: ${seen.size} trainers in turn, ` +
        `at most ${most} at once; ${done.attempts} deliveries; ${STEPS}/${STEPS} steps once`,
    );
  });
});
