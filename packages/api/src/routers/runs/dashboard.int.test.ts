// The training dashboard's procedures (issue 9 item 5) on real Postgres: a 10k-step series comes
// back downsampled with its extremes kept, a zoom window re-fetches full detail by step and by wall
// time, the export pages concatenate into every point, configs diff by dotted key, and only
// members may read.
import { seriesPoints } from "@paravt/shared";
import { hostname } from "node:os";
import { db, metrics, runs } from "@paravt/shared/server";
import { describe, expect, it } from "vitest";
import { codeOf, projectWithRoleCallers } from "../../test-helpers";

const STEPS = 10_000;
const SPIKE = 7_777;
const DIP = 3_333;
/** Deterministic noisy loss with one spike and one dip that downsampling must keep. */
function lossAt(step: number): number {
  if (step === SPIKE) return 100;
  if (step === DIP) return -50;
  return 2 / Math.sqrt(step) + 0.05 * Math.sin(step * 12.9898);
}

async function seedRun(projectId: string, config: object = { lr: 0.001 }) {
  const run = await db().run.create({
    data: {
      projectId,
      kind: "sft",
      jobName: "train.sft",
      name: `sft-${Math.random().toString(36).slice(2, 8)}`,
      config,
    },
  });
  // 100 ms per step from t0; lr only every 10th step (a sparse series leaves empty CSV cells).
  const t0 = Date.UTC(2026, 0, 1);
  const rows = [];
  for (let step = 1; step <= STEPS; step++) {
    const wallTime = new Date(t0 + (step - 1) * 100);
    rows.push({ runId: run.id, step, name: "loss", value: lossAt(step), wallTime });
    if (step % 10 === 0) rows.push({ runId: run.id, step, name: "lr", value: step / 1e7, wallTime });
  }
  await db().metric.createMany({ data: rows });
  return run;
}

describe("runs dashboard procedures", () => {
  it("lists a run's series and downsamples a 10k-step series keeping min and max", async () => {
    const fx = await projectWithRoleCallers();
    const run = await seedRun(fx.project.id);
    // recordStep (the trainers' writer) adds a series at an explicit time.
    await metrics.recordStep(run.id, 1, { accuracy_k4: 0.5 }, new Date(Date.UTC(2026, 0, 1)));

    const names = await fx.asViewer.runs.metricNames({ projectId: fx.project.id, runId: run.id });
    expect(names).toEqual([
      { name: "accuracy_k4", count: 1, firstStep: 1, lastStep: 1 },
      { name: "loss", count: STEPS, firstStep: 1, lastStep: STEPS },
      { name: "lr", count: STEPS / 10, firstStep: 10, lastStep: STEPS },
    ]);

    const [loss] = await fx.asViewer.runs.metrics({
      projectId: fx.project.id,
      runId: run.id,
      names: ["loss"],
      maxPoints: 200,
    });
    expect(loss!.total).toBe(STEPS);
    expect(seriesPoints(loss!).length).toBeLessThanOrEqual(200);
    expect(seriesPoints(loss!).length).toBeGreaterThan(100);
    const values = seriesPoints(loss!).map((p) => p.value);
    expect(Math.max(...values)).toBe(100);
    expect(Math.min(...values)).toBe(-50);
    expect(seriesPoints(loss!).find((p) => p.value === 100)!.step).toBe(SPIKE);
    const steps = seriesPoints(loss!).map((p) => p.step);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    // t is seconds since the run's first metric: 0.1 s per step here.
    for (const p of seriesPoints(loss!)) expect(p.t).toBeCloseTo((p.step - 1) * 0.1, 6);
    for (const p of seriesPoints(loss!)) expect(p.value).toBeCloseTo(lossAt(p.step), 12);
  });

  it("re-fetches a zoom window by step and by time with the window's full detail", async () => {
    const fx = await projectWithRoleCallers();
    const run = await seedRun(fx.project.id);
    const ref = { projectId: fx.project.id, runId: run.id };

    const [byStep] = await fx.asViewer.runs.metrics({
      ...ref,
      names: ["loss"],
      maxPoints: 5000,
      range: { from: 1000, to: 1999 },
    });
    expect(byStep!.total).toBe(1000);
    expect(seriesPoints(byStep!).map((p) => p.step)).toEqual(Array.from({ length: 1000 }, (_, i) => 1000 + i));

    // Seconds 100..199.9 are steps 1001..2000 (t = (step - 1) * 0.1).
    const [byTime, lr] = await fx.asViewer.runs.metrics({
      ...ref,
      names: ["loss", "lr"],
      maxPoints: 5000,
      x: "time",
      range: { from: 100, to: 199.9 },
    });
    expect(byTime!.total).toBe(1000);
    expect(seriesPoints(byTime!)[0]!.step).toBe(1001);
    expect(seriesPoints(byTime!).at(-1)!.step).toBe(2000);
    expect(seriesPoints(lr!).map((p) => p.step)).toEqual(Array.from({ length: 100 }, (_, i) => 1010 + i * 10));

    // A window holding the dip, downsampled hard, still shows it.
    const [zoomed] = await fx.asViewer.runs.metrics({
      ...ref,
      names: ["loss"],
      maxPoints: 20,
      range: { from: 3000, to: 4000 },
    });
    expect(zoomed!.total).toBe(1001);
    expect(seriesPoints(zoomed!).length).toBeLessThanOrEqual(20);
    expect(Math.min(...seriesPoints(zoomed!).map((p) => p.value))).toBe(-50);

    expect(await codeOf(fx.asViewer.runs.metrics({ ...ref, names: ["loss"], range: { from: 5, to: 1 } }))).toBe(
      "BAD_REQUEST",
    );
  });

  it("exports every point as CSV and JSON pages that concatenate into the whole series", async () => {
    const fx = await projectWithRoleCallers();
    const run = await seedRun(fx.project.id);
    const ref = { projectId: fx.project.id, runId: run.id, names: ["loss", "lr"] };

    let csv = "";
    let pages = 0;
    let afterStep: number | undefined;
    do {
      const page = await fx.asViewer.runs.metricsExport({ ...ref, format: "csv", limitSteps: 4000, afterStep });
      csv += page.content;
      pages++;
      afterStep = page.nextAfterStep ?? undefined;
    } while (afterStep !== undefined);
    expect(pages).toBe(3);
    const lines = csv.trimEnd().split("\n");
    expect(lines[0]).toBe("step,time_s,loss,lr");
    expect(lines).toHaveLength(STEPS + 1);
    for (const line of lines.slice(1)) {
      const [step, time, loss, lr] = line.split(",");
      const s = Number(step);
      expect(Number(time)).toBeCloseTo((s - 1) * 0.1, 6);
      // Postgres double precision may round the last digit of what was written.
      expect(Number(loss)).toBeCloseTo(lossAt(s), 12);
      expect(lr).toBe(s % 10 === 0 ? String(s / 1e7) : "");
    }

    const json = await fx.asViewer.runs.metricsExport({ ...ref, format: "json", limitSteps: 20_000 });
    expect(json.nextAfterStep).toBeNull();
    const rows = JSON.parse(json.content) as { step: number; time_s: number; loss: number; lr?: number }[];
    expect(rows).toHaveLength(STEPS);
    expect(rows[SPIKE - 1]).toEqual({ step: SPIKE, time_s: expect.closeTo((SPIKE - 1) * 0.1, 6), loss: 100 });
    expect(rows[9]).toEqual({
      step: 10,
      time_s: expect.closeTo(0.9, 6),
      loss: expect.closeTo(lossAt(10), 12),
      lr: 1e-6,
    });
  });

  it("diffs configs by dotted key, only the keys that differ", async () => {
    const fx = await projectWithRoleCallers();
    const base = { preset: "tiny", optim: { lr: 0.001, betas: [0.9, 0.99] }, seed: 1 };
    const a = await db().run.create({
      data: { projectId: fx.project.id, kind: "rl", jobName: "train.rl", name: "vanilla", config: base },
    });
    const b = await db().run.create({
      data: {
        projectId: fx.project.id,
        kind: "rl",
        jobName: "train.rl",
        name: "para",
        config: { ...base, optim: { lr: 0.0005, betas: [0.9, 0.99] }, reward: { bias: 0.1 } },
      },
    });
    const diff = await fx.asViewer.runs.configDiff({ projectId: fx.project.id, runIds: [a.id, b.id] });
    expect(diff.runs).toEqual([
      { id: a.id, name: "vanilla" },
      { id: b.id, name: "para" },
    ]);
    expect(diff.rows).toEqual([
      { key: "optim.lr", values: ["0.001", "0.0005"] },
      { key: "reward.bias", values: [null, "0.1"] },
    ]);
    expect(diff.same).toBe(3); // preset, optim.betas, seed
    expect(await codeOf(fx.asViewer.runs.configDiff({ projectId: fx.project.id, runIds: [a.id] }))).toBe("BAD_REQUEST");
  });

  it("runs.config: the stored config, the worker that started it, the dataset and model it names", async () => {
    const fx = await projectWithRoleCallers();
    const other = await projectWithRoleCallers();
    const dataset = await db().dataset.create({ data: { projectId: fx.project.id, name: "suite-a" } });
    const run = await seedRun(fx.project.id, { datasetId: dataset.id, name: "n", seed: 3 });
    const ref = { projectId: fx.project.id, runId: run.id };
    expect((await fx.asViewer.runs.config(ref)).worker).toBeNull();
    await runs.startRunAttempt(run.id);
    const out = await fx.asViewer.runs.config(ref);
    // An in-process worker (this test) announced no backend or device: host, pid and attempt only.
    expect(out.worker).toEqual({ host: hostname(), pid: process.pid, attempt: 1 });
    expect(out.config).toEqual({ datasetId: dataset.id, name: "n", seed: 3 });
    expect(out.dataset).toEqual({ id: dataset.id, name: "suite-a" });
    expect(out.startedAt).not.toBeNull();
    expect(await codeOf(other.asOwner.runs.config({ projectId: other.project.id, runId: run.id }))).toBe("NOT_FOUND");
  });

  it("lets members read and hides runs from outsiders and other projects", async () => {
    const fx = await projectWithRoleCallers();
    const other = await projectWithRoleCallers();
    const run = await seedRun(fx.project.id);
    const ref = { projectId: fx.project.id, runId: run.id };
    expect(await codeOf(fx.asOutsider.runs.metricNames(ref))).toBe("NOT_FOUND");
    expect(await codeOf(fx.anonymous.runs.metricNames(ref))).toBe("UNAUTHORIZED");
    // A run of another project, asked through a project the caller belongs to.
    const foreign = { projectId: other.project.id, runId: run.id };
    expect(await codeOf(other.asOwner.runs.metrics({ ...foreign, names: ["loss"] }))).toBe("NOT_FOUND");
    expect(await codeOf(other.asOwner.runs.metricsExport({ ...foreign, names: ["loss"], format: "csv" }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(other.asOwner.runs.configDiff({ projectId: other.project.id, runIds: [run.id, run.id] }))).toBe(
      "NOT_FOUND",
    );
  });
});
