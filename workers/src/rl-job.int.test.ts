// train.rl through the job system (issue 9 item 3/4): a real needle suite, a tiny nano checkpoint
// registered as a model, real rollouts and updates in the child process, metrics per step, sample
// episodes with reward terms, checkpoints and the final model registered.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { datasets, db, metrics, queue, runs, serverEnv, training } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { projectWithOwnerAccess, tinyCheckpoint } from "./test-fixtures";
import { waitForRun, waitUntil } from "./test-support";

const tmp = path.join(os.tmpdir(), `paravt-rl-job-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-rl-${process.pid}`;
process.env.MEDIA_ROOTS = tmp;

let workers: RunningWorkers;

beforeAll(async () => {
  await fs.mkdir(tmp, { recursive: true });
  workers = startWorkers({ queues: ["cpu"], concurrency: 2, quiet: true });
});

afterAll(async () => {
  await workers.close();
  await queue("cpu").obliterate({ force: true });
  await fs.rm(tmp, { recursive: true, force: true });
});

/** A fresh project (owner access) with an imported one-video suite and a tiny nano model. */
async function projectWithSuiteAndModel(seed: number) {
  const { fx, access } = await projectWithOwnerAccess();
  const { dataset, runId } = await datasets.generateSuite(access, {
    name: "rl data",
    seed,
    count: 1,
    minMinutes: 1,
    maxMinutes: 1,
  });
  expect((await waitForRun(runId, 120_000)).status).toBe("SUCCEEDED");
  const start = await db().model.create({
    data: {
      projectId: fx.project.id,
      name: "tiny-start",
      kind: "NANO_CHECKPOINT",
      config: { checkpoint: await tinyCheckpoint(path.join(tmp, `tiny-${seed}`)) },
    },
  });
  return { fx, access, dataset, start };
}

/** The metric names the dashboard groups RL runs by (issue 9 item 4). */
const STEP_METRICS = [
  "reward_mean",
  "reward_std",
  "reward_acc",
  "reward_format",
  "reward_tool",
  "format_compliance",
  "tool_call_rate",
  "parallel_calls_per_turn",
  "turns_used",
  "truncated_turn_rate",
  "kl",
  "entropy",
  "clip_fraction",
  "grad_norm",
  "rollout_time_ms",
  "update_time_ms",
  "step_time_ms",
  "tokens_per_s",
];

describe("train.rl job", () => {
  it(
    "runs PARA-GRPO from a registered nano checkpoint: metrics per step, episodes, checkpoints, a model",
    { timeout: 240_000 },
    async () => {
      const { fx, access, dataset, start } = await projectWithSuiteAndModel(3);

      const run = await training.launchRl(access, {
        datasetId: dataset.id,
        modelId: start.id,
        name: "nano-rl-test",
        preset: "para-grpo",
        steps: 2,
        checkpointEvery: 1,
        seed: 11,
        overrides: {
          groupSize: 2,
          promptsPerStep: 1,
          maxNewTokens: 16,
          maxTurns: 1,
          lr: 1e-3,
          validateEvery: 2,
          validationSize: 1,
        },
      });
      expect(run).toMatchObject({ kind: "rl", jobName: "train.rl", status: "QUEUED" });
      const done = await waitForRun(run.id, 180_000);
      expect(done.error).toBeNull();
      expect(done.status).toBe("SUCCEEDED");
      expect(done.message).toMatch(/^2 steps · last reward -?\d+\.\d{3} · model "nano-rl-test" registered$/);

      const series = await metrics.readSeries(access, { runId: run.id, names: STEP_METRICS, maxPoints: 100 });
      for (const s of series) {
        expect({ name: s.name, steps: s.points.map((p) => p.step) }).toEqual({ name: s.name, steps: [1, 2] });
        expect(s.points.every((p) => Number.isFinite(p.value))).toBe(true);
      }
      const byName = Object.fromEntries(series.map((s) => [s.name, s.points.map((p) => p.value)]));
      expect(byName.rollout_time_ms!.every((v) => v > 0)).toBe(true);
      expect(byName.tokens_per_s!.every((v) => v > 0)).toBe(true);
      // Validation after the last step (validateEvery 2), at SPEC §3's 0.6, prefixed val_.
      const val = await metrics.readSeries(access, {
        runId: run.id,
        names: ["val_reward_mean", "val_format_compliance", "val_tool_call_rate"],
        maxPoints: 100,
      });
      for (const v of val) expect(v.points.map((p) => p.step)).toEqual([2]);
      // Accuracy by K: every step has the K of its one prompt (SPEC §1.8 gating).
      const names = await db().metric.findMany({
        where: { runId: run.id, name: { startsWith: "accuracy_k" } },
        select: { name: true, step: true },
      });
      expect(new Set(names.map((n) => n.step))).toEqual(new Set([1, 2]));
      expect(names.every((n) => /^accuracy_k(4|8|16|32|64)$/.test(n.name))).toBe(true);

      // The step's rollouts, with their turns and SPEC §2 reward terms.
      const episodes = await db().episode.findMany({
        where: { runId: run.id },
        include: { turns: true },
        orderBy: { rolloutIndex: "asc" },
      });
      expect(episodes.map((e) => e.rolloutIndex)).toEqual([1000, 1001, 2000, 2001]);
      for (const e of episodes) {
        expect(e.turns.length).toBeGreaterThan(0);
        const terms = e.rewardTerms as { reward: number; accReward: number; formatReward: number; toolReward: number };
        expect(Number.isFinite(terms.reward)).toBe(true);
        expect(terms.reward).toBeCloseTo(terms.accReward + terms.formatReward + terms.toolReward, 6);
      }
      // Every rollout of the step is kept (2 of 2 under the default budget of 64), with its place in
      // the GRPO group and the SPEC §3 advantage it was trained with: one group per step, so the
      // group- then batch-normalized advantages sum to 0 and order like the rewards.
      for (const step of [1, 2]) {
        const group = episodes
          .filter((e) => Math.floor(e.rolloutIndex / 1000) === step)
          .map(
            (e) =>
              e.rewardTerms as {
                reward: number;
                group: number;
                groupIndex: number;
                groupSize: number;
                advantage: number;
              },
          );
        expect(group.map(({ group, groupIndex, groupSize }) => ({ group, groupIndex, groupSize }))).toEqual([
          { group: 0, groupIndex: 0, groupSize: 2 },
          { group: 0, groupIndex: 1, groupSize: 2 },
        ]);
        const [a, b] = group as [(typeof group)[number], (typeof group)[number]];
        expect(a.advantage + b.advantage).toBeCloseTo(0, 5);
        expect(Math.sign(a.advantage - b.advantage)).toBe(Math.sign(a.reward - b.reward));
      }

      const model = await db().model.findUniqueOrThrow({
        where: { projectId_name: { projectId: fx.project.id, name: "nano-rl-test" } },
      });
      expect(model.kind).toBe("NANO_CHECKPOINT");
      const checkpoint = (model.config as { checkpoint: string }).checkpoint;
      expect(path.basename(checkpoint)).toBe("step-000002");
      await expect(fs.stat(path.join(checkpoint, "model.safetensors"))).resolves.toBeTruthy();
      await expect(fs.stat(path.join(path.dirname(checkpoint), "step-000001"))).resolves.toBeTruthy();

      // A cancelled run stops: the child is killed and no model is registered.
      const long = await training.launchRl(access, {
        datasetId: dataset.id,
        modelId: start.id,
        name: "nano-rl-cancel",
        steps: 1000,
        checkpointEvery: 0,
        overrides: { groupSize: 2, promptsPerStep: 1, maxNewTokens: 16, maxTurns: 1 },
      });
      await waitUntil("the RL run to pass step 1", async () => {
        const r = await db().run.findUniqueOrThrow({ where: { id: long.id } });
        return /^step \d+\/1000/.test(r.message ?? "");
      });
      await runs.cancelRun(access, long.id);
      // The worker notices at its next step report, kills the child and lets the job go.
      await waitUntil(
        "the RL job to leave the queue's active set",
        async () => (await queue("cpu").getActiveCount()) === 0,
      );
      expect((await db().run.findUniqueOrThrow({ where: { id: long.id } })).status).toBe("CANCELLED");
      expect(await db().model.count({ where: { projectId: fx.project.id, name: "nano-rl-cancel" } })).toBe(0);
    },
  );
  it(
    "survives a crash of the training process: the retry resumes from the last checkpoint, no step twice",
    { timeout: 240_000 },
    async () => {
      const { access, dataset, start } = await projectWithSuiteAndModel(4);
      const run = await training.launchRl(access, {
        datasetId: dataset.id,
        modelId: start.id,
        name: "nano-rl-crash",
        steps: 6,
        checkpointEvery: 2,
        overrides: { groupSize: 2, promptsPerStep: 1, maxNewTokens: 16, maxTurns: 1 },
      });
      // Crash the child the way a native bug would, once it has passed a checkpoint.
      const pid = await waitUntil("RL training past step 3", async () => {
        const r = await db().run.findUniqueOrThrow({ where: { id: run.id } });
        const m = /step (\d+)\/6 .* pid (\d+)/.exec(r.message ?? "");
        return m && Number(m[1]) >= 3 ? Number(m[2]) : null;
      });
      const crashedAt = Date.now();
      process.kill(pid, "SIGSEGV");
      const done = await waitForRun(run.id, 180_000);
      expect(done.error).toBeNull();
      expect(done.status).toBe("SUCCEEDED");
      expect(done.attempts).toBe(2);
      const [reward] = await metrics.readSeries(access, { runId: run.id, names: ["reward_mean"], maxPoints: 100 });
      expect(reward!.points.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
      // Resumed, not restarted: the step-2 checkpoint was written before the crash and never again.
      const outDir = path.join(serverEnv().DATA_DIR, "checkpoints", run.id);
      expect((await fs.stat(path.join(outDir, "step-000002"))).mtimeMs).toBeLessThan(crashedAt);
      expect((await fs.stat(path.join(outDir, "step-000006"))).mtimeMs).toBeGreaterThan(crashedAt);
    },
  );
});
