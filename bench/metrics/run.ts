// Chart reads at the size of real runs (issue 42 item 2): a run page's metric read
// (`readSeriesWindow`: the whole series and a zoom window, maxPoints 1000) against the reads
// before it, in the same run on the same rows: (1) every row of the series through Prisma,
// min/max downsampling in Node (`downsampleMinMax`); (2) the same downsampling in SQL over the
// window's rows (width_bucket); (3) the first rollup read: one Prisma statement per series over
// `metric_rollups`, the kept points' times looked up in `metrics`, 8 statements per 6-series chart.
// Then N concurrent clients reading a 6-series chart: all the same chart (what many people on one
// run's page ask: the chart cache answers), every read another zoom window (no cache help), in the
// service and through the tRPC handler (HTTP request parsing, membership check, zod output,
// transformer, JSON); and what the triggers cost a trainer's writes (one step of 6 values per
// INSERT).
//   npx tsx bench/metrics/run.ts [--sizes 10000,100000,1000000] [--reps 5] [--clients 10]
// Needs Postgres (local: its backends' CPU is read from /proc); creates and migrates its own
// database paravt_bench_metrics.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { pct, prepareBenchDatabase, time } from "../lib/bench-db";
import { trpcChartReader } from "../lib/trpc-chart";

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
const { seriesPoints } = await import("@paravt/shared");
const { Prisma } = await import("@paravt/db");
const { createProjectWithRoles } = await import("@paravt/db/factories");
const { appRouter } = await import("@paravt/api");
type Access = Parameters<typeof metrics.readSeriesWindow>[0];
type Window = { from: number; to: number };

/** The read before the rollups and before SQL downsampling, kept here as the baseline. */
async function readBefore(runId: string, names: string[], range?: Window) {
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
 * The read before the rollups (readOneSeries over raw rows), kept as a baseline: the head of the
 * window, its last point, the extremes of each width_bucket over every row, their times.
 */
async function readRawSql(runId: string, names: string[], range?: Window) {
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

/**
 * The first rollup read (metrics.ts before the chart cache), kept as a baseline: the run's project
 * check and time zero through Prisma, one probe statement for all series, then per series one
 * Prisma statement that downsamples (from `metric_rollups` for a long span) and looks the kept
 * points' times up in `metrics` (8 statements for 6 series). Step windows only.
 */
async function readRollupsBefore(projectId: string, runId: string, names: string[], range?: Window) {
  const run = await db().run.findFirst({ where: { id: runId, projectId }, select: { id: true } });
  if (!run) throw new Error("no run");
  const first = await db().metric.findFirst({
    where: { runId },
    orderBy: { wallTime: "asc" },
    select: { wallTime: true },
  });
  const t0 = first?.wallTime.getTime() ?? 0;
  const win = range ? Prisma.sql`AND step BETWEEN ${Math.ceil(range.from)} AND ${Math.floor(range.to)}` : Prisma.empty;
  const probes = await db().$queryRaw<{ name: string; lo: number | null; hi: number | null; more: number | null }[]>`
    SELECT s.name,
      (SELECT step FROM metrics WHERE run_id = ${runId} AND name = s.name ${win} ORDER BY step LIMIT 1) AS lo,
      (SELECT step FROM metrics WHERE run_id = ${runId} AND name = s.name ${win} ORDER BY step DESC LIMIT 1) AS hi,
      (SELECT step FROM metrics WHERE run_id = ${runId} AND name = s.name ${win} ORDER BY step OFFSET ${MAX_POINTS} LIMIT 1) AS more
    FROM unnest(${names}::text[]) AS s(name)`;
  const buckets = Math.floor((MAX_POINTS - 1) / 2);
  return Promise.all(
    probes.map(async ({ name, lo, hi, more }) => {
      if (lo === null || hi === null) return { name, total: 0, points: [] };
      type Arrays = { steps: number[] | null; vals: number[] | null; ms: number[] | null; total: number };
      const toPoints = (r: Arrays | undefined) =>
        (r?.steps ?? []).map((step, i) => ({ step, value: r!.vals![i]!, t: (r!.ms![i]! - t0) / 1000 }));
      if (more === null) {
        const [all] = await db().$queryRaw<Arrays[]>`
          SELECT array_agg(step ORDER BY step) AS steps, array_agg(value ORDER BY step) AS vals,
                 array_agg(extract(epoch FROM wall_time) * 1000 ORDER BY step)::float8[] AS ms, count(*)::int AS total
          FROM metrics WHERE run_id = ${runId} AND name = ${name} ${win}`;
        return { name, total: all?.total ?? 0, points: toPoints(all) };
      }
      let level: number | null = null;
      for (const l of [4, 7, 10, 13]) if ((hi - lo + 1) / 2 ** l >= 2 * buckets) level = l;
      let extremes = Prisma.sql`
        SELECT min(ARRAY[value, step::float8]) AS low, max(ARRAY[value, -step::float8]) AS high, count(*)::int AS n
        FROM metrics WHERE run_id = ${runId} AND name = ${name} ${win}
        GROUP BY width_bucket(step, ${lo}, ${hi + 1}, ${buckets})`;
      if (level !== null) {
        const width = 2 ** level;
        const firstWhole = Math.ceil(lo / width);
        const lastWhole = Math.floor((hi + 1) / width) - 1;
        extremes = Prisma.sql`
          SELECT min(low) AS low, max(high) AS high, sum(n)::int AS n
          FROM (
            SELECT bucket << level AS first_step, n,
                   ARRAY[min_value, min_step::float8] AS low, ARRAY[max_value, -max_step::float8] AS high
            FROM metric_rollups
            WHERE run_id = ${runId} AND name = ${name} AND level = ${level}
              AND bucket >= ${firstWhole} AND bucket <= ${lastWhole}
            UNION ALL
            SELECT step, 1, ARRAY[value, step::float8], ARRAY[value, -step::float8]
            FROM metrics WHERE run_id = ${runId} AND name = ${name}
              AND ((step >= ${lo} AND step < ${firstWhole * width}) OR (step > ${(lastWhole + 1) * width - 1} AND step <= ${hi}))
          ) parts
          GROUP BY width_bucket(first_step, ${lo}, ${hi + 1}, ${buckets})`;
      }
      const [kept] = await db().$queryRaw<Arrays[]>`
        WITH ext AS (${extremes}),
        kept AS (SELECT (low[2])::int AS step FROM ext UNION SELECT (-high[2])::int FROM ext UNION SELECT ${hi}::int)
        SELECT array_agg(m.step ORDER BY m.step) AS steps, array_agg(m.value ORDER BY m.step) AS vals,
               array_agg(extract(epoch FROM m.wall_time) * 1000 ORDER BY m.step)::float8[] AS ms,
               (SELECT sum(n) FROM ext)::int AS total
        FROM kept JOIN metrics m ON m.run_id = ${runId} AND m.name = ${name} AND m.step = kept.step`;
      return { name, total: kept?.total ?? 0, points: toPoints(kept) };
    }),
  );
}

/** A run with SERIES series of n steps each, written in one INSERT … SELECT (1 s per step). */
async function seed(n: number) {
  const fx = await createProjectWithRoles(db());
  const run = await db().run.create({
    data: { projectId: fx.project.id, kind: "sft", jobName: "train.sft", name: `bench-${n}`, config: {} },
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
  await db().$executeRawUnsafe("ANALYZE metric_rollups");
  // readSeriesWindow reads only the project id of its access (the router checked membership).
  const access = { projectId: fx.project.id, role: "OWNER" } as unknown as Access;
  return { access, runId: run.id, projectId: fx.project.id, userId: fx.owner.id };
}

// ----- CPU: this process (the web server's work) and the database's backends -------------------

/** CPU ms of every Postgres backend of the bench database (from /proc: Postgres is local). */
async function pgCpuMs(): Promise<Map<number, number>> {
  const rows = await db().$queryRaw<{ pid: number }[]>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database()`;
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10); // utime, stime at 100 Hz
    } catch {
      // the backend ended meanwhile
    }
  }
  return out;
}
async function cpuMark() {
  return { node: process.cpuUsage(), pg: await pgCpuMs() };
}
async function cpuSince(mark: Awaited<ReturnType<typeof cpuMark>>) {
  const node = process.cpuUsage(mark.node);
  const pg = await pgCpuMs();
  let pgMs = 0;
  for (const [pid, ms] of pg) pgMs += ms - (mark.pg.get(pid) ?? 0);
  return { node: (node.user + node.system) / 1000, pg: pgMs };
}

const rows: string[] = [];
const conc: string[] = [];
const writes: string[] = [];
const names = Array.from({ length: SERIES }, (_, s) => `series_${s}`);
for (const n of SIZES) {
  const t = performance.now();
  const { access, runId, projectId, userId } = await seed(n);
  console.error(`seeded ${SERIES} x ${n.toLocaleString()} points in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const zoom = { from: Math.floor(n * 0.4), to: Math.floor(n * 0.45) };
  const now = (range?: Window) => () =>
    metrics.readSeriesWindow(access, {
      runId,
      names: names.slice(0, 1),
      maxPoints: MAX_POINTS,
      x: "step",
      ...(range ? { range } : {}),
    });
  // The database read of the chart, every time (the cache emptied before each).
  const uncached = (range?: Window) => () => {
    metrics.clearChartCache();
    return now(range)();
  };
  const before = (range?: Window) => () => readBefore(runId, names.slice(0, 1), range);
  const rawSql = (range?: Window) => () => readRawSql(runId, names.slice(0, 1), range);
  const rollupsBefore = (range?: Window) => () => readRollupsBefore(projectId, runId, names.slice(0, 1), range);
  // Same answer, every way: the points (the rule is the same), the count, the spike kept.
  for (const range of [undefined, zoom]) {
    const [a, b, c, d] = [
      (await uncached(range)()).map((s) => ({ name: s.name, total: s.total, points: seriesPoints(s) })),
      await before(range)(),
      await rawSql(range)(),
      await rollupsBefore(range)(),
    ];
    const maxOf = (r: typeof b) => Math.max(...r[0]!.points.map((p) => p.value));
    if (new Set([maxOf(a), maxOf(b), maxOf(c), maxOf(d)]).size !== 1)
      throw new Error("the reads disagree on the maximum");
    if (new Set([a[0]!.total, b[0]!.total, c[0]!.total, d[0]!.total]).size !== 1)
      throw new Error("the reads disagree on the count");
    const triples = (r: typeof b) => JSON.stringify(r[0]!.points.map((p) => [p.step, p.value, p.t]));
    if (triples(a) !== triples(d)) throw new Error("the rollup reads disagree");
  }
  for (const [label, range] of [
    ["1 series, whole run", undefined],
    ["1 series, zoom 5 %", zoom],
  ] as const) {
    const t0 = n > 100_000 && REPS > 3 ? await time(before(range), 3) : await time(before(range), REPS); // s per read at 1M
    const t1 = await time(rawSql(range), REPS);
    const t2 = await time(rollupsBefore(range), REPS);
    const t3 = await time(uncached(range), REPS);
    const t4 = await time(now(range), REPS);
    const m = (xs: number[]) => pct(xs, 50);
    rows.push(
      `| ${n.toLocaleString()} | ${label} | ${m(t0).toFixed(0)} | ${m(t1).toFixed(0)} | ${m(t2).toFixed(1)} | ${m(t3).toFixed(1)} | ${m(t4).toFixed(2)} |`,
    );
    console.error(rows.at(-1));
  }

  // CLIENTS concurrent clients, each reading the 6-series chart REPS times. Distinct windows:
  // read i of the load is its own window (spans of 2-92 % of the run, starts spread over it),
  // so no two reads share a cache entry.
  const chart = { runId, names, maxPoints: MAX_POINTS, x: "step" as const };
  let k = 0;
  const nextWindow = (): Window => {
    const i = k++;
    const span = Math.floor(n * (0.02 + ((i * 37) % 91) / 100));
    const from = 1 + Math.floor(((i * 7919) % 1000) * ((n - span) / 1000)) + (i % 7);
    return { from, to: from + span };
  };
  const viaTrpc = trpcChartReader(appRouter, projectId, userId);
  const loads: [string, () => Promise<unknown>, boolean][] = [
    ["SQL over rows (1 + 4 statements per series)", () => readRawSql(runId, names), false],
    ["rollups, 8 statements (before)", () => readRollupsBefore(projectId, runId, names), false],
    [
      "now, distinct windows (no cache)",
      () => metrics.readSeriesWindow(access, { ...chart, range: nextWindow() }),
      false,
    ],
    ["now, same chart (cache)", () => metrics.readSeriesWindow(access, chart), true],
    ["now via tRPC, distinct windows", () => viaTrpc({ ...chart, range: nextWindow() }), false],
    ["now via tRPC, same chart", () => viaTrpc(chart), true],
  ];
  for (const [label, read, warm] of loads) {
    if (label.startsWith("SQL over rows") && n > 100_000 && CLIENTS > 5) continue; // minutes per round at 1M
    metrics.clearChartCache();
    if (warm) await read(); // the chart someone already opened
    const hitsBefore = metrics.chartCacheStats().hits;
    const lat: number[] = [];
    const cpu = await cpuMark();
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
    const used = await cpuSince(cpu);
    const per = (ms: number) => (ms / lat.length).toFixed(1);
    const hits = metrics.chartCacheStats().hits - hitsBefore;
    const cached = label.startsWith("now") ? `${((100 * hits) / lat.length).toFixed(0)} %` : "–";
    conc.push(
      `| ${n.toLocaleString()} | ${label} | ${CLIENTS} | ${pct(lat, 50).toFixed(0)} | ${pct(lat, 99).toFixed(0)} | ${(lat.length / wall).toFixed(1)} | ${per(used.node)} | ${per(used.pg)} | ${cached} |`,
    );
    console.error(conc.at(-1));
  }
}

// A trainer's writes: one INSERT of 6 values per step (what metrics.recordStep and an ingested
// batch of one step do), with no triggers, with the rollup triggers only (before the watermark),
// and with both, each on a fresh run.
{
  const { project } = await createProjectWithRoles(db());
  const TRIGGERS = {
    none: ["metrics_rollups_insert", "metrics_watermark_insert"],
    rollups: ["metrics_watermark_insert"],
    both: [],
  };
  const writeSteps = async (which: keyof typeof TRIGGERS) => {
    const run = await db().run.create({
      data: { projectId: project.id, kind: "sft", jobName: "train.sft", name: `writes-${which}`, config: {} },
    });
    for (const t of TRIGGERS[which]) await db().$executeRawUnsafe(`ALTER TABLE metrics DISABLE TRIGGER ${t}`);
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
      for (const t of TRIGGERS[which]) await db().$executeRawUnsafe(`ALTER TABLE metrics ENABLE TRIGGER ${t}`);
    }
  };
  for (const [which, label] of [
    ["none", "no triggers"],
    ["rollups", "the rollup triggers (before)"],
    ["both", "rollups + watermark (now)"],
  ] as const) {
    const lat = await writeSteps(which);
    writes.push(`| ${label} | ${pct(lat, 50).toFixed(1)} | ${pct(lat, 99).toFixed(1)} |`);
  }
  console.error(writes.join("\n"));
}
console.log(
  [
    "| points per series | read | Prisma + Node | SQL over rows | rollups, before | now, uncached | now, cached |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows,
    "",
    "| points per series | 6-series chart read | clients | p50 ms | p99 ms | charts/s | Node CPU ms/chart | Postgres CPU ms/chart | from the cache |",
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...conc,
    "",
    "| one step of 6 values, 500 steps, with | p50 ms | p99 ms |",
    "| --- | ---: | ---: |",
    ...writes,
  ].join("\n"),
);
await db().$disconnect();
