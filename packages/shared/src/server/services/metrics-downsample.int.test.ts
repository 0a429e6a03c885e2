// The chart's downsampling done in Postgres (issue 42 item 2) against a plain reference of the
// same rule: the window's step range cut into (maxPoints - 1)/2 equal buckets (width_bucket), each
// keeping its lowest and highest point, ties going to the earliest step, and the window's last
// point kept (issue 42 item 1: a live chart appends after it). A long span is read from the
// pre-aggregated tier (metric_rollups, level L): a point inside a whole 2^L-step rollup bucket
// falls into the display bucket of that rollup bucket's first step, a point of a partial bucket at
// either end into its own; the reference applies the same rule, so the SQL must equal it exactly.
// Random values with gaps, plateaus (ties) and a spike; a zoom window by step and by time.
import { seriesPoints } from "../../contracts/runs";
import { createProjectWithRoles } from "@paravt/db/factories";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { ROLLUP_LEVELS, rollupLevel } from "./metric-rollups";
import { readSeriesWindow } from "./metrics";

interface Row {
  step: number;
  value: number;
  t: number;
}

/** The rule in plain code (what the SQL must equal); `rollups`: whether the read may use them. */
function reference(rows: Row[], maxPoints: number, rollups = true): Row[] {
  if (rows.length <= maxPoints) return rows;
  const buckets = Math.max(1, Math.floor((maxPoints - 1) / 2));
  const lo = rows[0]!.step;
  const hi = rows.at(-1)!.step + 1;
  const level = rollups ? rollupLevel(lo, hi - 1, buckets) : null;
  const width = level === null ? 1 : 2 ** level;
  const wholeFrom = Math.ceil(lo / width) * width;
  const wholeTo = Math.floor(hi / width) * width - 1;
  const keyStep = (step: number) =>
    level !== null && step >= wholeFrom && step <= wholeTo ? Math.floor(step / width) * width : step;
  const byBucket = new Map<number, Row[]>();
  for (const r of rows) {
    const b = Math.floor(((keyStep(r.step) - lo) * buckets) / (hi - lo));
    byBucket.set(b, [...(byBucket.get(b) ?? []), r]);
  }
  const last = rows.at(-1)!;
  const out: Row[] = [];
  for (const members of byBucket.values()) {
    const low = members.reduce((a, r) => (r.value < a.value || (r.value === a.value && r.step < a.step) ? r : a));
    const high = members.reduce((a, r) => (r.value > a.value || (r.value === a.value && r.step < a.step) ? r : a));
    out.push(...(low.step === high.step ? [low] : [low, high]));
  }
  if (!out.some((r) => r.step === last.step)) out.push(last);
  return out.sort((a, b) => a.step - b.step);
}

describe("readSeriesWindow downsampling in SQL", () => {
  it("equals the reference rule on gappy, tied, spiky data, whole and zoomed", async () => {
    const fx = await createProjectWithRoles(db());
    const access = { projectId: fx.project.id, role: "OWNER" } as unknown as ProjectAccess;
    const run = await db().run.create({
      data: { projectId: fx.project.id, kind: "sft", jobName: "train.sft", name: "ds", config: {} },
    });
    // Deterministic pseudo-random values; steps with gaps (every step not divisible by 7), values
    // rounded to 1 decimal so ties are common, one spike; 250 ms per step from t0.
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const t0 = Date.UTC(2026, 0, 1);
    const rows: Row[] = [];
    for (let step = 3; step <= 6003; step++) {
      if (step % 7 === 0) continue;
      const value = step === 4243 ? 99 : Math.round(rand() * 10) / 10;
      rows.push({ step, value, t: ((step - 3) * 250) / 1000 });
    }
    await db().metric.createMany({
      data: rows.map((r) => ({
        runId: run.id,
        step: r.step,
        name: "loss",
        value: r.value,
        wallTime: new Date(t0 + r.t * 1000),
      })),
    });

    const read = async (maxPoints: number, x: "step" | "time" = "step", range?: { from: number; to: number }) =>
      (
        await readSeriesWindow(access, { runId: run.id, names: ["loss"], maxPoints, x, ...(range ? { range } : {}) })
      )[0]!;

    expect(rollupLevel(3, 6003, 149)).toBe(4); // the whole read goes through the rollups
    const whole = await read(300);
    expect(whole.total).toBe(rows.length);
    expect(seriesPoints(whole)).toEqual(reference(rows, 300).map((r) => ({ ...r, t: expect.closeTo(r.t, 6) })));
    expect(seriesPoints(whole).some((p) => p.value === 99 && p.step === 4243)).toBe(true);

    const zoom = rows.filter((r) => r.step >= 1000 && r.step <= 2000);
    const byStep = await read(120, "step", { from: 999.5, to: 2000.2 });
    expect(byStep.total).toBe(zoom.length);
    expect(seriesPoints(byStep)).toEqual(reference(zoom, 120).map((r) => ({ ...r, t: expect.closeTo(r.t, 6) })));

    // By time: seconds since the first metric, inclusive at both ends.
    const inTime = rows.filter((r) => r.t >= 100 && r.t <= 400);
    const byTime = await read(80, "time", { from: 100, to: 400 });
    expect(byTime.total).toBe(inTime.length);
    // A wall-time window is never read from the rollups (they are by step).
    expect(seriesPoints(byTime)).toEqual(
      reference(inTime, 80, false).map((r) => ({ ...r, t: expect.closeTo(r.t, 6) })),
    );

    // A window with fewer rows than maxPoints comes back whole.
    const small = await read(5000, "step", { from: 10, to: 30 });
    expect(seriesPoints(small).map((p) => p.step)).toEqual(
      rows.filter((r) => r.step >= 10 && r.step <= 30).map((r) => r.step),
    );
  });

  it("keeps the rollups equal to a rebuild from the rows through batched, interleaved and deleted writes", async () => {
    const fx = await createProjectWithRoles(db());
    const access = { projectId: fx.project.id, role: "OWNER" } as unknown as ProjectAccess;
    const run = await db().run.create({
      data: { projectId: fx.project.id, kind: "rl", jobName: "train.rl", name: "long", config: {} },
    });
    // 150,000 steps written in three interleaved statements (each bucket merged three times),
    // values with many ties and one spike, then two single points and a deleted one.
    for (const r of [0, 1, 2])
      await db().$executeRaw`INSERT INTO metrics (run_id, step, name, value, wall_time)
        SELECT ${run.id}, s, 'reward', CASE WHEN s = 77777 THEN 50 ELSE ((s * 7919) % 1000) / 100.0 END,
               timestamp '2026-01-01' + s * interval '1 second'
        FROM generate_series(0, 149999) s WHERE s % 3 = ${r}`;
    await db().metric.createMany({ data: [{ runId: run.id, step: 150_000, name: "reward", value: -3 }] });
    await db().metric.createMany({ data: [{ runId: run.id, step: 150_001, name: "reward", value: 60 }] });
    await db().metric.deleteMany({ where: { runId: run.id, step: 150_001 } });

    const tier = () =>
      db().metricRollup.findMany({
        where: { runId: run.id },
        orderBy: [{ level: "asc" }, { bucket: "asc" }],
      });
    const kept = await tier();
    expect(new Set(kept.map((r) => r.level))).toEqual(new Set(ROLLUP_LEVELS));
    expect(kept.filter((r) => r.level === 4).reduce((n, r) => n + r.n, 0)).toBe(150_001);
    await db().$executeRaw`SELECT paravt_metric_rollups_rebuild(ARRAY[${run.id}], ARRAY['reward'])`;
    expect(await tier()).toEqual(kept);

    // The SQL side lists the same levels as ROLLUP_LEVELS.
    const [fn] = await db().$queryRaw<{ src: string }[]>`
      SELECT prosrc AS src FROM pg_proc WHERE proname = 'paravt_metric_rollups_add'`;
    expect(fn!.src).toContain(`ARRAY[${ROLLUP_LEVELS.join(", ")}]::smallint[]`);

    // Reads through level 7, whole and a window that cuts rollup buckets at both ends.
    const rows: Row[] = (
      await db().metric.findMany({
        where: { runId: run.id },
        orderBy: { step: "asc" },
        select: { step: true, value: true, wallTime: true },
      })
    ).map((r) => ({ step: r.step, value: r.value, t: (r.wallTime.getTime() - Date.UTC(2026, 0, 1)) / 1000 }));
    const read = async (maxPoints: number, range?: { from: number; to: number }) =>
      (
        await readSeriesWindow(access, {
          runId: run.id,
          names: ["reward"],
          maxPoints,
          x: "step",
          ...(range ? { range } : {}),
        })
      )[0]!;
    const steps = (points: { step: number; value: number }[]) => points.map((p) => [p.step, p.value]);
    expect(rollupLevel(0, 150_000, 499)).toBe(7);
    const whole = await read(1000);
    expect(whole.total).toBe(150_001);
    expect(steps(seriesPoints(whole))).toEqual(steps(reference(rows, 1000)));
    expect(seriesPoints(whole)).toContainEqual({ step: 77777, value: 50, t: 77777 });
    const zoom = rows.filter((r) => r.step >= 12_345 && r.step <= 98_765);
    const window = await read(400, { from: 12_345, to: 98_765 });
    expect(window.total).toBe(zoom.length);
    expect(steps(seriesPoints(window))).toEqual(steps(reference(zoom, 400)));
  });
});
