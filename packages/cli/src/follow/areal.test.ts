// AReaL as ParaVT runs it: the StatsLogger tables of main.log and the rollout dumps
// (fixtures/areal, written by fixtures/make_fixtures.py with AReaL's own StatsLogger and logging,
// and `_dump_trajectory`'s records of ParaVT episodes in Qwen3-VL's chat template).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { arealConverter, tableValues } from "./areal";
import type { SpoolLine } from "./follow";
import { rolloutDefaultsSchema } from "./options";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "areal");
const tmp = path.join(os.tmpdir(), `paravt-follow-areal-${process.pid}`);
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

const rollouts = (lines: SpoolLine[]) => lines.filter((l) => l.type === "rollout");
const metrics = (lines: SpoolLine[]) => lines.filter((l) => l.type === "metrics");

describe("AReaL follower", () => {
  it("reads each step's stats table from main.log, full rows and the half-empty last one", async () => {
    const dir = path.join(tmp, "a");
    await fs.cp(FIXTURES, dir, { recursive: true });
    const log: string[] = [];
    const c = arealConverter({ ...rolloutDefaultsSchema.parse({ settleMs: 0 }), source: dir, log: (m) => log.push(m) });
    const read = await c.read(c.initialState());
    const ms = metrics(read.lines);
    expect(ms.map((m) => m.step)).toEqual([1, 2, 3]);
    expect(ms[0]!.values).toEqual({
      "ppo_actor/task_reward/avg": 0.25,
      "ppo_actor/update/actor_loss/avg": -0.0123,
      "ppo_actor/update/grad_norm": 1.5,
      "rollout/accepted": 56,
      "tool_stats/tool_call_count/avg": 1.5,
      "reward_breakdown/format_reward/avg": 0.875,
      // printed with .4e: 5 significant digits of 248.73
      "timeperf/train_step": 248.73,
    });
    // nan is printed as "nan": left out.
    expect(ms[1]!.values).not.toHaveProperty("ppo_actor/update/grad_norm");
    expect(log).toContain("1 logged value(s) were nan or inf: left out");
    // "Training completes!" and every dump read: the run is over.
    expect(read.finished).toEqual({ status: "SUCCEEDED", message: "AReaL: training completes" });
  });

  it("turns each task's dump into one GRPO group of full trajectories, at step version + 1", async () => {
    const dir = path.join(tmp, "b");
    await fs.cp(FIXTURES, dir, { recursive: true });
    const c = arealConverter({ ...rolloutDefaultsSchema.parse({ settleMs: 0 }), source: dir, log: () => {} });
    const rs = rollouts((await c.read(c.initialState())).lines);
    expect(
      rs.map((r) => [r.id, r.step, r.index, r.rewardTerms?.group, r.rewardTerms?.groupIndex, r.rewardTerms?.groupSize]),
    ).toEqual([
      ["areal/0/7/0", 1, 0, 0, 0, 2],
      ["areal/0/7/1", 1, 1, 0, 1, 2],
      ["areal/0/9/0", 1, 2, 1, 0, 1],
      ["areal/1/12/0", 2, 0, 0, 0, 1],
    ]);
    const crop = rs[0]!;
    expect(crop).toMatchObject({
      k: 4,
      overviewTimestamps: [0, 4, 8, 12],
      sample: { question: "Which shape appears right after the red square?", answer: "" },
      score: 2.5,
      prediction: "green diamond",
      rewardTerms: { reward: 2.5, headVersion: 0, tailVersion: 0 },
    });
    expect(crop.turns).toHaveLength(2);
    expect(crop.turns![0]!.rawText).toMatch(/^<think>\nThe overview is too coarse\.<\/think>\n<tool_call>/);
    expect(crop.turns![0]!.toolCalls!.map((t) => [t.name, t.startS, t.endS, t.subAgentOutput])).toEqual([
      ["crop_video", 10, 20, "A red square leaves at 18 s."],
      ["crop_video", 20, 30, "A green diamond appears at 21 s."],
    ]);
    expect(crop.turns![1]!.rawText).toBe("<think>\nThe crops settle it.</think>\n<answer>green diamond</answer>");
    expect(crop.finalText).toBe(crop.turns![1]!.rawText);
    // Same question, same sample.
    expect(rs[1]!.sample.key).toBe(crop.sample.key);
    expect(rs[1]!.turns).toHaveLength(1);
    expect(rs[2]!.sample.key).not.toBe(crop.sample.key);
  });

  it("reads a table written in two parts once, and a dump file only once it is quiet", async () => {
    const dir = path.join(tmp, "c");
    await fs.mkdir(dir, { recursive: true });
    const full = await fs.readFile(path.join(FIXTURES, "main.log"), "utf8");
    const cut = full.indexOf("├") + 10; // inside the first table
    await fs.writeFile(path.join(dir, "main.log"), full.slice(0, cut));
    await fs.cp(path.join(FIXTURES, "rollout"), path.join(dir, "rollout"), { recursive: true });
    const slow = arealConverter({ ...rolloutDefaultsSchema.parse({ settleMs: 60_000 }), source: dir, log: () => {} });
    const first = await slow.read(slow.initialState());
    expect(first.lines).toEqual([]);
    await fs.appendFile(path.join(dir, "main.log"), full.slice(cut));
    const quick = arealConverter({ ...rolloutDefaultsSchema.parse({ settleMs: 0 }), source: dir, log: () => {} });
    const second = await quick.read(first.state);
    expect(metrics(second.lines).map((m) => m.step)).toEqual([1, 2, 3]);
    expect(rollouts(second.lines)).toHaveLength(4);
    expect((await quick.read(second.state)).lines).toEqual([]);
  });

  it("parses tabulate's fancy_grid cells", () => {
    expect(tableValues(["│ a/b │  1.5000e+00 │ c │ -inf │", "│ d   │ -2.0000e-03 │   │      │"])).toEqual({
      values: { "a/b": 1.5, d: -0.002 },
      nonFinite: 1,
    });
  });
});
