// `paravt follow` against the web app's real REST route (/api/v1) over HTTP, on the test database:
// a verl run and a trackio run followed while they grow, the follower restarted (and its upload
// position lost), every metric point and rollout stored once in Postgres, the GRPO groups read
// by the group inspector; a TRL run followed to its end marks the run SUCCEEDED.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createProjectWithRoles } from "@paravt/db/factories";
import { closeEventBus, db, projectAccess, tokens, trainingRollouts } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startRestRouteServer, type RestRouteServer } from "./rest-route-server";
import { trace, TrackioDb } from "../../../../packages/cli/src/follow/fixtures/trackio-db";
import { writeTrlCompletions } from "../../../../packages/cli/src/follow/fixtures/trl-parquet";

const FIXTURES = path.resolve(import.meta.dirname, "../../../../packages/cli/src/follow/fixtures");
let server: RestRouteServer;
let base = "";
const tmp = path.join(os.tmpdir(), `paravt-cli-follow-${process.pid}`);
const cli = (argv: string[]) => runCli(argv);

beforeAll(async () => {
  await fs.mkdir(tmp, { recursive: true });
  process.env.PARAVT_CONFIG = path.join(tmp, "config.json");
  server = await startRestRouteServer();
  base = server.base;
});

afterAll(async () => {
  await server.close();
  await closeEventBus();
  await fs.rm(tmp, { recursive: true, force: true });
  delete process.env.PARAVT_CONFIG;
});

describe("paravt follow over the REST API", () => {
  let projectId: string;
  let access: Awaited<ReturnType<typeof projectAccess>>;
  const stateDir = path.join(tmp, "state");

  beforeAll(async () => {
    const fx = await createProjectWithRoles(db());
    projectId = fx.project.id;
    access = await projectAccess({ kind: "user", userId: fx.owner.id }, projectId);
    const { secret } = await tokens.createToken(access, { name: "follower", scopes: ["WRITE"], expiresInDays: 1 });
    expect((await cli(["auth", "login", "--url", base, "--token", secret])).code).toBe(0);
  });

  const follow = (...args: string[]) => cli(["follow", ...args, "--once", "--settle-ms", "0", "--state-dir", stateDir]);

  it("follows a growing verl run once, across a restart that lost its upload position", async () => {
    const src = path.join(tmp, "verl");
    await fs.mkdir(path.join(src, "rollouts"), { recursive: true });
    await fs.copyFile(path.join(FIXTURES, "verl", "rollouts", "1.jsonl"), path.join(src, "rollouts", "1.jsonl"));
    const metricsLines = (await fs.readFile(path.join(FIXTURES, "verl", "metrics.jsonl"), "utf8")).split("\n");
    await fs.writeFile(path.join(src, "metrics.jsonl"), `${metricsLines[0]}\n`);
    const args = [
      "verl",
      path.join(src, "rollouts"),
      "--metrics",
      path.join(src, "metrics.jsonl"),
      "--name",
      "verl GSM8K",
    ];

    const first = await follow(...args);
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.out) as { runId: string; stored: number; finished: boolean };
    expect(summary).toMatchObject({ framework: "verl", stored: 5, finished: false });
    const runId = summary.runId;

    // The trainer goes on: step 2's dump and metrics.
    await fs.copyFile(path.join(FIXTURES, "verl", "rollouts", "2.jsonl"), path.join(src, "rollouts", "2.jsonl"));
    await fs.appendFile(path.join(src, "metrics.jsonl"), `${metricsLines[1]}\n`);
    const second = JSON.parse((await follow(...args)).out) as { runId: string; stored: number };
    expect(second).toMatchObject({ runId, stored: 8 });

    // A restart that lost the upload position: the whole spool again, all duplicates.
    const spoolDir = JSON.parse(first.out).spool as string;
    await fs.rm(path.join(spoolDir, "spool.jsonl.paravt-state.json"));
    const third = JSON.parse((await follow(...args)).out) as { stored: number; duplicate: number };
    expect(third).toMatchObject({ stored: 0, duplicate: 8 });

    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ name: "verl GSM8K", kind: "rl", jobName: "external", status: "RUNNING" });
    // Each point once: 7 finite values at step 1 and 7 at step 2 (grad_norm was null).
    expect(await db().metric.count({ where: { runId } })).toBe(14);
    expect(await db().metric.count({ where: { runId, name: "val-core/openai/gsm8k/reward/mean_1" } })).toBe(1);
    const episodes = await db().episode.findMany({ where: { runId }, orderBy: { rolloutIndex: "asc" } });
    expect(episodes.map((e) => e.rolloutIndex)).toEqual([1000, 1001, 1002, 1003, 2000, 2001]);
    expect(new Set(episodes.map((e) => e.externalId)).size).toBe(6);

    // The GRPO group inspector reads the groups the follower recorded.
    const groups = await trainingRollouts.stepGroup(access, { projectId, runId, step: 1, group: 1 });
    expect(groups.recorded).toBe(true);
    expect(groups.groups.map((g) => [g.group, g.stored, g.groupSize])).toEqual([
      [0, 2, 2],
      [1, 2, 2],
    ]);
    expect(groups.rollouts.map((r) => r.groupIndex)).toEqual([0, 1]);
  });

  it("follows a trackio run's metrics and traces while the trainer writes, each once", async () => {
    const dir = path.join(tmp, "trackio");
    await fs.mkdir(dir, { recursive: true });
    const w = await TrackioDb.open(path.join(dir, "grpo.db"));
    const ts = "2026-05-21T10:00:00.000001+00:00";
    const rollout = (q: string, a: string, g: number, reward: number, advantage: number) =>
      trace(
        [
          { role: "user", content: q },
          { role: "assistant", content: `<answer>${a}</answer>` },
        ],
        { reward, advantage, group_id: g, model_version: 1 },
      );
    w.config("tr1", "async-grpo", { learning_rate: 1e-6 }, ts);
    w.log({
      runId: "tr1",
      run: "async-grpo",
      step: 1,
      logId: "l1",
      timestamp: ts,
      metrics: { "train/loss": 0.4, "train/reward": 0.5 },
    });
    w.log({
      runId: "tr1",
      run: "async-grpo",
      step: 1,
      logId: "l2",
      timestamp: ts,
      metrics: { rollouts: [rollout("Q1?", "a", 4, 1, 0.7), rollout("Q1?", "b", 4, 0, -0.7)] },
    });
    const first = JSON.parse((await follow("trackio", dir, "--project", "grpo")).out) as {
      runId: string;
      stored: number;
    };
    expect(first.stored).toBe(3);
    w.log({ runId: "tr1", run: "async-grpo", step: 2, logId: "l3", timestamp: ts, metrics: { "train/loss": 0.3 } });
    w.log({
      runId: "tr1",
      run: "async-grpo",
      step: 2,
      logId: "l4",
      timestamp: ts,
      metrics: { rollouts: [rollout("Q2?", "c", 5, 1, 0)] },
    });
    const second = JSON.parse((await follow("trackio", dir, "--project", "grpo")).out) as {
      runId: string;
      stored: number;
    };
    expect(second).toMatchObject({ runId: first.runId, stored: 5 });
    w.close();

    const run = await db().run.findUniqueOrThrow({ where: { id: first.runId } });
    expect(run.name).toBe("async-grpo");
    expect(run.config).toMatchObject({ learning_rate: 1e-6, trackio: { project: "grpo", runId: "tr1" } });
    expect(await db().metric.count({ where: { runId: first.runId } })).toBe(3);
    const episodes = await db().episode.findMany({ where: { runId: first.runId }, orderBy: { rolloutIndex: "asc" } });
    expect(episodes.map((e) => [e.rolloutIndex, (e.rewardTerms as { advantage?: number }).advantage])).toEqual([
      [1000, 0.7],
      [1001, -0.7],
      [2000, 0],
    ]);
  });

  it("follows a TRL run to its end and marks the run succeeded", async () => {
    const out = path.join(tmp, "trl-out");
    await writeTrlCompletions(out, 3, [
      {
        prompt: "user\nQ?\nassistant\n",
        completion: "<answer>1</answer>",
        rewards: { accuracy_reward: 1 },
        advantage: 0.5,
      },
      {
        prompt: "user\nQ?\nassistant\n",
        completion: "<answer>2</answer>",
        rewards: { accuracy_reward: 0 },
        advantage: -0.5,
      },
    ]);
    await fs.copyFile(
      path.join(FIXTURES, "trl", "final", "trainer_state.pyjson"),
      path.join(out, "trainer_state.json"),
    );
    const r = await cli(["follow", "trl", out, "--settle-ms", "0", "--poll-ms", "20", "--state-dir", stateDir]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out) as { runId: string; finished: boolean; stored: number };
    expect(summary).toMatchObject({ finished: true, stored: 6 });
    const run = await db().run.findUniqueOrThrow({ where: { id: summary.runId } });
    expect(run).toMatchObject({ status: "SUCCEEDED", message: "TRL training finished at step 3" });
    expect(await db().episode.count({ where: { runId: summary.runId } })).toBe(2);
  });

  it("says what is wrong with its arguments", async () => {
    const bad = await cli(["follow", "wandb", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/the framework is trackio, verl, trl or areal/);
    const both = await cli(["follow", "verl", "x", "--run", "r", "--name", "n"]);
    expect(both.err).toMatch(/--run and --name exclude each other/);
    const missing = await cli(["follow", "verl", path.join(tmp, "nope"), "--once"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/has nothing to follow yet/);
  });
});
