import { describe, expect, it } from "vitest";
import {
  attemptRows,
  diffRunConfigs,
  evalFormFromRun,
  relaunchFrom,
  relaunchHref,
  resolveRunConfig,
  resolvedRows,
  rlFormFromRun,
  runDurationS,
  sftFormFromRun,
  trainingSummary,
} from "./run-config";

const rl = (overrides: Record<string, number> = {}) => ({
  datasetId: "ds1",
  name: "grpo-a",
  preset: "para-grpo",
  steps: 100,
  checkpointEvery: 10,
  seed: 1,
  overrides: { maxNewTokens: 384, ...overrides },
  initialCheckpoint: null,
  worker: { host: "box", pid: 42 },
  workerAttempts: [{ attempt: 1, host: "box", pid: 42, startedAt: "2026-11-28T10:00:00.000Z" }],
});

describe("resolveRunConfig", () => {
  it("fills every RL knob with the value the run trains with, and drops the worker and attempts", () => {
    const r = resolveRunConfig("rl", rl()) as {
      overrides: Record<string, number>;
      worker?: unknown;
      workerAttempts?: unknown;
    };
    expect(r.overrides).toMatchObject({
      groupSize: 8,
      lr: 2e-6,
      maxNewTokens: 384,
      formatWeight: 1,
      anchorWeight: 0.5,
    });
    expect(r.worker).toBeUndefined();
    expect(r.workerAttempts).toBeUndefined();
  });

  it("fills an SFT run's schema defaults", () => {
    expect(resolveRunConfig("sft", { datasetId: "d", name: "n" })).toMatchObject({
      preset: "tiny",
      steps: 200,
      seed: 1,
    });
  });

  it("lists an eval's knobs with defaults and its sample count, without the attempt records", () => {
    const rows = resolvedRows("eval", {
      modelId: "m",
      sampleCount: 2,
      knobs: { temperature: 0.5 },
      workerAttempts: [{ host: "h", pid: 1, startedAt: "2026-11-28T10:00:00.000Z" }],
    });
    expect(rows.find((r) => r.key === "knobs.temperature")?.value).toBe("0.5");
    expect(rows.some((r) => r.key === "knobs.maxTurns")).toBe(true);
    expect(rows.find((r) => r.key === "sampleCount")?.value).toBe("2");
    expect(rows.some((r) => r.key.startsWith("workerAttempts"))).toBe(false);
  });

  it("shows a config its schema does not accept as stored", () => {
    expect(resolveRunConfig("rl", { foo: 1 })).toEqual({ foo: 1 });
  });
});

describe("diffRunConfigs", () => {
  it("a knob left at its default equals the same value typed (only real differences)", () => {
    const d = diffRunConfigs([
      { kind: "rl", config: rl() },
      { kind: "rl", config: { ...rl({ groupSize: 8, klCoef: 0.05 }), worker: { host: "other", pid: 1 } } },
    ]);
    expect(d.rows).toEqual([{ key: "overrides.klCoef", values: ["0.01", "0.05"] }]);
    expect(d.same).toBeGreaterThan(20);
  });

  it("a preset's recipe weights differ between presets", () => {
    const d = diffRunConfigs([
      { kind: "rl", config: rl() },
      { kind: "rl", config: { ...rl(), preset: "vanilla-grpo" } },
    ]);
    expect(d.rows.map((r) => r.key)).toEqual(["overrides.anchorWeight", "preset"]);
  });
});

describe("trainingSummary", () => {
  it("final and best (with its step) per series, lower loss and higher reward being better", () => {
    const s = trainingSummary([
      {
        name: "loss",
        points: [
          { step: 1, value: 3 },
          { step: 2, value: 1 },
          { step: 3, value: 2 },
        ],
      },
      {
        name: "reward_mean",
        points: [
          { step: 3, value: 0.2 },
          { step: 1, value: 0.1 },
          { step: 2, value: 0.9 },
        ],
      },
      {
        name: "val_format_compliance",
        points: [
          { step: 5, value: 1 },
          { step: 10, value: 1 },
        ],
      },
      { name: "lr", points: [{ step: 1, value: 1 }] },
    ]);
    expect(s).toEqual([
      { name: "loss", goal: "min", last: { step: 3, value: 2 }, best: { step: 2, value: 1 } },
      { name: "reward_mean", goal: "max", last: { step: 3, value: 0.2 }, best: { step: 2, value: 0.9 } },
      { name: "val_format_compliance", goal: "max", last: { step: 10, value: 1 }, best: { step: 5, value: 1 } },
    ]);
  });

  it("duration from start to finish", () => {
    expect(runDurationS(new Date(0), new Date(90_500))).toBe(91);
    expect(runDurationS(null, null)).toBeNull();
  });
});

describe("relaunch", () => {
  it("links the run's launch form with from=<runId>", () => {
    expect(relaunchHref("p", { id: "r1", kind: "rl", config: rl() })).toBe("/projects/p/datasets/ds1?from=r1");
    expect(relaunchHref("p", { id: "r2", kind: "eval", config: {} })).toBe("/projects/p/evals?from=r2");
    expect(relaunchHref("p", { id: "r3", kind: "job", config: {} })).toBeNull();
    expect(relaunchFrom("?from=r1&x=1")).toBe("r1");
    expect(relaunchFrom("")).toBeNull();
  });

  it("the RL form starts from the run's settings, every knob as it ran", () => {
    const f = rlFormFromRun({ ...rl({ klCoef: 0.05 }), modelId: "m1", seed: 7 })!;
    expect(f).toMatchObject({ name: "grpo-a (relaunch)", datasetId: "ds1", modelId: "m1", seed: "7", steps: "100" });
    expect(f.overrides).toMatchObject({ klCoef: "0.05", maxNewTokens: "384", groupSize: "8" });
  });

  it("the SFT and eval forms start from the run's settings", () => {
    expect(sftFormFromRun({ datasetId: "d", name: "n", steps: 50, lr: 0.01 })).toEqual({
      name: "n (relaunch)",
      preset: "tiny",
      steps: 50,
      batchSize: 4,
      lr: 0.01,
    });
    const e = evalFormFromRun({
      group: { id: "g", name: "my eval" },
      modelId: "m",
      datasetId: "d",
      mode: "agentic_general",
      k: 16,
      knobs: { temperature: 0.3 },
      sampleCount: 1,
      shardSize: 8,
    })!;
    expect(e).toMatchObject({
      name: "my eval (relaunch)",
      modelIds: ["m"],
      datasetIds: ["d"],
      ks: [16],
      shardSize: "8",
    });
    expect(e.knobs.temperature).toBe("0.3");
    expect(evalFormFromRun({})).toBeNull();
  });
});

describe("attemptRows", () => {
  const base = { host: "gpu-box", pid: 7, startedAt: "2026-11-28T10:00:00.000Z" };
  it("lists each attempt's worker, core, queue, start, time taken and outcome", () => {
    const rows = attemptRows(
      [
        {
          ...base,
          attempt: 1,
          backend: "cuda",
          device: "NVIDIA H200",
          queue: "gpu",
          endedAt: "2026-11-28T10:02:05.000Z",
          outcome: "retrying",
          reason: "CUDA error: out of memory",
        },
        { ...base, shards: true, queue: "gpu" },
        { ...base, attempt: 2, queue: "cpu" },
      ],
      false,
    );
    expect(rows.map(({ key: _key, ...r }) => r)).toEqual([
      {
        attempt: "1",
        worker: "gpu-box · pid 7",
        core: "cuda · NVIDIA H200",
        queue: "gpu",
        started: "2026-11-28 10:00:00 UTC",
        took: "2m 5s",
        outcome: "retrying",
        reason: "CUDA error: out of memory",
      },
      {
        attempt: "shards",
        worker: "gpu-box · pid 7",
        core: "not announced",
        queue: "gpu",
        started: "2026-11-28 10:00:00 UTC",
        took: "",
        outcome: "ran shards",
        reason: null,
      },
      {
        attempt: "2",
        worker: "gpu-box · pid 7",
        core: "not announced",
        queue: "cpu",
        started: "2026-11-28 10:00:00 UTC",
        took: "",
        outcome: "running",
        reason: null,
      },
    ]);
  });

  it("does not call an open attempt of a finished run running", () => {
    expect(attemptRows([{ ...base, attempt: 1 }], true)[0]!.outcome).toBe("no end recorded");
  });
});
