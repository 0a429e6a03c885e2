// The chart cache never answers from rows that changed (issue 42 item 2): every write of a run's
// metrics, by any writer, moves the run's watermark in the same transaction, and entries are keyed
// by it. Each test reads, writes between two reads, and checks the second read against a read with
// the cache emptied (what the database holds now).
import { seriesColumns, seriesPoints } from "../../contracts/runs";
import { createDb } from "@paravt/db";
import { createProjectWithRoles } from "@paravt/db/factories";
import { describe, expect, it } from "vitest";
import { NotFoundError } from "../../errors";
import { db, dbPool } from "../db";
import { serverEnv } from "../env";
import type { ProjectAccess } from "./access";
import { inSnapshot, metricMark, readChartSeries } from "./metric-chart-read";
import { chartCacheStats, clearChartCache, readSeriesWindow, recordStep } from "./metrics";

const T0 = Date.UTC(2026, 0, 1);

async function seededRun(points = 3000) {
  const fx = await createProjectWithRoles(db());
  const access = { projectId: fx.project.id, role: "OWNER" } as unknown as ProjectAccess;
  const run = await db().run.create({
    data: { projectId: fx.project.id, kind: "sft", jobName: "train.sft", name: "cached", config: {} },
  });
  await db().metric.createMany({
    data: Array.from({ length: points }, (_, i) => [
      { runId: run.id, step: i, name: "loss", value: Math.sin(i / 40), wallTime: new Date(T0 + i * 1000) },
      { runId: run.id, step: i, name: "lr", value: 1e-3, wallTime: new Date(T0 + i * 1000) },
    ]).flat(),
  });
  return { access, run };
}

type Read = Parameters<typeof readSeriesWindow>[1];

/** What the database answers now: the same read with the cache emptied first. */
async function fresh(access: ProjectAccess, input: Read) {
  clearChartCache();
  return readSeriesWindow(access, input);
}

/** Counts of one read: whether it was answered from the cache. */
async function counted(access: ProjectAccess, input: Read) {
  const before = chartCacheStats();
  const out = await readSeriesWindow(access, input);
  const after = chartCacheStats();
  return { out, hit: after.hits - before.hits === 1, miss: after.misses - before.misses === 1 };
}

describe("the chart cache", () => {
  it("answers a repeated read from the cache, and a read after any write from the rows", async () => {
    const { access, run } = await seededRun();
    const input: Read = { runId: run.id, names: ["loss", "lr"], maxPoints: 200, x: "step" };
    clearChartCache();
    const first = await counted(access, input);
    expect(first.miss).toBe(true);
    const again = await counted(access, input);
    expect(again.hit).toBe(true);
    expect(again.out).toBe(first.out); // the same answer, not read again
    expect(Object.isFrozen(again.out[0]!.steps)).toBe(true);

    // A trainer's step (metrics.recordStep) with a spike past the end.
    await recordStep(run.id, 3000, { loss: 50 }, new Date(T0 + 3000 * 1000));
    const afterStep = await counted(access, input);
    expect(afterStep.miss).toBe(true);
    expect(seriesPoints(afterStep.out[0]!).at(-1)).toEqual({ step: 3000, value: 50, t: 3000 });
    expect(afterStep.out).toEqual(await fresh(access, input));

    // Another writer on its own connection (another process, a hand-run statement): a value
    // changed in place, inside the series.
    await readSeriesWindow(access, input);
    const other = createDb(serverEnv().DATABASE_URL, { maxConnections: 1 });
    try {
      await other.$executeRaw`UPDATE metrics SET value = -70 WHERE run_id = ${run.id} AND name = 'loss' AND step = 1234`;
    } finally {
      await other.$disconnect();
    }
    const afterUpdate = await counted(access, input);
    expect(afterUpdate.miss).toBe(true);
    expect(seriesPoints(afterUpdate.out[0]!)).toContainEqual({ step: 1234, value: -70, t: 1234 });
    expect(afterUpdate.out).toEqual(await fresh(access, input));

    // A deleted point: the spike is gone from the next read.
    await readSeriesWindow(access, input);
    await db().metric.deleteMany({ where: { runId: run.id, name: "loss", step: 1234 } });
    const afterDelete = await counted(access, input);
    expect(afterDelete.miss).toBe(true);
    expect(seriesPoints(afterDelete.out[0]!).some((p) => p.step === 1234)).toBe(false);
    expect(afterDelete.out[0]!.total).toBe(3000);
    expect(afterDelete.out).toEqual(await fresh(access, input));

    // A retried step that writes nothing (unique run + name + step) keeps the entry.
    await readSeriesWindow(access, input);
    expect(await recordStep(run.id, 3000, { loss: 50 })).toBeNull();
    expect((await counted(access, input)).hit).toBe(true);
  });

  it("keys zoom windows, x axes and sizes apart, and follows a new time zero", async () => {
    const { access, run } = await seededRun();
    clearChartCache();
    const byTime: Read = { runId: run.id, names: ["loss"], maxPoints: 50, x: "time", range: { from: 100, to: 110 } };
    const byStep: Read = { ...byTime, x: "step" };
    const [t, s] = [await readSeriesWindow(access, byTime), await readSeriesWindow(access, byStep)];
    expect(chartCacheStats().misses).toBe(2);
    expect(seriesPoints(t[0]!).map((p) => p.step)).toEqual(seriesPoints(s[0]!).map((p) => p.step));
    expect((await counted(access, { ...byStep, maxPoints: 10 })).miss).toBe(true);
    expect((await counted(access, { ...byStep, range: { from: 100, to: 111 } })).miss).toBe(true);
    expect((await counted(access, byTime)).hit).toBe(true);

    // A point written 100 s before the first one moves time zero: the same window in seconds is
    // now the run's first 10 s of loss, each point 100 s later than before.
    await db().metric.create({
      data: { runId: run.id, step: -1, name: "lr", value: 1, wallTime: new Date(T0 - 100_000) },
    });
    const moved = await counted(access, byTime);
    expect(moved.miss).toBe(true);
    expect(seriesPoints(moved.out[0]!)[0]).toEqual({ step: 0, value: 0, t: 100 });
    expect(seriesPoints(moved.out[0]!).at(-1)!.t).toBe(110);
    expect(moved.out).toEqual(await fresh(access, byTime));
  });

  it("reads a chart once for clients that ask for it at the same time", async () => {
    const { access, run } = await seededRun(500);
    clearChartCache();
    const input: Read = { runId: run.id, names: ["loss", "lr"], maxPoints: 100, x: "step" };
    const answers = await Promise.all(Array.from({ length: 10 }, () => readSeriesWindow(access, input)));
    expect(chartCacheStats()).toMatchObject({ misses: 1, hits: 9, entries: 1 });
    for (const a of answers) expect(a).toBe(answers[0]);
  });

  it("follows a run's first points, and its deletion", async () => {
    const fx = await createProjectWithRoles(db());
    const access = { projectId: fx.project.id, role: "OWNER" } as unknown as ProjectAccess;
    const run = await db().run.create({
      data: { projectId: fx.project.id, kind: "rl", jobName: "train.rl", name: "empty", config: {} },
    });
    const input: Read = { runId: run.id, names: ["reward"], maxPoints: 100, x: "step" };
    expect(await readSeriesWindow(access, input)).toEqual([{ name: "reward", total: 0, ...seriesColumns([]) }]);
    await recordStep(run.id, 1, { reward: 0.5 });
    const first = await readSeriesWindow(access, input);
    expect(seriesPoints(first[0]!).map((p) => [p.step, p.value, p.t])).toEqual([[1, 0.5, 0]]);

    // Deleting the run cascades to its metrics (the delete trigger only bumps, never inserts, so
    // the run's watermark row goes with it); the cache cannot answer for a run that is gone.
    await db().run.delete({ where: { id: run.id } });
    expect(await db().metricWatermark.count({ where: { runId: run.id } })).toBe(0);
    await expect(readSeriesWindow(access, input)).rejects.toBeInstanceOf(NotFoundError);
    // Nor for a project the run is not in.
    const { run: elsewhere } = await seededRun(10);
    await expect(readSeriesWindow(access, { ...input, runId: elsewhere.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("keeps an entry under the version its rows have: the watermark and the rows from one snapshot", async () => {
    const { access, run } = await seededRun(100);
    const asks = [{ name: "loss", afterStep: null }];
    await inSnapshot(dbPool(), async (c) => {
      const before = (await metricMark(c, access.projectId, run.id))!;
      // A write that commits while the read is under way (on another connection).
      await recordStep(run.id, 100, { loss: 5 });
      expect((await metricMark(dbPool(), access.projectId, run.id))!.version).not.toBe(before.version);
      expect((await metricMark(c, access.projectId, run.id))!.version).toBe(before.version);
      const [loss] = await readChartSeries(c, run.id, before.t0, asks, 1000, null);
      expect(loss!.total).toBe(100);
      expect(seriesPoints(loss!).at(-1)!.step).toBe(99);
    });
  });
});
