// What the database benchmarks share: their own database, created and migrated before the
// workbench's modules are imported (the clients read DATABASE_URL on first use), and the
// percentile / repeated-timing helpers their tables are made of.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Creates database `name` if it is missing (or afresh with `fresh`) and applies the migrations
 * (prisma/scripts/migrate.ts) with the caller's process.env, whose DATABASE_URL must name it.
 */
export function prepareBenchDatabase(name: string, opts: { fresh?: boolean } = {}): void {
  const pg = ["-h", "127.0.0.1", "-U", "postgres"];
  if (opts.fresh) spawnSync("dropdb", [...pg, "--if-exists", name], { encoding: "utf8" });
  const made = spawnSync("createdb", [...pg, name], { encoding: "utf8" });
  if (made.status !== 0 && !/already exists/.test(made.stderr)) throw new Error(`createdb: ${made.stderr}`);
  const mig = spawnSync("npx", ["--no-install", "tsx", "prisma/scripts/migrate.ts"], {
    cwd: ROOT,
    env: process.env,
    encoding: "utf8",
  });
  if (mig.status !== 0) throw new Error(`migrate: ${mig.stdout}\n${mig.stderr}`);
}

/** The p-th percentile (nearest rank) of `xs`; NaN when empty. */
export function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** `reps` timings of `fn` in ms after one warm-up call (plans, connections, caches). */
export async function time(fn: () => Promise<unknown>, reps: number): Promise<number[]> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** What writes SQL: `db().$executeRawUnsafe` of the workbench's client (imported after DATABASE_URL). */
type ExecuteSql = (sql: string, ...values: unknown[]) => Promise<unknown>;

/**
 * Series `name` of run `runId`: steps 1..n of a noisy sine, one second apart from 2026-01-01, in
 * one INSERT … SELECT (through the metrics triggers, as any writer).
 */
export async function seedSineSeries(execute: ExecuteSql, runId: string, name: string, n: number): Promise<void> {
  await execute(
    `INSERT INTO metrics (run_id, step, name, value, wall_time)
     SELECT $1, g, $2, sin(g / 500.0) + random() * 0.1, timestamp '2026-01-01' + g * interval '1 second'
     FROM generate_series(1, $3::int) AS g`,
    runId,
    name,
    n,
  );
}
