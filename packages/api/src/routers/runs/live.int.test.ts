// Live updates at the cost of what changed (issue 42 item 1), on real Postgres and Redis: a chart's
// read keeps the window's last point, runs.metricsSince answers only the points after a step (and
// appending them gives what a fresh read counts), and publishers say what changed: a trainer's
// step its series and step, an ingested batch its series and step range or its episodes, a
// status report its status.
import { appendSince, seriesPoints, type RunEvent } from "@paravt/shared";
import { closeEventBus, db, metrics, onRunEvents, runs } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { codeOf, projectWithRoleCallers } from "../../test-helpers";

afterAll(async () => {
  await closeEventBus();
});

const STEPS = 1_000;
const SPIKE = 777;
const lossAt = (step: number) => (step === SPIKE ? 50 : 1 / step + 0.01 * Math.sin(step));

async function seedRun(projectId: string) {
  const run = await db().run.create({
    data: { projectId, kind: "sft", jobName: "train.sft", name: "live", config: {}, status: "RUNNING" },
  });
  const t0 = Date.UTC(2026, 0, 1);
  const rows = [];
  for (let step = 1; step <= STEPS; step++) {
    const wallTime = new Date(t0 + step * 1000);
    rows.push({ runId: run.id, step, name: "loss", value: lossAt(step), wallTime });
    if (step % 10 === 0) rows.push({ runId: run.id, step, name: "lr", value: step / 1e6, wallTime });
  }
  await db().metric.createMany({ data: rows });
  return run;
}

describe("live chart reads", () => {
  it("keeps the window's last point, appends only the points after it, and counts them", async () => {
    const fx = await projectWithRoleCallers();
    const run = await seedRun(fx.project.id);
    const ref = { projectId: fx.project.id, runId: run.id };
    const chart = { ...ref, names: ["loss", "lr"], maxPoints: 100 };

    const [loss, lr] = await fx.asViewer.runs.metrics(chart);
    expect(seriesPoints(loss!).length).toBeLessThanOrEqual(100);
    // The run's last step is the chart's last point, whether or not it is its bucket's extreme.
    expect(seriesPoints(loss!).at(-1)).toMatchObject({ step: STEPS, value: lossAt(STEPS) });
    expect(seriesPoints(loss!).some((p) => p.step === SPIKE)).toBe(true);
    expect(seriesPoints(lr!).at(-1)!.step).toBe(STEPS);

    // A trainer's next steps: recordStep says what it wrote (the event's changed.metrics).
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);
    expect(await metrics.recordStep(run.id, 1001, { loss: 0.2, lr: 0.001 }, t(1001))).toEqual({
      names: ["loss", "lr"],
      fromStep: 1001,
      toStep: 1001,
    });
    for (let s = 1002; s <= 1005; s++) await metrics.recordStep(run.id, s, { loss: 0.2 - s / 1e5 }, t(s));
    expect(await metrics.recordStep(run.id, 1006, { loss: Number.NaN })).toBeNull();
    // A retried step writes nothing and says nothing; a point before a series' last is out of order.
    expect(await metrics.recordStep(run.id, 1005, { loss: 0.3 })).toBeNull();
    expect(await metrics.recordStep(run.id, 995, { lr: 0.3 }, t(995))).toEqual({
      names: ["lr"],
      fromStep: 995,
      toStep: 995,
      backfill: true,
    });
    await db().metric.deleteMany({ where: { runId: run.id, name: "lr", step: 995 } });

    const asked = [
      { name: "loss", afterStep: STEPS },
      { name: "lr", afterStep: STEPS },
    ];
    const since = await fx.asViewer.runs.metricsSince({ ...ref, series: asked, maxPoints: 100 });
    expect(since.map((s) => [s.name, s.total, seriesPoints(s).map((p) => p.step)])).toEqual([
      ["loss", 5, [1001, 1002, 1003, 1004, 1005]],
      ["lr", 1, [1001]],
    ]);
    // t is seconds since the run's first metric, as in the whole read.
    expect(seriesPoints(since[0]!)[0]!.t).toBeCloseTo(1000, 6);
    // Up to an event's last step: never ahead of what the events announced.
    const upTo = await fx.asViewer.runs.metricsSince({ ...ref, series: asked, maxPoints: 100, untilStep: 1003 });
    expect(upTo.map((s) => seriesPoints(s).map((p) => p.step))).toEqual([[1001, 1002, 1003], [1001]]);

    const appended = appendSince([loss!, lr!], since, asked, 100)!;
    const fresh = await fx.asViewer.runs.metrics(chart);
    expect(appended.map((s) => s.total)).toEqual(fresh.map((s) => s.total));
    expect(appended.map((s) => seriesPoints(s).at(-1))).toEqual(fresh.map((s) => seriesPoints(s).at(-1)));
  });

  it("reads new points within a zoom window, from the start when the chart held none, downsampled past maxPoints", async () => {
    const fx = await projectWithRoleCallers();
    const run = await seedRun(fx.project.id);
    const ref = { projectId: fx.project.id, runId: run.id };
    const [byStep] = await fx.asViewer.runs.metricsSince({
      ...ref,
      series: [{ name: "loss", afterStep: null }],
      maxPoints: 100,
      range: { from: 990, to: 995 },
    });
    expect(seriesPoints(byStep!).map((p) => p.step)).toEqual([990, 991, 992, 993, 994, 995]);
    // By wall time: seconds since the first metric (step 1 at t = 0): t 900..950 are steps 901..951.
    const [byTime] = await fx.asViewer.runs.metricsSince({
      ...ref,
      series: [{ name: "loss", afterStep: 940 }],
      maxPoints: 100,
      x: "time",
      range: { from: 900, to: 950 },
    });
    expect(seriesPoints(byTime!).map((p) => p.step)).toEqual([941, 942, 943, 944, 945, 946, 947, 948, 949, 950, 951]);
    // Many new points (a long disconnect): min/max downsampled, the spike and the last point kept.
    const [burst] = await fx.asViewer.runs.metricsSince({
      ...ref,
      series: [{ name: "loss", afterStep: 500 }],
      maxPoints: 20,
    });
    expect(burst!.total).toBe(STEPS - 500);
    expect(seriesPoints(burst!).length).toBeLessThanOrEqual(20);
    expect(seriesPoints(burst!).some((p) => p.step === SPIKE)).toBe(true);
    expect(seriesPoints(burst!).at(-1)!.step).toBe(STEPS);
  });

  it("answers members only, and only about the project's runs", async () => {
    const fx = await projectWithRoleCallers();
    const other = await projectWithRoleCallers();
    const run = await seedRun(fx.project.id);
    const series = [{ name: "loss", afterStep: 1 }];
    expect(await codeOf(fx.asOutsider.runs.metricsSince({ projectId: fx.project.id, runId: run.id, series }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(other.asOwner.runs.metricsSince({ projectId: other.project.id, runId: run.id, series }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(fx.asViewer.runs.metricsSince({ projectId: fx.project.id, runId: run.id, series: [] }))).toBe(
      "BAD_REQUEST",
    );
  });
});

describe("what run events say changed", () => {
  it("a step, a status change, ingested metrics and rollouts each name what they stored", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const seen: RunEvent[] = [];
    const stop = await onRunEvents(projectId, (e) => seen.push(e));
    try {
      const own = await seedRun(projectId);
      await runs.reportRunProgress(own.id, 0.5, "step 5/10", {
        metrics: { names: ["loss"], fromStep: 5, toStep: 5 },
      });
      await runs.reportRunProgress(own.id, 0.6, "step 6/10");
      await expect.poll(() => seen.length).toBe(2);
      expect(seen.map((e) => [e.kind, e.message, e.changed])).toEqual([
        ["sft", "step 5/10", { metrics: { names: ["loss"], fromStep: 5, toStep: 5 } }],
        ["sft", "step 6/10", {}],
      ]);

      const { run } = await fx.asEditor.ingest.createRun({ projectId, clientId: "live-changes", name: "ext" });
      await fx.asEditor.ingest.metrics({
        projectId,
        runId: run.id,
        items: [
          { id: "m3", step: 3, values: { reward_mean: 0.5, kl: 0.01 } },
          { id: "m9", step: 9, values: { reward_mean: 0.6 } },
        ],
      });
      // A late batch of an earlier step (a trainer's retry after later ones got through).
      await fx.asEditor.ingest.metrics({
        projectId,
        runId: run.id,
        items: [{ id: "m5", step: 5, values: { reward_mean: 0.55 } }],
      });
      await fx.asEditor.ingest.rollouts({
        projectId,
        runId: run.id,
        items: [0, 1].map((index) => ({
          id: `r${index}`,
          step: 9,
          index,
          k: 16,
          sample: { key: `q${index}`, question: "What is shown?", answer: "a cat", questionType: "oe" as const },
          finalText: "<answer>a cat</answer>",
          turns: [{ index: 0, rawText: "<answer>a cat</answer>" }],
        })),
      });
      await fx.asEditor.ingest.setStatus({ projectId, runId: run.id, status: "RUNNING", message: "epoch 2" });
      await fx.asEditor.ingest.setStatus({ projectId, runId: run.id, status: "SUCCEEDED" });
      await expect.poll(() => seen.filter((e) => e.runId === run.id).length).toBe(6);
      const ext = seen.filter((e) => e.runId === run.id);
      const episodeIds = (await db().episode.findMany({ where: { runId: run.id }, select: { id: true } })).map(
        (e) => e.id,
      );
      expect(ext.map((e) => e.changed)).toEqual([
        { status: true },
        { metrics: { names: ["kl", "reward_mean"], fromStep: 3, toStep: 9 } },
        { metrics: { names: ["reward_mean"], fromStep: 5, toStep: 5, backfill: true } },
        { episodes: { count: 2, ids: expect.arrayContaining(episodeIds) } },
        {},
        { status: true },
      ]);
      expect(ext.every((e) => e.kind === "rl")).toBe(true);
    } finally {
      await stop();
    }
  });
});
