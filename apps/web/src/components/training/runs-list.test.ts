import type { TrainingRunRow } from "@paravt/shared";
import { describe, expect, it } from "vitest";
import { parseTrainingFilters, trainingFiltersQuery, trainingRowView } from "./runs-list";

const base: TrainingRunRow = {
  id: "r1",
  kind: "sft",
  jobName: "train.sft",
  name: "sft-a",
  status: "SUCCEEDED",
  progress: 1,
  message: null,
  error: null,
  attempts: 1,
  createdAt: new Date("2026-01-01T10:00:00Z"),
  startedAt: new Date("2026-01-01T10:00:00Z"),
  finishedAt: new Date("2026-01-01T10:02:05Z"),
  createdBy: null,
  totalSteps: 200,
  lastStep: 200,
  lastLoss: 1.23456,
  lastReward: null,
  producedModel: { id: "m1", name: "sft-a" },
};

describe("training filters in the URL", () => {
  it("keeps known kinds and statuses and drops anything else", () => {
    expect(parseTrainingFilters(new URLSearchParams("kind=rl&status=RUNNING"))).toEqual({
      kind: "rl",
      status: "RUNNING",
    });
    expect(parseTrainingFilters(new URLSearchParams("kind=eval&status=running"))).toEqual({});
    expect(parseTrainingFilters(new URLSearchParams(""))).toEqual({});
  });

  it("writes them back, empty when none", () => {
    expect(trainingFiltersQuery({})).toBe("");
    expect(trainingFiltersQuery({ kind: "sft" })).toBe("?kind=sft");
    expect(trainingFiltersQuery({ kind: "rl", status: "FAILED" })).toBe("?kind=rl&status=FAILED");
  });
});

describe("a training row", () => {
  const now = new Date("2026-01-01T11:00:00Z");

  it("shows SFT's last loss, steps done of total and the duration", () => {
    expect(trainingRowView(base, now)).toEqual({
      kind: "SFT",
      headline: "loss 1.235",
      steps: "200 / 200",
      duration: "2:05",
    });
  });

  it("shows RL's last reward and runs the clock while running", () => {
    const rl = {
      ...base,
      kind: "rl" as const,
      lastLoss: null,
      lastReward: 0.5,
      lastStep: 4,
      status: "RUNNING" as const,
      finishedAt: null,
    };
    expect(trainingRowView(rl, now)).toEqual({
      kind: "RL",
      headline: "reward 0.500",
      steps: "4 / 200",
      duration: "1:00:00",
    });
  });

  it("says — before the first step and before the start", () => {
    const queued = {
      ...base,
      status: "QUEUED" as const,
      startedAt: null,
      finishedAt: null,
      lastStep: null,
      lastLoss: null,
    };
    expect(trainingRowView(queued, now)).toEqual({ kind: "SFT", headline: "—", steps: "— / 200", duration: "—" });
    expect(trainingRowView({ ...queued, totalSteps: null }, now).steps).toBe("—");
  });
});
