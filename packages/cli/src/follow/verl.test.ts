// verl's rollout dumps and file-logger metrics (fixtures/verl, written by fixtures/make_fixtures.py
// as `_dump_generations` and `FileLogger.log` write them) into ingestion items.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SpoolLine } from "./follow";
import { rolloutDefaultsSchema } from "./options";
import { verlConverter } from "./verl";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "verl");
const tmp = path.join(os.tmpdir(), `paravt-follow-verl-${process.pid}`);
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

async function copy(name: string): Promise<string> {
  const dir = path.join(tmp, name);
  await fs.cp(FIXTURES, dir, { recursive: true });
  return dir;
}

const rollouts = (lines: SpoolLine[]) => lines.filter((l) => l.type === "rollout");
const metrics = (lines: SpoolLine[]) => lines.filter((l) => l.type === "metrics");

describe("verl follower", () => {
  it("turns each step's dump into rollouts with their GRPO groups and the file logger's lines into metrics", async () => {
    const dir = await copy("a");
    const log: string[] = [];
    const c = verlConverter({
      ...rolloutDefaultsSchema.parse({ settleMs: 0 }),
      source: path.join(dir, "rollouts"),
      metricsFile: path.join(dir, "metrics.jsonl"),
      log: (m) => log.push(m),
    });
    const read = await c.read(c.initialState());
    const rs = rollouts(read.lines);
    expect(rs).toHaveLength(6);
    const first = rs[0]!;
    expect(first).toMatchObject({
      id: "verl/1/0",
      step: 1,
      index: 0,
      sample: { answer: "5", questionType: "oe" },
      finalText: "<answer>5</answer>",
      prediction: "5",
      correct: true,
      score: 1,
      rewardTerms: { reward: 1, acc: true, group: 0, groupIndex: 0, groupSize: 2 },
    });
    expect(first.sample.question).toBe(
      "system\nPlease reason step by step.\nuser\nWhat is 2+3? Put the answer in <answer></answer>.\nassistant\n",
    );
    // The prompt is the group: "7*6" is the second group of step 1.
    expect(rs.slice(0, 4).map((r) => [r.rewardTerms?.group, r.rewardTerms?.groupIndex])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    // A NaN score (Python's json.dumps writes a bare NaN) has no reward, and the line is still read.
    expect(rs[3]).toMatchObject({ id: "verl/1/3", score: null, correct: false, prediction: "[INVALID]" });
    expect(rs[3]!.rewardTerms).not.toHaveProperty("reward");
    expect(rs.slice(4).map((r) => [r.step, r.index, r.rewardTerms?.groupSize])).toEqual([
      [2, 0, 2],
      [2, 1, 2],
    ]);

    const ms = metrics(read.lines);
    expect(ms.map((m) => m.step)).toEqual([1, 2]);
    expect(ms[1]!.values).toEqual({
      "actor/pg_loss": -0.02,
      "critic/score/mean": 1,
      "response_length/mean": 182.5,
      "timing_s/gen": 12.25,
      "training/global_step": 2,
      "training/epoch": 0,
      // `mean@1` is not a metric name the API takes.
      "val-core/openai/gsm8k/reward/mean_1": 0.75,
    });
    expect(log).toContain("1 metric value(s) were NaN, infinite or null: left out");

    // Nothing new: nothing read again.
    const again = await c.read(read.state);
    expect(again.lines).toEqual([]);
  });

  it("waits for the newest dump to settle, and reads a rewritten metrics file from the start", async () => {
    const dir = await copy("b");
    const o = { source: path.join(dir, "rollouts"), metricsFile: path.join(dir, "metrics.jsonl"), log: () => {} };
    const slow = verlConverter({ ...rolloutDefaultsSchema.parse({ settleMs: 60_000 }), ...o });
    // Step 2 was just written: only step 1 (completed by the later file) is read.
    const first = await slow.read(slow.initialState());
    expect(new Set(rollouts(first.lines).map((r) => r.step))).toEqual(new Set([1]));
    expect(first.state.lastStep).toBe(1);

    const settled = verlConverter({ ...rolloutDefaultsSchema.parse({ settleMs: 0 }), ...o });
    const second = await settled.read(first.state);
    expect(rollouts(second.lines).map((r) => r.id)).toEqual(["verl/2/0", "verl/2/1"]);
    expect(metrics(second.lines)).toEqual([]);

    // Appended lines are new steps, not a rewrite.
    await fs.appendFile(o.metricsFile, '{"step":3,"data":{"actor/pg_loss":-0.04}}\n');
    const appended = await settled.read(second.state);
    expect(metrics(appended.lines).map((m) => [m.step, m.values])).toEqual([[3, { "actor/pg_loss": -0.04 }]]);

    // A restarted trainer opens the file logger "wb": a new first line, a shorter file.
    await fs.writeFile(o.metricsFile, '{"step":3,"data":{"actor/pg_loss":-0.03}}\n');
    const third = await settled.read(appended.state);
    expect(metrics(third.lines).map((m) => [m.step, m.values])).toEqual([[3, { "actor/pg_loss": -0.03 }]]);
  });

  it("reads lines appended to a short metrics file as new, not as a rewrite", async () => {
    const dir = path.join(tmp, "d");
    await fs.mkdir(dir, { recursive: true });
    const metricsFile = path.join(dir, "metrics.jsonl");
    await fs.writeFile(metricsFile, '{"step":1,"data":{"a":1}}\n');
    const c = verlConverter({
      ...rolloutDefaultsSchema.parse({}),
      source: path.join(dir, "rollouts"),
      metricsFile,
      log: () => {},
    });
    const first = await c.read(c.initialState());
    await fs.appendFile(metricsFile, '{"step":2,"data":{"a":2}}\n');
    const second = await c.read(first.state);
    expect(metrics(second.lines).map((m) => m.step)).toEqual([2]);
  });

  it("keeps whole groups within the rollouts a step may hold", async () => {
    const dir = await copy("c");
    const c = verlConverter({
      ...rolloutDefaultsSchema.parse({ settleMs: 0, rolloutsPerStep: 3 }),
      source: path.join(dir, "rollouts"),
      log: () => {},
    });
    const read = await c.read(c.initialState());
    // Step 1 has two groups of 2: only the first fits in 3.
    expect(
      rollouts(read.lines)
        .filter((r) => r.step === 1)
        .map((r) => r.id),
    ).toEqual(["verl/1/0", "verl/1/1"]);
  });
});
