// TRL GRPOTrainer's completions parquet (written with hyparquet-writer in TRL's schema,
// fixtures/trl-parquet.ts) and trainer_state.json log history (fixtures/trl, as
// TrainerState.save_to_json writes it) into ingestion items.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SpoolLine } from "./follow";
import { writeTrlCompletions, type TrlRow } from "./fixtures/trl-parquet";
import { rolloutDefaultsSchema } from "./options";
import { trlConverter } from "./trl";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "trl");
const tmp = path.join(os.tmpdir(), `paravt-follow-trl-${process.pid}`);
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

const rollouts = (lines: SpoolLine[]) => lines.filter((l) => l.type === "rollout");
const metrics = (lines: SpoolLine[]) => lines.filter((l) => l.type === "metrics");

const row = (prompt: string, completion: string, acc: number, fmt: number, advantage: number): TrlRow => ({
  prompt,
  completion,
  rewards: { accuracy_reward: acc, format_reward: fmt },
  extra: { solution: "42" },
  advantage,
});

describe("TRL follower", () => {
  it("reads each step's completions with the prompt as the GRPO group, then the log history, then the end", async () => {
    const out = path.join(tmp, "a");
    await fs.mkdir(out, { recursive: true });
    await writeTrlCompletions(out, 1, [
      row("user\nWhat is 6*7?\nassistant\n", "<think>6*7</think><answer>42</answer>", 1, 1, 0.9),
      row("user\nWhat is 6*7?\nassistant\n", "<answer>41</answer>", 0, Number.NaN, -0.9),
      row("user\nName a prime.\nassistant\n", "<answer>7</answer>", 1, 0.5, 0),
    ]);
    const log: string[] = [];
    const c = trlConverter({
      ...rolloutDefaultsSchema.parse({ settleMs: 0, k: 8 }),
      source: out,
      log: (m) => log.push(m),
    });
    const first = await c.read(c.initialState());
    const rs = rollouts(first.lines);
    expect(rs.map((r) => [r.id, r.step, r.index, r.k])).toEqual([
      ["trl/1/0", 1, 0, 8],
      ["trl/1/1", 1, 1, 8],
      ["trl/1/2", 1, 2, 8],
    ]);
    expect(rs[0]).toMatchObject({
      sample: { question: "user\nWhat is 6*7?\nassistant\n", answer: "" },
      finalText: "<think>6*7</think><answer>42</answer>",
      prediction: "42",
      score: 2,
      rewardTerms: {
        accuracy_reward: 1,
        format_reward: 1,
        reward: 2,
        advantage: 0.9,
        group: 0,
        groupIndex: 0,
        groupSize: 2,
      },
    });
    // A reward function that did not apply (NaN) is no term and adds nothing.
    expect(rs[1]!.rewardTerms).toEqual({
      accuracy_reward: 0,
      reward: 0,
      advantage: -0.9,
      group: 0,
      groupIndex: 1,
      groupSize: 2,
    });
    expect(rs[2]!.rewardTerms).toMatchObject({ group: 1, groupIndex: 0, groupSize: 1 });
    expect(first.finished).toBeUndefined();

    // A checkpoint brings the log history of steps 1 and 2 (grad_norm NaN at step 2).
    await fs.mkdir(path.join(out, "checkpoint-2"));
    await fs.copyFile(
      path.join(FIXTURES, "checkpoint-2", "trainer_state.pyjson"),
      path.join(out, "checkpoint-2", "trainer_state.json"),
    );
    const second = await c.read(first.state);
    const ms = metrics(second.lines);
    expect(ms.map((m) => m.id)).toEqual(["trl/log/1/0", "trl/log/2/1"]);
    expect(ms[1]!.values).toMatchObject({ loss: 0.02, reward: 1, epoch: 0.6667, "rewards/accuracy_reward/mean": 0.5 });
    expect(ms[1]!.values).not.toHaveProperty("grad_norm");
    expect(ms[1]!.values).not.toHaveProperty("step");
    expect(rollouts(second.lines)).toEqual([]);

    // save_state() at the end: the history's last entry has train_runtime; the run is over.
    await fs.copyFile(path.join(FIXTURES, "final", "trainer_state.pyjson"), path.join(out, "trainer_state.json"));
    const third = await c.read(second.state);
    expect(metrics(third.lines).map((m) => m.id)).toEqual(["trl/log/3/2", "trl/log/3/3"]);
    expect(metrics(third.lines)[1]!.values).toMatchObject({ train_runtime: 75.5, train_loss: 0.02 });
    expect(third.finished).toEqual({ status: "SUCCEEDED", message: "TRL training finished at step 3" });
  });

  it("does not end before the last completions file is read, nor read one still being written", async () => {
    const out = path.join(tmp, "b");
    await fs.mkdir(out, { recursive: true });
    await fs.copyFile(path.join(FIXTURES, "final", "trainer_state.pyjson"), path.join(out, "trainer_state.json"));
    await writeTrlCompletions(out, 3, [row("p", "c", 1, 1, 0)]);
    const slow = trlConverter({ ...rolloutDefaultsSchema.parse({ settleMs: 60_000 }), source: out, log: () => {} });
    const first = await slow.read(slow.initialState());
    expect(rollouts(first.lines)).toEqual([]);
    expect(first.finished).toBeUndefined();
    // Half a parquet file (no footer yet) is left for later, even when settled.
    const file = path.join(out, "completions", "completions_00003.parquet");
    const whole = await fs.readFile(file);
    await fs.writeFile(file, whole.subarray(0, whole.length - 20));
    const quick = trlConverter({ ...rolloutDefaultsSchema.parse({ settleMs: 0 }), source: out, log: () => {} });
    const second = await quick.read(first.state);
    expect(rollouts(second.lines)).toEqual([]);
    expect(second.finished).toBeUndefined();
    await fs.writeFile(file, whole);
    const third = await quick.read(second.state);
    expect(rollouts(third.lines).map((r) => r.id)).toEqual(["trl/3/0"]);
    expect(third.finished?.status).toBe("SUCCEEDED");
  });
});
