import { describe, expect, it } from "vitest";
import type { RunEvent } from "../contracts/runs";
import {
  inputNamesRun,
  LIVE_QUERY_FAMILIES,
  liveRunPlan,
  metricNamesLack,
  patchRunRow,
  subscribedPlan,
  type LiveRefresh,
} from "./run-event-plan";

const event = (over: Partial<RunEvent>): RunEvent => ({
  projectId: "p",
  runId: "r1",
  kind: "sft",
  status: "RUNNING",
  progress: 0.5,
  message: "step 5/10",
  error: null,
  at: "2026-01-01T00:00:00.000Z",
  changed: {},
  ...over,
});

/** The refreshed families as "family" or "family@run", sorted (order carries no meaning). */
const refreshed = (e: RunEvent) =>
  liveRunPlan(e)
    .refresh.map((r: LiveRefresh) => (r.runId ? `${r.family}@${r.runId}` : r.family))
    .sort();

describe("liveRunPlan: which query families an event touches", () => {
  it("a training step (progress and new points) refetches nothing: rows patched, charts append", () => {
    const plan = liveRunPlan(event({ changed: { metrics: { names: ["loss"], fromStep: 5, toStep: 5 } } }));
    expect(plan.refresh).toEqual([]);
    expect(plan.patchRows).toBe(true);
    expect(plan.metrics).toEqual({ runId: "r1", names: ["loss"], fromStep: 5, toStep: 5 });
    expect(liveRunPlan(event({})).refresh).toEqual([]);
  });

  it("an RL step's rollouts refetch that run's rollout, group, token-cap and sample views only", () => {
    const e = event({ kind: "rl", changed: { episodes: { count: 8 }, metrics: { fromStep: 3, toStep: 3 } } });
    expect(refreshed(e)).toEqual([
      "evals.byId@r1",
      "evals.samples@r1",
      "runs.stepGroup@r1",
      "runs.stepRollouts@r1",
      "runs.tokenCap@r1",
    ]);
    expect(liveRunPlan(e).metrics).toEqual({ runId: "r1", fromStep: 3, toStep: 3 });
  });

  it("a training run's status change refetches the run lists, its attempts and the models (a finished run registers one)", () => {
    expect(refreshed(event({ status: "SUCCEEDED", changed: { status: true } }))).toEqual([
      "models.list",
      "projects.byId",
      "runs.byId@r1",
      "runs.config@r1",
      "runs.list",
      "training.runs",
    ]);
  });

  it("an evaluation's progress refetches its progress views; a stored sample its results too", () => {
    const progress = refreshed(event({ kind: "eval", changed: {} }));
    expect(progress).toEqual(["evals.byId@r1", "evals.group", "evals.groups"]);
    expect(refreshed(event({ kind: "eval", changed: { episodes: { count: 1 } } }))).toEqual([
      "evals.byId@r1",
      "evals.compare@r1",
      "evals.group",
      "evals.groups",
      "evals.matrix",
      "evals.runsOn",
      "evals.samples@r1",
      "runs.stepGroup@r1",
      "runs.stepRollouts@r1",
      "runs.tokenCap@r1",
    ]);
    expect(refreshed(event({ kind: "import", changed: { status: true } }))).toContain("evals.matrix");
  });

  it("an infrastructure job's every event refetches its products (a suite's samples, a video's assets)", () => {
    expect(refreshed(event({ kind: "job", changed: {} }))).toEqual([
      "datasets.byId",
      "datasets.list",
      "datasets.samples",
      "models.list",
      "projects.byId",
      "videos.list",
    ]);
    expect(refreshed(event({ kind: "job", changed: { status: true } }))).toContain("runs.list");
  });

  it("an event that does not say what changed refetches every family, narrowed to its run where it can", () => {
    const plan = liveRunPlan(event({ changed: undefined }));
    expect(plan.patchRows).toBe(false);
    expect(plan.metrics).toBeNull();
    expect(plan.refresh.map((r) => r.family).sort()).toEqual([...LIVE_QUERY_FAMILIES].sort());
    expect(plan.refresh.find((r) => r.family === "runs.metrics")).toEqual({ family: "runs.metrics", runId: "r1" });
    expect(plan.refresh.find((r) => r.family === "runs.list")).toEqual({ family: "runs.list" });
  });

  it("a (re)subscription refetches every family, every run", () => {
    expect(subscribedPlan()).toEqual(LIVE_QUERY_FAMILIES.map((family) => ({ family })));
  });
});

describe("the pieces the plan is applied with", () => {
  it("inputNamesRun: a query about the run by runId or in runIds", () => {
    expect(inputNamesRun({ projectId: "p", runId: "r1" }, "r1")).toBe(true);
    expect(inputNamesRun({ projectId: "p", runIds: ["r0", "r1"] }, "r1")).toBe(true);
    expect(inputNamesRun({ projectId: "p", runId: "r2" }, "r1")).toBe(false);
    expect(inputNamesRun(undefined, "r1")).toBe(false);
  });

  it("patchRunRow: the event's row fields on its run only; a table row's last step follows new points", () => {
    const row = { id: "r1", status: "RUNNING", progress: 0.1, message: "step 1", error: null, lastStep: 1, name: "x" };
    const e = event({ changed: { metrics: { fromStep: 5, toStep: 5 } } });
    expect(patchRunRow(row, e)).toEqual({ ...row, progress: 0.5, message: "step 5/10", lastStep: 5 });
    expect(patchRunRow({ ...row, lastStep: null }, e).lastStep).toBe(5);
    const other = { ...row, id: "r2" };
    expect(patchRunRow(other, e)).toBe(other);
    const { lastStep: _l, ...plain } = row;
    expect(patchRunRow(plain, e)).toEqual({ ...plain, progress: 0.5, message: "step 5/10" });
  });

  it("metricNamesLack: a series list is read again only for a series it does not know", () => {
    const cached = [{ name: "loss" }, { name: "lr" }];
    expect(metricNamesLack(cached, { names: ["loss"], fromStep: 1, toStep: 1 })).toBe(false);
    expect(metricNamesLack(cached, { names: ["loss", "val_loss"], fromStep: 1, toStep: 1 })).toBe(true);
    expect(metricNamesLack(cached, { fromStep: 1, toStep: 1 })).toBe(true);
    expect(metricNamesLack(undefined, { names: ["loss"], fromStep: 1, toStep: 1 })).toBe(true);
  });
});
