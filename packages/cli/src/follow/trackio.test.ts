// Trackio's SQLite store (fixtures/trackio-db.ts: trackio's own CREATE TABLE statements and
// bulk_log's inserts) into ingestion items, read while the "trainer" keeps its connection open.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { trace, TrackioDb } from "./fixtures/trackio-db";
import type { SpoolLine } from "./follow";
import { rolloutDefaultsSchema } from "./options";
import { canonicalProjectName, trackioConverter } from "./trackio";

const tmp = path.join(os.tmpdir(), `paravt-follow-trackio-${process.pid}`);
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

const rollouts = (lines: SpoolLine[]) => lines.filter((l) => l.type === "rollout");
const metrics = (lines: SpoolLine[]) => lines.filter((l) => l.type === "metrics");
const defaults = rolloutDefaultsSchema.parse({});

/** A rollout of TRL's async GRPO as `log_rollout_traces` logs it. */
const rollout = (question: string, answer: string, groupId: number, reward: number, advantage: number) =>
  trace(
    [
      { role: "user", content: question },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "crop_video", arguments: '{"video_path": "v.mp4", "start_time": 3, "end_time": 9}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "A cyan triangle at 5 s." },
      { role: "assistant", content: `<think>seen</think><answer>${answer}</answer>` },
    ],
    {
      reward,
      reward_std: 0.5,
      "rewards/accuracy_reward": reward,
      advantage,
      group_id: groupId,
      model_version: 3,
      prompt_tokens: 40,
      completion_tokens: 12,
    },
  );

describe("trackio follower", () => {
  it("follows a run's metrics and traces by row while trackio writes them", async () => {
    await fs.mkdir(tmp, { recursive: true });
    const file = path.join(tmp, `${canonicalProjectName("para vt/grpo")}.db`);
    expect(path.basename(file)).toBe("paravtgrpo.db");
    const w = await TrackioDb.open(file);
    const ts = "2026-05-21T10:00:00.123456+00:00";
    w.config("r1", "grpo-8b", { lr: 2e-6, _Username: "me" }, ts);
    w.log({
      runId: "r1",
      run: "grpo-8b",
      step: 0,
      logId: "aa01",
      timestamp: ts,
      metrics: { "train/loss": 0.5, "train/kl": Number.NaN },
    });
    w.log({
      runId: "r1",
      run: "grpo-8b",
      step: 3,
      logId: "aa02",
      timestamp: ts,
      metrics: {
        "train/reward": 1.25,
        rollouts: [rollout("Q1?", "x", 7, 1, 0.5), rollout("Q1?", "y", 7, 0, -0.5), rollout("Q2?", "z", 9, 1, 0)],
      },
    });
    const log: string[] = [];
    const c = await trackioConverter({ ...defaults, source: tmp, project: "para vt/grpo", log: (m) => log.push(m) });
    expect(await c.describeRun()).toEqual({
      clientId: "trackio/paravtgrpo/r1",
      name: "grpo-8b",
      config: { lr: 2e-6, _Username: "me", trackio: { project: "paravtgrpo", run: "grpo-8b", runId: "r1" } },
    });
    const first = await c.read(c.initialState());
    expect(metrics(first.lines)).toEqual([
      { type: "metrics", id: "trackio/aa01", step: 0, values: { "train/loss": 0.5 }, at: "2026-05-21T10:00:00.123Z" },
      {
        type: "metrics",
        id: "trackio/aa02",
        step: 3,
        values: { "train/reward": 1.25 },
        at: "2026-05-21T10:00:00.123Z",
      },
    ]);
    expect(log).toContain("1 metric value(s) were NaN or infinite: left out (the API takes finite numbers)");
    const rs = rollouts(first.lines);
    expect(rs.map((r) => [r.id, r.step, r.index, r.rewardTerms?.group, r.rewardTerms?.groupIndex])).toEqual([
      ["trackio/t/r1:aa02:rollouts:0", 3, 0, 0, 0],
      ["trackio/t/r1:aa02:rollouts:1", 3, 1, 0, 1],
      ["trackio/t/r1:aa02:rollouts:2", 3, 2, 1, 0],
    ]);
    expect(rs[0]).toMatchObject({
      sample: { question: "Q1?" },
      score: 1,
      prediction: "x",
      rewardTerms: { reward: 1, advantage: 0.5, group_id: 7, "rewards/accuracy_reward": 1 },
      turns: [
        {
          index: 0,
          rawText: "",
          toolCalls: [{ name: "crop_video", startS: 3, endS: 9, subAgentOutput: "A cyan triangle at 5 s." }],
        },
        { index: 1, rawText: "<think>seen</think><answer>x</answer>" },
      ],
    });

    // More of the same step later: the group numbering and the indices continue.
    w.log({
      runId: "r1",
      run: "grpo-8b",
      step: 3,
      logId: "aa03",
      timestamp: ts,
      metrics: { rollouts: [rollout("Q2?", "w", 9, 0, 0), rollout("Q3?", "v", 11, 1, 0)] },
    });
    const second = await c.read(first.state);
    expect(rollouts(second.lines).map((r) => [r.index, r.rewardTerms?.group, r.rewardTerms?.groupIndex])).toEqual([
      [3, 1, 1],
      [4, 2, 0],
    ]);
    // A log call with only traces leaves no metric values: no metrics item.
    expect(metrics(second.lines)).toEqual([]);
    expect((await c.read(second.state)).lines).toEqual([]);
    w.close();
  });

  it("asks which run when the project holds several, and waits for one that is not there yet", async () => {
    const dir = path.join(tmp, "many");
    await fs.mkdir(dir, { recursive: true });
    const w = await TrackioDb.open(path.join(dir, "proj.db"));
    const ts = "2026-05-21T10:00:00+00:00";
    w.log({ runId: "a", run: "first", step: 0, logId: "b1", timestamp: ts, metrics: { x: 1 } });
    w.log({ runId: "b", run: "second", step: 0, logId: "b2", timestamp: ts, metrics: { x: 2 } });
    const any = await trackioConverter({ ...defaults, source: path.join(dir, "proj.db"), log: () => {} });
    await expect(any.describeRun()).rejects.toThrow(/holds 2 runs .*name one with --source-run/);
    const second = await trackioConverter({ ...defaults, source: dir, sourceRun: "second", log: () => {} });
    const read = await second.read(second.initialState());
    expect(metrics(read.lines).map((m) => m.values)).toEqual([{ x: 2 }]);
    const later = await trackioConverter({ ...defaults, source: dir, sourceRun: "third", log: () => {} });
    expect(await later.describeRun()).toBeNull();
    w.close();
  });
});
