// What one chart read costs the web server when the chart cache already holds it (issue 42 item 2):
// a 6-series chart (maxPoints 1000, the whole run) of one run, read through tRPC's fetch handler
// as the web route serves it (URL and input parsing, the membership check, the cache hit, zod
// output validation, the transformer, the JSON body), 300 reads one after another and 50 clients
// reading 6 each, twice. The series' length does not matter to a hit (the cache holds the
// downsampled answer); N sets it. Prints the Node CPU per chart, latencies and charts/s.
//
// Usage (from the repository root; Postgres running): npx tsx bench/metrics/trpc-hit.ts
// (N=20000 points per series, MP=1000 points asked). Results: bench/metrics/README.md.
import { pct, prepareBenchDatabase, seedSineSeries } from "../lib/bench-db";
import { trpcChartReader } from "../lib/trpc-chart";

const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
process.env.DATABASE_URL = `${PG_BASE}/paravt_bench_trpc_hit`;
process.env.REDIS_URL ??= "redis://127.0.0.1:6379/11";
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
prepareBenchDatabase("paravt_bench_trpc_hit");

// Imported after DATABASE_URL is set (the client reads it on first use).
const { db } = await import("@paravt/shared/server");
const { createProjectWithRoles } = await import("@paravt/db/factories");
const { appRouter } = await import("@paravt/api");

const N = Number(process.env.N ?? 20_000);
const fx = await createProjectWithRoles(db());
const run = await db().run.create({
  data: { projectId: fx.project.id, kind: "sft", jobName: "train.sft", name: "trpc-hit", config: {} },
});
const names = Array.from({ length: 6 }, (_, s) => `series_${s}`);
for (const name of names) {
  await seedSineSeries((sql, ...v) => db().$executeRawUnsafe(sql, ...v), run.id, name, N);
}
const chart = { runId: run.id, names, maxPoints: Number(process.env.MP ?? 1000), x: "step" as const };
const read = () => trpcChartReader(appRouter, fx.project.id, fx.owner.id)(chart);
console.log(`body: ${(await read()).byteLength} bytes`); // the first read fills the cache
for (const mode of ["one after another", "50 clients", "one after another", "50 clients"]) {
  const lat: number[] = [];
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const timed = async () => {
    const s = performance.now();
    await read();
    lat.push(performance.now() - s);
  };
  if (mode === "50 clients") {
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        for (let i = 0; i < 6; i++) await timed();
      }),
    );
  } else {
    for (let i = 0; i < 300; i++) await timed();
  }
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - t0;
  console.log(
    `${mode}: ${((used.user + used.system) / 1000 / lat.length).toFixed(2)} ms of CPU a chart, ` +
      `p50 ${pct(lat, 50).toFixed(1)} p99 ${pct(lat, 99).toFixed(1)} ms, ${((lat.length / wall) * 1000).toFixed(0)} charts/s`,
  );
}
await db().$disconnect();
process.exit(0);
