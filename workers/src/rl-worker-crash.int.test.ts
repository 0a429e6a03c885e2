// A train.rl run whose worker process is SIGKILLed after it has written checkpoints: its training
// child exits on the lost IPC channel instead of training on as an orphan, another worker takes the job
// over once its lock expires, resumes from the last checkpoint instead of starting again, and the
// run succeeds with every step's metrics and sample rollouts exactly once.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { datasets, db, metrics, queue, serverEnv, training } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { projectWithOwnerAccess, tinyCheckpoint } from "./test-fixtures";
import { waitForRun, waitUntil } from "./test-support";

const tmp = path.join(os.tmpdir(), `paravt-rl-crash-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-rl-crash-${process.pid}`;
process.env.MEDIA_ROOTS = tmp;
const LOCK_MS = 2_000;
const STEPS = 4;

let child: ChildProcess | undefined;
let rescuer: RunningWorkers | undefined;

/** SIGKILL to the worker's process group: the worker and the training process it forked. */
function killWorkerGroup(): void {
  if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

/** Whether a process still runs; a zombie (killed, not yet reaped by init) counts as gone. */
async function alive(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (stat === null) return false;
  // "pid (comm) state ...": the state follows the last ")" (comm may hold spaces or parens).
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}

afterAll(async () => {
  killWorkerGroup();
  await rescuer?.close();
  await queue("cpu").obliterate({ force: true });
  await fs.rm(tmp, { recursive: true, force: true });
});

/** Checkpoint directories of a run with their modification times (a rewrite replaces the directory). */
async function checkpointTimes(outDir: string): Promise<Map<string, number>> {
  const names = (await fs.readdir(outDir).catch(() => [] as string[])).filter((n) => /^step-\d+$/.test(n));
  const out = new Map<string, number>();
  for (const n of names.sort()) out.set(n, (await fs.stat(path.join(outDir, n))).mtimeMs);
  return out;
}

describe("a train.rl run whose worker is killed", () => {
  it(
    "is resumed from its last checkpoint by another worker: every step once, no rollout twice",
    { timeout: 240_000 },
    async () => {
      await fs.mkdir(tmp, { recursive: true });
      child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: path.join(import.meta.dirname, ".."),
        // Its own process group, so cleanup can kill whatever is left of it in one call.
        detached: true,
        // The stalled check is throttled per queue by a Redis key that lives as long as the interval
        // of the worker that set it, so the child uses the same short interval as the rescuer.
        env: { ...process.env, WORKER_QUEUES: "cpu", WORKER_LOCK_MS: String(LOCK_MS), WORKER_STALLED_CHECK_MS: "1000" },
        stdio: "ignore",
      });

      const { fx, access } = await projectWithOwnerAccess();
      const suite = await datasets.generateSuite(access, {
        name: "rl crash data",
        seed: 5,
        count: 1,
        minMinutes: 1,
        maxMinutes: 1,
      });
      expect((await waitForRun(suite.runId, 120_000)).status).toBe("SUCCEEDED");
      const start = await db().model.create({
        data: {
          projectId: fx.project.id,
          name: "tiny-start",
          kind: "NANO_CHECKPOINT",
          config: { checkpoint: await tinyCheckpoint(path.join(tmp, "tiny")) },
        },
      });
      const run = await training.launchRl(access, {
        datasetId: suite.dataset.id,
        modelId: start.id,
        name: "nano-rl-worker-crash",
        steps: STEPS,
        checkpointEvery: 1,
        seed: 7,
        overrides: { groupSize: 2, promptsPerStep: 1, maxNewTokens: 16, maxTurns: 1 },
      });
      const outDir = path.join(serverEnv().DATA_DIR, "checkpoints", run.id);

      // Kill once step 2 is stored (its progress is the last write of a step) and checkpointed.
      const trainerPid = await waitUntil(
        "the first worker past step 2 with its checkpoint",
        async () => {
          const r = await db().run.findUniqueOrThrow({ where: { id: run.id } });
          const m = /^step (\d+)\/\d+ .* pid (\d+)/.exec(r.message ?? "");
          if (!m || Number(m[1]) < 2) return null;
          const complete = await fs.stat(path.join(outDir, "step-000002", "rl-state.json")).catch(() => null);
          return complete ? Number(m[2]) : null;
        },
        120_000,
      );
      // Only the worker: its training child must notice the lost parent and stop by itself
      // (exitWithParent), or it would go on writing checkpoints the rescuer then resumes from.
      process.kill(child.pid!, "SIGKILL");
      const killedAt = Date.now();
      await waitUntil(
        "the worker and its orphaned trainer to be gone",
        async () => !(await alive(child!.pid!)) && !(await alive(trainerPid)),
      );
      const before = await checkpointTimes(outDir);
      const lastBefore = [...before.keys()].at(-1)!;
      expect(Number(lastBefore.slice("step-".length))).toBeLessThan(STEPS);
      expect((await db().run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("RUNNING");

      // A second worker notices the expired lock and runs the job again, as attempt 2.
      rescuer = startWorkers({ queues: ["cpu"], concurrency: 1, lockMs: 30_000, stalledCheckMs: 1_000, quiet: true });
      const done = await waitForRun(run.id, 180_000);
      expect(done.error).toBeNull();
      expect(done.status).toBe("SUCCEEDED");
      expect(done.attempts).toBe(2);
      expect(done.message).toMatch(new RegExp(`^${STEPS} steps · last reward -?\\d+\\.\\d{3} · model`));

      // Every step exactly once, none missing: the steps before the kill and those after it.
      const series = await metrics.readSeries(access, {
        runId: run.id,
        names: ["reward_mean", "kl", "format_compliance"],
        maxPoints: 100,
      });
      for (const s of series) {
        expect({ name: s.name, steps: s.points.map((p) => p.step) }).toEqual({
          name: s.name,
          steps: Array.from({ length: STEPS }, (_, i) => i + 1),
        });
      }
      // Two sample rollouts per step, none duplicated or lost across the takeover.
      const episodes = await db().episode.findMany({
        where: { runId: run.id },
        select: { rolloutIndex: true, rewardTerms: true },
        orderBy: { rolloutIndex: "asc" },
      });
      expect(episodes.map((e) => e.rolloutIndex)).toEqual(
        Array.from({ length: STEPS }, (_, i) => [(i + 1) * 1000, (i + 1) * 1000 + 1]).flat(),
      );
      for (const e of episodes)
        expect((e.rewardTerms as { step: number }).step).toBe(Math.floor(e.rolloutIndex / 1000));

      // Resumed, not restarted: the checkpoints written before the kill were never rewritten, and
      // the steps after the last of them were checkpointed after the kill.
      const after = await checkpointTimes(outDir);
      for (const [name, mtime] of before) expect({ name, mtime: after.get(name) }).toEqual({ name, mtime });
      for (let s = Number(lastBefore.slice("step-".length)) + 1; s <= STEPS; s++) {
        const name = `step-${String(s).padStart(6, "0")}`;
        expect(after.get(name), name).toBeGreaterThan(killedAt);
      }
      const model = await db().model.findUniqueOrThrow({
        where: { projectId_name: { projectId: fx.project.id, name: "nano-rl-worker-crash" } },
      });
      expect(path.basename((model.config as { checkpoint: string }).checkpoint)).toBe(
        `step-${String(STEPS).padStart(6, "0")}`,
      );
    },
  );
});
