// training.runs on real Postgres (issue 41 items 8 and 11): the Training tab's runs table lists
// SFT and RL runs (evaluations on request, jobs never) with their settings, model, dataset, the
// last and best value of each metric series (summarised in SQL) and an evaluation's figures.
import { evalSummary, type EvalSummary } from "@paravt/shared";
import { db } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { projectWithRoleCallers } from "../../test-helpers";

/** A stored SPEC §5 summary (validated, so the row's figures cannot be null by a typo here). */
const SUMMARY: EvalSummary = evalSummary.parse({
  samples: 10,
  stored: 10,
  answered: 8,
  errors: 2,
  mcq: { n: 8, correct: 6, accuracy: 0.75 },
  byDuration: null,
  grounding: null,
  openEnded: null,
  formatCompliance: { n: 8, compliant: 4, rate: 0.5 },
  avgToolCalls: 1.5,
  toolUsageRate: 0.625,
});

describe("training.runs (the runs table)", () => {
  it("lists SFT and RL runs apart from jobs and evals, filtered by kind and status, with their settings", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const dataset = await db().dataset.create({ data: { projectId, name: "suite-a", source: {} } });
    const start = await db().model.create({
      data: { projectId, name: "start-ckpt", kind: "NANO_CHECKPOINT", config: { checkpoint: "/x" } },
    });
    const startedAt = new Date("2026-01-01T10:00:00Z");
    const sft = await db().run.create({
      data: {
        projectId,
        kind: "sft",
        jobName: "train.sft",
        name: "sft-a",
        status: "SUCCEEDED",
        createdAt: startedAt,
        startedAt,
        finishedAt: new Date(startedAt.getTime() + 125_000),
        config: {
          steps: 3,
          lr: 0.001,
          preset: "tiny",
          datasetId: dataset.id,
          worker: { host: "h", pid: 1 },
          workerAttempts: [{ attempt: 1, host: "h", pid: 1, startedAt: startedAt.toISOString() }],
          note: "x".repeat(500),
        },
      },
    });
    const rl = await db().run.create({
      data: {
        projectId,
        kind: "rl",
        jobName: "train.rl",
        name: "rl-a",
        status: "RUNNING",
        // Newest first is by creation time, set apart here so the order cannot tie.
        createdAt: new Date(startedAt.getTime() + 1000),
        startedAt,
        config: { steps: 10, modelId: start.id, datasetId: dataset.id },
      },
    });
    await db().run.create({ data: { projectId, kind: "job", jobName: "video.probe", name: "probe" } });
    const evalRun = await db().run.create({
      data: {
        projectId,
        kind: "eval",
        jobName: "eval.run",
        name: "eval-a",
        createdAt: new Date(startedAt.getTime() + 2000),
        modelId: start.id,
        config: { sampleCount: 50, datasetId: dataset.id },
      },
    });
    const produced = await db().model.create({
      data: { projectId, name: "sft-a", kind: "NANO_CHECKPOINT", config: { checkpoint: "/y", runId: sft.id } },
    });

    const { rows, more } = await fx.asViewer.training.runs({ projectId });
    expect(more).toBe(false);
    expect(rows.map((r) => r.name)).toEqual(["rl-a", "sft-a"]); // newest first, no job, no eval
    const sftRow = rows.find((r) => r.id === sft.id)!;
    expect(sftRow).toMatchObject({
      kind: "sft",
      totalSteps: 3,
      lastStep: null,
      durationS: 125,
      dataset: { id: dataset.id, name: "suite-a" },
      model: null,
      producedModel: { id: produced.id, name: "sft-a" },
      metrics: [],
      eval: null,
      configClipped: true,
    });
    // The worker and the attempt log are not settings; a long text is cut.
    expect(Object.keys(sftRow.config).sort()).toEqual(["datasetId", "lr", "note", "preset", "steps"]);
    expect(sftRow.config.note).toBe(`${"x".repeat(200)}…`);
    expect(rows.find((r) => r.id === rl.id)).toMatchObject({
      model: { id: start.id, name: "start-ckpt" },
      durationS: null,
      configClipped: false,
    });

    expect((await fx.asViewer.training.runs({ projectId, kind: "rl" })).rows.map((r) => r.id)).toEqual([rl.id]);
    expect((await fx.asViewer.training.runs({ projectId, status: "SUCCEEDED" })).rows.map((r) => r.id)).toEqual([
      sft.id,
    ]);
    expect((await fx.asViewer.training.runs({ projectId, kind: "rl", status: "SUCCEEDED" })).rows).toEqual([]);
    const evals = (await fx.asViewer.training.runs({ projectId, kind: "eval" })).rows;
    expect(evals.map((r) => r.id)).toEqual([evalRun.id]);
    // An evaluation's settings say how many samples it covers; it names the model it evaluated.
    expect(evals[0]!.config).toEqual({ sampleCount: 50, datasetId: dataset.id });
    expect(evals[0]!.model).toEqual({ id: start.id, name: "start-ckpt" });
    expect(evals[0]!.eval).toBeNull(); // no summary yet (still running)
    const all = await fx.asViewer.training.runs({ projectId, kind: "all" });
    expect(all.rows.map((r) => r.name)).toEqual(["eval-a", "rl-a", "sft-a"]);

    // Bounded: the newest `limit`, saying older ones exist.
    const one = await fx.asViewer.training.runs({ projectId, kind: "all", limit: 1 });
    expect(one).toMatchObject({ rows: [{ id: evalRun.id }], more: true });
  });

  it("summarises each metric series: its last value and its best by the metric's direction", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const run = await db().run.create({
      data: { projectId, kind: "rl", jobName: "external", name: "ingested", status: "RUNNING", config: {} },
    });
    const points = (name: string, values: number[], from = 1) =>
      values.map((value, i) => ({ runId: run.id, name, step: from + i, value }));
    await db().metric.createMany({
      data: [
        // Stored out of step order: "last" is the highest step, not the last row written.
        ...points("loss", [2.5, 0.9, 1.25]).reverse(),
        ...points("reward_mean", [0.1, 0.7, 0.4]),
        ...points("lr", [0.01, 0.001]),
        ...points("val_loss", [3, 2], 2),
        ...points("error_rate", [0.5, 0.2, 0.3]),
      ],
    });
    // A diverged series: NaN is never the best, and a last NaN reads null. (Prisma refuses NaN;
    // raw SQL does not.)
    await db().$executeRaw`INSERT INTO metrics (run_id, name, step, value) VALUES (${run.id}, 'val_loss', 4, 'NaN')`;

    const [row] = (await fx.asViewer.training.runs({ projectId })).rows;
    expect(row!.lastStep).toBe(4);
    expect(row!.metricsLeftOut).toBe(0);
    const byName = Object.fromEntries(row!.metrics.map((m) => [m.name, m]));
    expect(Object.keys(byName)).toEqual(["error_rate", "loss", "lr", "reward_mean", "val_loss"]);
    expect(byName.loss).toEqual({ name: "loss", points: 3, lastStep: 3, last: 1.25, goal: "min", best: 0.9 });
    expect(byName.reward_mean).toMatchObject({ last: 0.4, goal: "max", best: 0.7 });
    expect(byName.error_rate).toMatchObject({ last: 0.3, goal: "min", best: 0.2 });
    expect(byName.lr).toMatchObject({ last: 0.001, goal: null, best: null });
    expect(byName.val_loss).toMatchObject({ points: 3, lastStep: 4, last: null, goal: "min", best: 2 });
  });

  it("gives an evaluation's summary figures and an import's too", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    await db().run.create({
      data: { projectId, kind: "eval", jobName: "eval.run", name: "done", status: "SUCCEEDED", summary: SUMMARY },
    });
    await db().run.create({
      data: {
        projectId,
        kind: "import",
        jobName: "evals.import",
        name: "reference",
        status: "SUCCEEDED",
        summary: { ...SUMMARY, mcq: null, grounding: { n: 4, mIoU: 0.3, se: 0.05, r03: 0.5, r05: 0.25, r07: 0 } },
      },
    });
    const rows = (await fx.asViewer.training.runs({ projectId, kind: "eval" })).rows;
    expect(rows.find((r) => r.name === "done")!.eval).toEqual({
      headline: "accuracy",
      values: {
        accuracy: 0.75,
        score: null,
        mIoU: null,
        formatCompliance: 0.5,
        toolUsage: 0.625,
        avgToolCalls: 1.5,
        errors: 2,
      },
    });
    expect(rows.find((r) => r.name === "reference")!.eval).toMatchObject({
      headline: "mIoU",
      values: { accuracy: null, mIoU: 0.3 },
    });
  });

  it("keeps to the caller's project", async () => {
    const a = await projectWithRoleCallers();
    const b = await projectWithRoleCallers();
    const foreignModel = await db().model.create({
      data: { projectId: b.project.id, name: "theirs", kind: "NANO_CHECKPOINT", config: { checkpoint: "/z" } },
    });
    const foreignDataset = await db().dataset.create({ data: { projectId: b.project.id, name: "theirs", source: {} } });
    const theirs = await db().run.create({
      data: { projectId: b.project.id, kind: "sft", jobName: "train.sft", name: "theirs", config: {} },
    });
    await db().metric.create({ data: { runId: theirs.id, name: "loss", step: 1, value: 1 } });
    // A run of A whose config names B's model and dataset (a hand-written config) shows neither.
    await db().run.create({
      data: {
        projectId: a.project.id,
        kind: "sft",
        jobName: "train.sft",
        name: "ours",
        config: { modelId: foreignModel.id, datasetId: foreignDataset.id },
      },
    });

    const { rows } = await a.asViewer.training.runs({ projectId: a.project.id, kind: "all" });
    expect(rows.map((r) => r.name)).toEqual(["ours"]);
    expect(rows[0]).toMatchObject({ model: null, dataset: null, metrics: [] });
    await expect(a.asOutsider.training.runs({ projectId: a.project.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(a.anonymous.training.runs({ projectId: a.project.id })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});
