// Chart reads at the size of real runs (issue 42 item 2): a run page's metric read
// (`readSeriesWindow`: the whole series and a zoom window, maxPoints 1000) with the downsampling in
// Postgres, against the read it replaced, in the same run on the same rows: every row of the series
// through Prisma, then the min/max downsampling in Node (`downsampleMinMax`, still exported), and
// the time zero as an aggregate over the run's metrics. Then N concurrent clients each reading a
// 6-series chart.
//   npx tsx bench/metrics/run.ts [--sizes 10000,100000,1000000] [--reps 5] [--clients 10]
// Needs Postgres; creates and migrates its own database paravt_bench_metrics.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

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
const root = fileURLToPath(new URL("../..", import.meta.url));
const made = spawnSync("createdb", ["-h", "127.0.0.1", "-U", "postgres", DB_NAME], { encoding: "utf8" });
if (made.status !== 0 && !/already exists/.test(made.stderr)) throw new Error(`createdb: ${made.stderr}`);
const mig = spawnSync("npx", ["--no-install", "tsx", "prisma/scripts/migrate.ts"], {
  cwd: root,
  env: process.env,
  encoding: "utf8",
});
if (mig.status !== 0) throw new Error(`migrate: ${mig.stdout}\n${mig.stderr}`);

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

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
async function time(fn: () => Promise<unknown>, reps: number): Promise<number[]> {
  await fn(); // warm: plans, connections, caches
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

const rows: string[] = [];
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
  // Same answer size and the spike kept, both ways.
  const [a] = await after()();
  const [b] = await before()();
  if (Math.max(...a!.points.map((p) => p.value)) !== Math.max(...b!.points.map((p) => p.value)))
    throw new Error("the two reads disagree on the series' maximum");
  for (const [label, f0, f1] of [
    ["1 series, whole run", before(), after()],
    ["1 series, zoom 5 %", before(zoom), after(zoom)],
  ] as const) {
    const t0 = await time(f0, REPS);
    const t1 = await time(f1, REPS);
    rows.push(
      `| ${n.toLocaleString()} | ${label} | ${pct(t0, 50).toFixed(0)} | ${pct(t1, 50).toFixed(0)} | ${(pct(t0, 50) / pct(t1, 50)).toFixed(1)}x |`,
    );
    console.error(rows.at(-1));
  }
  // CLIENTS concurrent clients, each reading the 6-series chart REPS times.
  for (const [label, read] of [
    ["before", () => readBefore(runId, names)],
    ["after", () => metrics.readSeriesWindow(access, { runId, names, maxPoints: MAX_POINTS, x: "step" })],
  ] as const) {
    if (label === "before" && n > 100_000) continue; // minutes per round at 1M: measured single-client above
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
    rows.push(
      `| ${n.toLocaleString()} | 6-series chart, ${CLIENTS} clients (${label}) | p50 ${pct(lat, 50).toFixed(0)} / p99 ${pct(lat, 99).toFixed(0)} | ${(lat.length / wall).toFixed(1)} charts/s | |`,
    );
    console.error(rows.at(-1));
  }
}
console.log(
  [
    "| points per series | read | before (ms, median) | after (ms, median) | before / after |",
    "| ---: | --- | ---: | ---: | ---: |",
    ...rows,
  ].join("\n"),
);
await db().$disconnect();
