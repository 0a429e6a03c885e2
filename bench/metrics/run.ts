// Chart reads at the size of real runs (issue 42 item 2): a run page's metric read
// (`readSeriesWindow`: the whole series and a zoom window, maxPoints 1000), which reads long spans
// from the pre-aggregated tier `metric_rollups`, against the two reads before it, in the same run
// on the same rows: (1) every row of the series through Prisma, min/max downsampling in Node
// (`downsampleMinMax`) and the time zero as an aggregate over the run; (2) the same downsampling
// in SQL over the window's rows (width_bucket). Then N concurrent clients each reading a 6-series
// chart, and what the rollup triggers cost a trainer's writes (one step of 6 values per INSERT).
//   npx tsx bench/metrics/run.ts [--sizes 10000,100000,1000000] [--reps 5] [--clients 10]
// Needs Postgres; creates and migrates its own database paravt_bench_metrics.
import { parseArgs } from "node:util";
import { pct, prepareBenchDatabase, time } from "../lib/bench-db";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000,1000000" },
    reps: { type: "string", default: "5" },
    clients: { type: "string", default: "10" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const REPS = Number(values.reps);
const CLIENTS = Number(values.clients);
const SERIES = 6;
const MAX_POINTS = 1000;

const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const DB_NAME = "paravt_bench_metrics";
process.env.DATABASE_URL = `${PG_BASE}/${DB_NAME}`;
process.env.REDIS_URL ??= "redis://127.0.0.1:6379/11";
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
prepareBenchDatabase(DB_NAME);

// Imported after DATABASE_URL is set (the client reads it on first use).
const { db, metrics } = await import("@paravt/shared/server");
const { createProjectWithRoles } = await import("@paravt/db/factories");
type Access = Parameters<typeof metrics.readSeriesWindow>[0];

/** The read this change replaced (metrics.ts before issue 42 item 2), kept here as the baseline. */
async function readBefore(runId: string, names: string[], range?: { from: number; to: number }) {
  const agg = await db().metric.aggregate({ where: { runId }, _min: { wallTime: true } });
  const t0 = agg._min.wallTime?.getTime() ?? 0;
  const window = range ? { step: { gte: Math.ceil(range.from), lte: Math.floor(range.to) } } : {};
  return Promise.all(
    names.map(async (name) => {
      const rows = await db().metric.findMany({
        where: { runId, name, ...window },
        orderBy: { step: "asc" },
        select: { step: true, value: true, wallTime: true },
      });
      const points = rows.map((r) => ({ step: r.step, value: r.value, t: (r.wallTime.getTime() - t0) / 1000 }));
      return { name, total: rows.length, points: metrics.downsampleMinMax(points, MAX_POINTS) };
    }),
  );
}

/**
 * The read before the rollups (metrics.ts readOneSeries over raw rows), kept as a baseline: the
 * head of the window, its last point, the extremes of each width_bucket over every row, their times.
 */
async function readRawSql(runId: string, names: string[], range?: { from: number; to: number }) {
  const agg = await db().$queryRaw<{ t0: Date }[]>`
    SELECT wall_time AS t0 FROM metrics WHERE run_id = ${runId} ORDER BY wall_time LIMIT 1`;
  const t0 = agg[0]?.t0.getTime() ?? 0;
  const from = range ? Math.ceil(range.from) : -2147483648;
  const to = range ? Math.floor(range.to) : 2147483647;
  return Promise.all(
    names.map(async (name) => {
      const head = await db().$queryRaw<{ step: number }[]>`
        SELECT step FROM metrics WHERE run_id = ${runId} AND name = ${name} AND step BETWEEN ${from} AND ${to}
        ORDER BY step LIMIT ${MAX_POINTS + 1}`;
      const [last] = await db().$queryRaw<{ step: number; value: number }[]>`
        SELECT step, value FROM metrics WHERE run_id = ${runId} AND name = ${name} AND step BETWEEN ${from} AND ${to}
        ORDER BY step DESC LIMIT 1`;
      const lo = head[0]!.step;
      const hi = last!.step;
      const ext = await db().$queryRaw<{ low: number[]; high: number[]; n: number }[]>`
        SELECT min(ARRAY[value, step::float8]) AS low, max(ARRAY[value, -step::float8]) AS high, count(*)::int AS n
        FROM metrics WHERE run_id = ${runId} AND name = ${name} AND step BETWEEN ${from} AND ${to}
        GROUP BY width_bucket(step, ${lo}, ${hi + 1}, ${Math.floor((MAX_POINTS - 1) / 2)})`;
      const steps = [...new Set(ext.flatMap((e) => [e.low[1]!, -e.high[1]!]).concat(hi))];
      const times = await db().$queryRaw<{ step: number; value: number; wall_time: Date }[]>`
        SELECT step, value, wall_time FROM metrics WHERE run_id = ${runId} AND name = ${name} AND step = ANY(${steps}::int[])`;
      const points = times.map((r) => ({ step: r.step, value: r.value, t: (r.wall_time.getTime() - t0) / 1000 }));
      return { name, total: ext.reduce((n, e) => n + e.n, 0), points };
    }),
  );
}

/** A run with SERIES series of n steps each, written in one INSERT … SELECT (1 s per step). */
async function seed(n: number): Promise<{ access: Access; runId: string }> {
  const { project } = await createProjectWithRoles(db());
  const run = await db().run.create({
    data: { projectId: project.id, kind: "sft", jobName: "train.sft", name: `bench-${n}`, config: {} },
  });
  for (let s = 0; s < SERIES; s++) {
    await db().$executeRawUnsafe(
      `INSERT INTO metrics (run_id, step, name, value, wall_time)
       SELECT $1, g, $2, sin(g / 500.0) + random() * 0.1 + CASE WHEN g % 99991 = 0 THEN 10 ELSE 0 END,
              timestamp '2026-01-01' + g * interval '1 second'
       FROM generate_series(1, $3::int) AS g`,
      run.id,
      `series_${s}`,
      n,
    );
  }
  await db().$executeRawUnsafe("ANALYZE metrics");
  // readSeriesWindow reads only the project id of its access (the router checked membership).
  const access = { projectId: project.id, role: "OWNER" } as unknown as Access;
  return { access, runId: run.id };
}

const rows: string[] = [];
const conc: string[] = [];
const writes: string[] = [];
const names = Array.from({ length: SERIES }, (_, s) => `series_${s}`);
for (const n of SIZES) {
  const t = performance.now();
  const { access, runId } = await seed(n);
  console.error(`seeded ${SERIES} x ${n.toLocaleString()} points in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const zoom = { from: Math.floor(n * 0.4), to: Math.floor(n * 0.45) };
  const after = (range?: typeof zoom) => () =>
    metrics.readSeriesWindow(access, {
      runId,
      names: names.slice(0, 1),
      maxPoints: MAX_POINTS,
      x: "step",
      ...(range ? { range } : {}),
    });
  const before = (range?: typeof zoom) => () => readBefore(runId, names.slice(0, 1), range);
  const rawSql = (range?: typeof zoom) => () => readRawSql(runId, names.slice(0, 1), range);
  // Same answer size and the spike kept, every way.
  const maxOf = (r: Awaited<ReturnType<ReturnType<typeof after>>>) => Math.max(...r[0]!.points.map((p) => p.value));
  const [a, b, c] = [await after()(), await before()(), await rawSql()()];
  if (maxOf(a) !== maxOf(b) || maxOf(a) !== maxOf(c)) throw new Error("the reads disagree on the series' maximum");
  if (a[0]!.total !== b[0]!.total || a[0]!.total !== c[0]!.total) throw new Error("the reads disagree on the count");
  for (const [label, f0, f1, f2] of [
    ["1 series, whole run", before(), rawSql(), after()],
    ["1 series, zoom 5 %", before(zoom), rawSql(zoom), after(zoom)],
  ] as const) {
    const t0 = n > 100_000 && REPS > 3 ? await time(f0, 3) : await time(f0, REPS); // seconds per read at 1M
    const t1 = await time(f1, REPS);
    const t2 = await time(f2, REPS);
    const m = (xs: number[]) => pct(xs, 50);
    rows.push(
      `| ${n.toLocaleString()} | ${label} | ${m(t0).toFixed(0)} | ${m(t1).toFixed(0)} | ${m(t2).toFixed(0)} | ${(m(t1) / m(t2)).toFixed(1)}x |`,
    );
    console.error(rows.at(-1));
  }
  // CLIENTS concurrent clients, each reading the 6-series chart REPS times.
  for (const [label, read] of [
    ["SQL over rows", () => readRawSql(runId, names)],
    ["rollups", () => metrics.readSeriesWindow(access, { runId, names, maxPoints: MAX_POINTS, x: "step" })],
  ] as const) {
    if (label === "SQL over rows" && n > 100_000 && CLIENTS > 5) continue; // minutes per round at 1M
    const lat: number[] = [];
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let i = 0; i < REPS; i++) {
          const s = performance.now();
          await read();
          lat.push(performance.now() - s);
        }
      }),
    );
    const wall = (performance.now() - t1) / 1000;
    conc.push(
      `| ${n.toLocaleString()} | ${label} | ${CLIENTS} | ${pct(lat, 50).toFixed(0)} | ${pct(lat, 99).toFixed(0)} | ${(lat.length / wall).toFixed(1)} |`,
    );
    console.error(conc.at(-1));
  }
}

// A trainer's writes: one INSERT of 6 values per step (what metrics.recordStep and an ingested
// batch of one step do), with and without the rollup triggers, on a fresh run.
{
  const { project } = await createProjectWithRoles(db());
  const writeSteps = async (off: boolean) => {
    const run = await db().run.create({
      data: { projectId: project.id, kind: "sft", jobName: "train.sft", name: `writes-${off}`, config: {} },
    });
    if (off) await db().$executeRawUnsafe("ALTER TABLE metrics DISABLE TRIGGER metrics_rollups_insert");
    try {
      const lat: number[] = [];
      for (let step = 0; step < 500; step++) {
        const t = performance.now();
        await db().metric.createMany({
          data: names.map((name) => ({ runId: run.id, step, name, value: Math.sin(step) })),
          skipDuplicates: true,
        });
        lat.push(performance.now() - t);
      }
      return lat;
    } finally {
      if (off) await db().$executeRawUnsafe("ALTER TABLE metrics ENABLE TRIGGER metrics_rollups_insert");
    }
  };
  const without = await writeSteps(true);
  const withTier = await writeSteps(false);
  writes.push(
    `| without the rollup triggers | ${pct(without, 50).toFixed(1)} | ${pct(without, 99).toFixed(1)} |`,
    `| with them | ${pct(withTier, 50).toFixed(1)} | ${pct(withTier, 99).toFixed(1)} |`,
  );
  console.error(writes.join("\n"));
}
console.log(
  [
    "| points per series | read | Prisma + Node (ms, median) | SQL over rows | rollups (now) | rows / rollups |",
    "| ---: | --- | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    "| points per series | 6-series chart read | clients | p50 ms | p99 ms | charts/s |",
    "| ---: | --- | ---: | ---: | ---: | ---: |",
    ...conc,
    "",
    "| one step of 6 values, 500 steps | p50 ms | p99 ms |",
    "| --- | ---: | ---: |",
    ...writes,
  ].join("\n"),
);
await db().$disconnect();
