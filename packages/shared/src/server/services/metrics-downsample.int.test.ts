// The chart's downsampling done in Postgres (issue 42 item 2) against a plain reference of the
// same rule: the window's step range cut into maxPoints/2 equal buckets (width_bucket), each
// keeping its lowest and highest point, ties going to the earliest step. Random values with gaps,
// plateaus (ties) and a spike; a zoom window by step and by time.
import { createProjectWithRoles } from "@paravt/db/factories";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { readSeriesWindow } from "./metrics";

interface Row {
  step: number;
  value: number;
  t: number;
}

/** The rule in plain code (what the SQL must equal). */
function reference(rows: Row[], maxPoints: number): Row[] {
  if (rows.length <= maxPoints) return rows;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const lo = rows[0]!.step;
  const hi = rows.at(-1)!.step + 1;
  const byBucket = new Map<number, Row[]>();
  for (const r of rows) {
    const b = Math.floor(((r.step - lo) * buckets) / (hi - lo));
    byBucket.set(b, [...(byBucket.get(b) ?? []), r]);
  }
  const out: Row[] = [];
  for (const members of byBucket.values()) {
    const low = members.reduce((a, r) => (r.value < a.value || (r.value === a.value && r.step < a.step) ? r : a));
    const high = members.reduce((a, r) => (r.value > a.value || (r.value === a.value && r.step < a.step) ? r : a));
    out.push(...(low.step === high.step ? [low] : [low, high]));
  }
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

    const whole = await read(300);
    expect(whole.total).toBe(rows.length);
    expect(whole.points).toEqual(reference(rows, 300).map((r) => ({ ...r, t: expect.closeTo(r.t, 6) })));
    expect(whole.points.some((p) => p.value === 99 && p.step === 4243)).toBe(true);

    const zoom = rows.filter((r) => r.step >= 1000 && r.step <= 2000);
    const byStep = await read(120, "step", { from: 999.5, to: 2000.2 });
    expect(byStep.total).toBe(zoom.length);
    expect(byStep.points).toEqual(reference(zoom, 120).map((r) => ({ ...r, t: expect.closeTo(r.t, 6) })));

    // By time: seconds since the first metric, inclusive at both ends.
    const inTime = rows.filter((r) => r.t >= 100 && r.t <= 400);
    const byTime = await read(80, "time", { from: 100, to: 400 });
    expect(byTime.total).toBe(inTime.length);
    expect(byTime.points).toEqual(reference(inTime, 80).map((r) => ({ ...r, t: expect.closeTo(r.t, 6) })));

    // A window with fewer rows than maxPoints comes back whole.
    const small = await read(5000, "step", { from: 10, to: 30 });
    expect(small.points.map((p) => p.step)).toEqual(
      rows.filter((r) => r.step >= 10 && r.step <= 30).map((r) => r.step),
    );
  });
});
