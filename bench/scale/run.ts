// The scale plan's load run (issue 42 item 7, docs/scale.md): one Postgres and one Redis holding
// 1M episodes and 10M metric points, serving N simulated workers and M page readers at once.
//
// Seed (bulk SQL, as the writers' rows look): a dataset of 100k samples plus a reserve the load
// stores into; 10 eval runs of 100k episodes (2 turns each; 2 runs live, with their tallies, 8
// finished) in two launch groups; 10 finished training runs of 20 series x 50k steps = 10M points,
// written through the rollup triggers.
// Load: writer processes (writer.ts, `--children` of them) run N loops that each do what one
// worker does per unit, through the real services and with no think time: an eval shard's sample
// (status check, sample row, storeEpisode with its tally, reportStoredProgress + PUBLISH) or a
// trainer's step (recordStep of 20 values, reportRunProgress + PUBLISH). This process plays the
// web server: M reader loops (a run page's 6-series chart of a 50k-step run through
// `readSeriesWindow`, a samples page of a live 100k run through `listSamples`, the groups list
// through `listGroups`) and the SSE relay (`onRunEvents`, counting events).
// Measured per phase: units/s, latencies, where Postgres' sessions spend their time (samples of
// pg_stat_activity every 100 ms), CPU by process (from /proc: Postgres and Redis are local),
// commits, WAL, Redis commands. Then the same load with `metrics` swapped for a hash-partitioned
// copy (16 partitions by run), to see what partitioning moves.
//   npx tsx bench/scale/run.ts [--episodes 1000000] [--points 10000000] [--workers 1,4,16,64]
//     [--readers 4] [--seconds 15] [--children 4] [--reuse] [--no-partition]
// Needs local Postgres and Redis; creates and migrates its own database paravt_bench_scale (kept
// for --reuse, which skips the seed), Redis db 12 / prefix paravt-bench-scale. Raw results:
// bench/out/scale/results.json.
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchEvalRunConfig } from "../lib/eval-config";
import { pct, prepareBenchDatabase, ROOT } from "../lib/bench-db";
import type { StartMsg, Timings } from "./writer";

const { values } = parseArgs({
  options: {
    episodes: { type: "string", default: "1000000" },
    points: { type: "string", default: "10000000" },
    workers: { type: "string", default: "1,4,16,64" },
    readers: { type: "string", default: "4" },
    seconds: { type: "string", default: "15" },
    warmup: { type: "string", default: "3" },
    children: { type: "string", default: "4" },
    reuse: { type: "boolean", default: false },
    "no-partition": { type: "boolean", default: false },
  },
});
const PER_RUN = 100_000; // episodes of an eval run = samples of the dataset the seed stores
const RESERVE = 100_000; // samples the load's eval loops store (never seeded)
const SERIES = 20;
const STEPS = 50_000; // steps of a seeded training run
const EVAL_RUNS = Math.max(1, Math.round(Number(values.episodes) / PER_RUN));
const TRAIN_RUNS = Math.max(1, Math.round(Number(values.points) / (SERIES * STEPS)));
const WORKERS = values.workers.split(",").map(Number);
const READERS = Number(values.readers);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const CHILDREN = Number(values.children);
const NAMES = Array.from({ length: SERIES }, (_, i) => `train/metric_${String(i).padStart(2, "0")}`);
const OUT = path.join(ROOT, "bench/out/scale");

const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const DB_NAME = "paravt_bench_scale";
process.env.DATABASE_URL = `${PG_BASE}/${DB_NAME}`;
process.env.REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/12";
process.env.REDIS_PREFIX = "paravt-bench-scale";
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
fs.mkdirSync(OUT, { recursive: true });
const SEED_FILE = path.join(OUT, "seed.json");
const reuse = values.reuse && fs.existsSync(SEED_FILE);
prepareBenchDatabase(DB_NAME, { fresh: !reuse });

// Imported after DATABASE_URL is set (the clients read it on first use).
const { createDb } = await import("@paravt/db");
const { db, evals, metrics, onRunEvents, projectAccess, redis, closeEventBus } = await import("@paravt/shared/server");
const { createProjectWithRoles } = await import("@paravt/db/factories");
type Access = Awaited<ReturnType<typeof projectAccess>>;

// ----- seed ----------------------------------------------------------------------------------------

interface Seed {
  projectId: string;
  editorId: string;
  evalRuns: { id: string; tag: string; live: boolean }[];
  trainRuns: string[];
  reserve: string[];
  seconds: Record<string, number>;
}

async function timedStep<T>(label: string, seconds: Record<string, number>, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await fn();
  seconds[label] = (performance.now() - t) / 1000;
  console.error(`seed: ${label} ${seconds[label]!.toFixed(1)} s`);
  return out;
}

async function seed(): Promise<Seed> {
  const seconds: Record<string, number> = {};
  const fx = await createProjectWithRoles(db());
  const tag = fx.project.id;
  const dataset = await db().dataset.create({ data: { projectId: fx.project.id, name: "scale" } });
  // The samples (as bench/evals: 60 % multiple choice with VideoMME duration groups, 20 % grounding,
  // 20 % open-ended, 400 characters of subtitles in the metadata).
  await timedStep(`samples (${(PER_RUN + RESERVE).toLocaleString()})`, seconds, () =>
    db().$executeRawUnsafe(
      `INSERT INTO samples (id, dataset_id, key, question, answer, question_type, metadata)
       SELECT $1 || '_s' || g, $2, 'q' || lpad(g::text, 7, '0'), 'Question ' || g || '? ' || repeat('What happens? ', 10), 'A',
              (CASE WHEN g % 5 < 3 THEN 'mcq' WHEN g % 5 = 3 THEN 'tvg' ELSE 'oe' END)::"QuestionType",
              jsonb_build_object('duration', (ARRAY['short', 'medium', 'long'])[1 + g % 3], 'subtitles', repeat('sub ', 100))
       FROM generate_series(1, $3::int) AS g`,
      tag,
      dataset.id,
      PER_RUN + RESERVE,
    ),
  );
  const sampleIds = Array.from({ length: PER_RUN }, (_, i) => `${tag}_s${i + 1}`);
  const reserve = Array.from({ length: RESERVE }, (_, i) => `${tag}_s${PER_RUN + i + 1}`);
  const evalRuns: Seed["evalRuns"] = [];
  for (let r = 0; r < EVAL_RUNS; r++) {
    // Two launch groups; the first run of each is live (RUNNING, summary from its tallies).
    const g = r % 2;
    const live = r < 2;
    const group = { id: `grp_scale_${tag}_${g}`, name: `scale ${g}` };
    const config = benchEvalRunConfig({ group, modelId: `model_${r}`, datasetId: dataset.id, sampleCount: PER_RUN });
    const run = await db().run.create({
      data: {
        projectId: fx.project.id,
        kind: "eval",
        jobName: "eval.run",
        name: `scale eval ${r}`,
        status: live ? "RUNNING" : "SUCCEEDED",
        config,
        ...(live ? {} : { summary: JSON.parse(JSON.stringify(evals.summarize([], PER_RUN))) }),
      },
    });
    await timedStep(`eval run ${r}: ${PER_RUN.toLocaleString()} sample ids`, seconds, () =>
      db().$transaction((tx) => evals.writeRunSamples(tx, run.id, sampleIds), { timeout: 120_000 }),
    );
    const rtag = `${tag}_r${r}`;
    evalRuns.push({ id: run.id, tag: rtag, live });
    // Episodes and turns as bench/evals writes them (5 % ERROR, no turns for those).
    await timedStep(`eval run ${r}: ${PER_RUN.toLocaleString()} episodes`, seconds, () =>
      db().$executeRawUnsafe(
        `INSERT INTO episodes (id, run_id, sample_id, k, prompt_mode, status, error, prediction, score, correct,
                               tool_call_count, overview_timestamps, details)
         SELECT $1 || '_e' || g, $2, $3 || '_s' || g, 64, 'agentic_general',
                (CASE WHEN g % 20 = 0 THEN 'ERROR' ELSE 'OK' END)::"EpisodeStatus",
                CASE WHEN g % 20 = 0 THEN 'connection reset' END, 'A',
                CASE WHEN g % 20 = 0 THEN NULL ELSE random() END,
                CASE WHEN g % 20 = 0 OR g % 33 = 0 THEN NULL ELSE random() < 0.6 END,
                g % 4, ARRAY(SELECT generate_series(0, 63)::float8 * 10), '{"engine": "openai"}'::jsonb
         FROM generate_series(1, $4::int) AS g`,
        rtag,
        run.id,
        tag,
        PER_RUN,
      ),
    );
    await timedStep(`eval run ${r}: turns`, seconds, () =>
      db().$executeRawUnsafe(
        `INSERT INTO turns (id, episode_id, index, raw_text, parse_issues, timings, forced_final)
         SELECT $1 || '_t' || g || '_' || i, $1 || '_e' || g, i,
                '<think>' || repeat('the clock is on the wall, look closer. ', 12) || '</think>' || E'\\n' ||
                CASE WHEN i = 0 THEN '<tool_call>{"name": "crop_video", "arguments": {"start_time": 10, "end_time": 20}}</tool_call>'
                     ELSE '<answer>A</answer>' END,
                '[]'::jsonb, '{"finish": "stop"}'::jsonb, false
         FROM generate_series(1, $2::int) AS g, generate_series(0, 1) AS i
         WHERE g % 20 <> 0`,
        rtag,
        PER_RUN,
      ),
    );
  }
  // Training runs: 20 series x 50k steps each, one INSERT per run through the rollup triggers,
  // two at a time (the machine has two cores).
  const trainRuns: string[] = [];
  for (let r = 0; r < TRAIN_RUNS; r++) {
    const run = await db().run.create({
      data: {
        projectId: fx.project.id,
        kind: "rl",
        jobName: "train.rl",
        name: `scale train ${r}`,
        status: "SUCCEEDED",
        config: {},
      },
    });
    trainRuns.push(run.id);
  }
  for (let r = 0; r < TRAIN_RUNS; r += 2) {
    await timedStep(
      `train runs ${r}-${Math.min(r + 1, TRAIN_RUNS - 1)}: ${SERIES} x ${STEPS} points each`,
      seconds,
      () =>
        Promise.all(
          trainRuns.slice(r, r + 2).map((id) =>
            db().$executeRawUnsafe(
              `INSERT INTO metrics (run_id, step, name, value, wall_time)
             SELECT $1, g, n, sin(g / 500.0 + k) + random() * 0.1 + k,
                    timestamp '2026-01-01' + g * interval '2 second'
             FROM generate_series(0, $2::int - 1) AS g, unnest($3::text[]) WITH ORDINALITY AS s(n, k)`,
              id,
              STEPS,
              NAMES,
            ),
          ),
        ),
    );
  }
  // The live runs' tallies, built once from their rows (what their first read does).
  await timedStep("tallies of the live runs", seconds, () =>
    evals.ensureTallied(evalRuns.filter((r) => r.live).map((r) => r.id)),
  );
  await timedStep("ANALYZE", seconds, () => db().$executeRawUnsafe("ANALYZE"));
  return { projectId: fx.project.id, editorId: fx.editor.id, evalRuns, trainRuns, reserve, seconds };
}

let S: Seed;
if (reuse) {
  S = JSON.parse(fs.readFileSync(SEED_FILE, "utf8")) as Seed;
  console.error(`reusing the seeded database (${SEED_FILE})`);
} else {
  const t = performance.now();
  S = await seed();
  S.seconds.total = (performance.now() - t) / 1000;
  fs.writeFileSync(SEED_FILE, JSON.stringify(S));
}
const access: Access = await projectAccess({ kind: "user", userId: S.editorId }, S.projectId);
const liveRuns = S.evalRuns.filter((r) => r.live);

// ----- what the machine does: CPU by process, Postgres' sessions, counters -------------------------

const TICK_MS = 10; // CLK_TCK is 100 on Linux
const probe = createDb(process.env.DATABASE_URL, { maxConnections: 1 });

function procCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) * TICK_MS; // utime + stime
  } catch {
    return null; // ended meanwhile
  }
}

/** Machine-wide CPU ticks (/proc/stat): busy, iowait, idle, steal. */
function machineTicks() {
  const f = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return { busy: user + nice + system + irq + softirq, iowait, idle, steal };
}

type Group = "pg backends" | "pg background" | "writers (node)" | "web (node)" | "redis";

async function pgPids(): Promise<Map<number, Group>> {
  const rows = await probe.$queryRaw<{ pid: number; datname: string | null }[]>`
    SELECT pid, datname::text AS datname FROM pg_stat_activity WHERE datname = current_database() OR datname IS NULL`;
  return new Map(rows.map((r) => [r.pid, r.datname ? "pg backends" : "pg background"] as const));
}

let writerPids: number[] = [];
let redisPid = 0;

async function cpuSnapshot() {
  const groups = new Map<number, Group>(await pgPids());
  for (const pid of writerPids) groups.set(pid, "writers (node)");
  groups.set(process.pid, "web (node)");
  if (redisPid) groups.set(redisPid, "redis");
  const ms = new Map<number, { group: Group; ms: number }>();
  for (const [pid, group] of groups) {
    const v = procCpuMs(pid);
    if (v !== null) ms.set(pid, { group, ms: v });
  }
  return { ms, machine: machineTicks(), at: performance.now() };
}

function cpuDelta(a: Awaited<ReturnType<typeof cpuSnapshot>>, b: Awaited<ReturnType<typeof cpuSnapshot>>) {
  const wall = b.at - a.at;
  const out: Record<string, number> = {};
  for (const [pid, { group, ms }] of b.ms) out[group] = (out[group] ?? 0) + ms - (a.ms.get(pid)?.ms ?? 0);
  // Percent of one core over the window; the machine's as a share of all its cores.
  const cores: Record<string, number> = {};
  for (const [g, v] of Object.entries(out)) cores[g] = (100 * v) / wall;
  const m = {
    busy: b.machine.busy - a.machine.busy,
    iowait: b.machine.iowait - a.machine.iowait,
    idle: b.machine.idle - a.machine.idle,
    steal: b.machine.steal - a.machine.steal,
  };
  const all = m.busy + m.iowait + m.idle + m.steal;
  const busyCoreMs = m.busy * TICK_MS; // /proc/stat's first line sums the ticks of every core
  const ours = Object.values(out).reduce((x, y) => x + y, 0);
  return {
    cpuMs: out,
    corePct: cores,
    machine: {
      busyPct: (100 * m.busy) / all,
      iowaitPct: (100 * m.iowait) / all,
      idlePct: (100 * m.idle) / all,
      stealPct: (100 * m.steal) / all,
      // Busy time of processes outside this benchmark (other jobs on the machine), in cores.
      otherCores: Math.max(0, busyCoreMs - ours) / wall,
    },
  };
}

async function pgCounters() {
  const [d] = await probe.$queryRaw<Record<string, bigint | number>[]>`
    SELECT xact_commit, xact_rollback, blks_read, blks_hit, tup_inserted, tup_updated, tup_fetched, deadlocks, temp_bytes
    FROM pg_stat_database WHERE datname = current_database()`;
  const [w] = await probe.$queryRaw<Record<string, bigint | number>[]>`
    SELECT wal_records, wal_fpi, wal_bytes::bigint AS wal_bytes, wal_write, wal_sync FROM pg_stat_wal`;
  const [b] = await probe.$queryRaw<Record<string, bigint | number>[]>`
    SELECT checkpoints_timed + checkpoints_req AS checkpoints, buffers_checkpoint, buffers_backend, buffers_backend_fsync
    FROM pg_stat_bgwriter`;
  return Object.fromEntries(Object.entries({ ...d, ...w, ...b }).map(([k, v]) => [k, Number(v)]));
}

async function redisCounters() {
  const info = await redis().info();
  const num = (k: string) => Number(new RegExp(`^${k}:([\\d.]+)`, "m").exec(info)?.[1] ?? NaN);
  return { commands: num("total_commands_processed"), cpuS: num("used_cpu_sys") + num("used_cpu_user") };
}

/**
 * Postgres' sessions of the bench database every 100 ms: active ones by wait event (none: on the
 * CPU), idle-in-transaction ones (a transaction open while the client works). The mean count per
 * sample is the "average active sessions" of each state; the statements waiting are kept too.
 */
function startSampler() {
  const counts = new Map<string, number>();
  const waits = new Map<string, number>();
  let samples = 0;
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const rows = await probe.$queryRaw<{ what: string; q: string }[]>`
        SELECT CASE WHEN state = 'active' THEN coalesce(wait_event_type || ':' || wait_event, 'CPU') ELSE state END AS what,
               left(regexp_replace(query, '\\s+', ' ', 'g'), 80) AS q
        FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
          AND state <> 'idle'`;
      samples++;
      for (const r of rows) {
        counts.set(r.what, (counts.get(r.what) ?? 0) + 1);
        if (r.what !== "CPU" && !r.what.startsWith("idle")) {
          const k = `${r.what} | ${r.q}`;
          waits.set(k, (waits.get(k) ?? 0) + 1);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return async () => {
    stop = true;
    await loop;
    const per = (m: Map<string, number>) =>
      Object.fromEntries([...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / Math.max(1, samples)]));
    return { samples, sessions: per(counts), topWaits: Object.fromEntries(Object.entries(per(waits)).slice(0, 6)) };
  };
}

// ----- the web server: readers and the event relay -------------------------------------------------

const READS = ["chart", "samples page", "groups"] as const;
type Read = (typeof READS)[number];

function readOnce(kind: Read, i: number): Promise<unknown> {
  if (kind === "chart") {
    const runId = S.trainRuns[i % S.trainRuns.length]!;
    return metrics.readSeriesWindow(access, { runId, names: NAMES.slice(0, 6), maxPoints: 1000, x: "step" });
  }
  if (kind === "samples page") {
    const run = liveRuns[i % liveRuns.length]!;
    // A page at a cursor somewhere in the run (first page, middle, near the end).
    const at = [0, PER_RUN / 2, PER_RUN - 100][i % 3]!;
    const cursor = at ? `${run.tag}_e${at}` : undefined;
    return evals.listSamples(access, { runId: run.id, limit: 50, ...(cursor ? { cursor } : {}) });
  }
  return evals.listGroups(access, { limit: 20 });
}

function startReaders(n: number) {
  const lat: Record<Read, number[]> = { chart: [], "samples page": [], groups: [] };
  const failed: string[] = [];
  let stop = false;
  const loops = Array.from({ length: n }, async (_, r) => {
    for (let i = r; !stop; i++) {
      const kind = READS[i % READS.length]!;
      const t = performance.now();
      try {
        await readOnce(kind, i);
        lat[kind].push(performance.now() - t);
      } catch (err) {
        if (failed.length < 10) failed.push(err instanceof Error ? err.message.slice(0, 200) : String(err));
      }
    }
  });
  return {
    reset: () => {
      for (const k of READS) lat[k] = [];
    },
    stop: async () => {
      const snapshot = structuredClone({ lat, failed });
      stop = true;
      await Promise.all(loops);
      return snapshot;
    },
  };
}

let events = 0;
const stopRelay = await onRunEvents(S.projectId, () => {
  events++;
});

// ----- writer processes ------------------------------------------------------------------------

type ChildMsg =
  { type: "ready" } | { type: "marked" } | { type: "timings"; timings: { eval: Timings; train: Timings } };
const children = Array.from({ length: CHILDREN }, () =>
  fork(path.join(ROOT, "bench/scale/writer.ts"), [], {
    execArgv: process.execArgv,
    env: { ...process.env, BENCH_SCALE_POOL: String(Math.ceil(Math.max(...WORKERS) / CHILDREN) + 1) },
  }),
);
function next(child: (typeof children)[number], type: ChildMsg["type"]): Promise<ChildMsg> {
  return new Promise((resolve) => {
    const on = (m: ChildMsg) => {
      if (m.type !== type) return;
      child.off("message", on);
      resolve(m);
    };
    child.on("message", on);
  });
}
await Promise.all(children.map((c) => next(c, "ready")));
writerPids = children.map((c) => c.pid!);
redisPid = Number(/^process_id:(\d+)/m.exec(await redis().info("server"))?.[1] ?? 0);

/** `total` loops over the children, as evenly as they go. */
function split(total: number): number[] {
  return children.map((_, c) => Math.floor(total / CHILDREN) + (c < total % CHILDREN ? 1 : 0));
}

// Rollout 0 is the seed's; an earlier invocation on a reused database stored some more.
let rolloutBase =
  1 +
  Number(
    (
      await db().$queryRaw<{ m: number | null }[]>`
        SELECT max(rollout_index) AS m FROM episodes WHERE run_id = ANY(${liveRuns.map((r) => r.id)}::text[])`
    )[0]?.m ?? 0,
  );
const results: Record<string, unknown>[] = [];

async function phase(
  label: string,
  o: { eval: number; train: number; readers: number; variant: string; wholeRow?: boolean },
) {
  const evalSplit = split(o.eval);
  const trainSplit = split(o.train);
  // Each trainer writes its own new RUNNING run, as a training job does.
  const trainRuns: string[] = [];
  for (let i = 0; i < o.train; i++) {
    const run = await db().run.create({
      data: {
        projectId: S.projectId,
        kind: "rl",
        jobName: "train.rl",
        name: `${label} trainer ${i}`,
        status: "RUNNING",
        startedAt: new Date(),
        config: {},
      },
    });
    trainRuns.push(run.id);
  }
  let trainAt = 0;
  children.forEach((c, k) => {
    const msg: StartMsg = {
      type: "start",
      evalLoops: evalSplit[k]!,
      trainLoops: trainSplit[k]!,
      evalRuns: liveRuns.map((r) => r.id),
      sampleIds: S.reserve,
      total: PER_RUN + RESERVE,
      rolloutBase,
      trainRuns: trainRuns.slice(trainAt, trainAt + trainSplit[k]!),
      wholeRow: o.wholeRow ?? false,
    };
    rolloutBase += evalSplit[k]!;
    trainAt += trainSplit[k]!;
    c.send(msg);
  });
  const readers = startReaders(o.readers);
  await new Promise((r) => setTimeout(r, WARMUP * 1000));
  // The window: from here to the stop.
  await Promise.all(children.map((c) => (c.send({ type: "mark" }), next(c, "marked"))));
  readers.reset();
  const events0 = events;
  const [cpu0, pg0, redis0] = [await cpuSnapshot(), await pgCounters(), await redisCounters()];
  const sampled = startSampler();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const wall = (performance.now() - t0) / 1000;
  const [cpu1, pg1, redis1] = [await cpuSnapshot(), await pgCounters(), await redisCounters()];
  const evs = events - events0;
  const timings = await Promise.all(
    children.map((c) => {
      const p = next(c, "timings");
      c.send({ type: "stop" });
      return p;
    }),
  );
  const read = await readers.stop();
  const sessions = await sampled();
  const merge = (kind: "eval" | "train") => {
    const all = timings.map((t) => (t as Extract<ChildMsg, { type: "timings" }>).timings[kind]);
    const parts: Record<string, number[]> = {};
    for (const t of all) for (const [k, v] of Object.entries(t.parts)) (parts[k] ??= []).push(...v);
    return {
      units: all.reduce((n, t) => n + t.units, 0),
      failed: all.reduce((n, t) => n + t.failed, 0),
      errors: all.flatMap((t) => t.errors).slice(0, 5),
      unit: all.flatMap((t) => t.unit),
      parts,
    };
  };
  const ev = merge("eval");
  const tr = merge("train");
  const stat = (xs: number[]) => ({ n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99) });
  const pgd = Object.fromEntries(Object.entries(pg1).map(([k, v]) => [k, (v - pg0[k]!) / wall]));
  const cpu = cpuDelta(cpu0, cpu1);
  const out = {
    label,
    ...o,
    seconds: wall,
    episodesPerS: ev.units / wall,
    stepsPerS: tr.units / wall,
    pointsPerS: (tr.units * SERIES) / wall,
    eventsPerS: evs / wall,
    failed: ev.failed + tr.failed,
    errors: [...ev.errors, ...tr.errors, ...read.failed].slice(0, 5),
    episode: stat(ev.unit),
    episodeParts: Object.fromEntries(Object.entries(ev.parts).map(([k, v]) => [k, stat(v)])),
    step: stat(tr.unit),
    stepParts: Object.fromEntries(Object.entries(tr.parts).map(([k, v]) => [k, stat(v)])),
    reads: {
      chart: stat(read.lat.chart),
      "samples page": stat(read.lat["samples page"]),
      groups: stat(read.lat.groups),
    } satisfies Record<Read, unknown>,
    readsPerS: READS.reduce((n, k) => n + read.lat[k].length, 0) / wall,
    cpu,
    pg: pgd,
    redis: {
      opsPerS: (redis1.commands - redis0.commands) / wall,
      cpuPct: (100 * (redis1.cpuS - redis0.cpuS)) / wall,
    },
    sessions,
  };
  results.push(out);
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "–");
  console.error(
    `${label}: ${out.episodesPerS.toFixed(1)} episodes/s, ${out.stepsPerS.toFixed(1)} steps/s, ` +
      `reads/s ${out.readsPerS.toFixed(1)}, episode p50/p99 ${f(out.episode.p50)}/${f(out.episode.p99)} ms, ` +
      `step ${f(out.step.p50)}/${f(out.step.p99)} ms, chart ${f(out.reads.chart.p50)}/${f(out.reads.chart.p99)}, ` +
      `pg ${f(cpu.corePct["pg backends"] ?? 0)} % of a core, machine busy ${f(cpu.machine.busyPct)} % ` +
      `(other jobs ${cpu.machine.otherCores.toFixed(2)} cores), sessions ${JSON.stringify(
        Object.fromEntries(Object.entries(sessions.sessions).map(([k, v]) => [k, Number(v.toFixed(2))])),
      )}${out.failed ? `, ${out.failed} failed: ${out.errors[0]}` : ""}`,
  );
  return out;
}

// ----- the hash-partitioned variant of `metrics` ---------------------------------------------------

const PARTS = 16;
async function partitionMetrics(): Promise<number> {
  const t = performance.now();
  const x = (sql: string) => db().$executeRawUnsafe(sql);
  await x("DROP TABLE IF EXISTS metrics_part");
  await x("CREATE TABLE metrics_part (LIKE metrics INCLUDING DEFAULTS) PARTITION BY HASH (run_id)");
  for (let i = 0; i < PARTS; i++)
    await x(
      `CREATE TABLE metrics_part_${i} PARTITION OF metrics_part FOR VALUES WITH (MODULUS ${PARTS}, REMAINDER ${i})`,
    );
  await x("INSERT INTO metrics_part SELECT * FROM metrics");
  // The same keys as `metrics` (the primary key must hold the partition key).
  await x("ALTER TABLE metrics_part ADD CONSTRAINT metrics_part_pkey PRIMARY KEY (run_id, id)");
  await x("CREATE UNIQUE INDEX metrics_part_run_name_step ON metrics_part (run_id, name, step)");
  await x("CREATE INDEX metrics_part_run_wall_time ON metrics_part (run_id, wall_time)");
  await x(
    "ALTER TABLE metrics_part ADD CONSTRAINT metrics_part_run_fkey FOREIGN KEY (run_id) REFERENCES runs(id) ON DELETE CASCADE ON UPDATE CASCADE",
  );
  await x("ANALYZE metrics_part");
  await db().$transaction([
    db().$executeRawUnsafe("ALTER TABLE metrics RENAME TO metrics_flat"),
    db().$executeRawUnsafe("ALTER TABLE metrics_part RENAME TO metrics"),
    db().$executeRawUnsafe(
      `CREATE TRIGGER metrics_rollups_insert AFTER INSERT ON metrics REFERENCING NEW TABLE AS new_points
       FOR EACH STATEMENT EXECUTE FUNCTION paravt_metric_rollups_add()`,
    ),
  ]);
  return (performance.now() - t) / 1000;
}
/** Back to the plain table (the trainers' rows written meanwhile go with the copy). */
async function unpartitionMetrics(): Promise<void> {
  await db().$transaction([
    db().$executeRawUnsafe("DROP TABLE metrics"),
    db().$executeRawUnsafe("ALTER TABLE metrics_flat RENAME TO metrics"),
  ]);
}

// ----- the run ---------------------------------------------------------------------------------

// A run stopped during the partitioned phases left the copy in place: back to the plain table.
const [leftover] = await db().$queryRaw<{ flat: boolean }[]>`SELECT to_regclass('metrics_flat') IS NOT NULL AS flat`;
if (leftover?.flat) await unpartitionMetrics();

const sizes = await db().$queryRaw<{ rel: string; rows: bigint; mb: number }[]>`
  SELECT c.relname::text AS rel, c.reltuples::bigint AS rows, round(pg_total_relation_size(c.oid) / 1048576.0)::float8 AS mb
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 8`;
const dbMb = (
  await db().$queryRaw<{ mb: number }[]>`SELECT round(pg_database_size(current_database()) / 1048576.0)::float8 AS mb`
)[0]!.mb;
console.error(`database ${dbMb} MB: ${sizes.map((s) => `${s.rel} ${s.mb} MB`).join(", ")}`);

const v = "plain";
await phase("readers alone", { eval: 0, train: 0, readers: READERS, variant: v });
for (const n of WORKERS) await phase(`eval x${n}`, { eval: n, train: 0, readers: READERS, variant: v });
{
  const n = WORKERS.includes(16) ? 16 : Math.max(...WORKERS);
  await phase(`eval x${n}, event row with config (before the fix)`, {
    eval: n,
    train: 0,
    readers: READERS,
    variant: v,
    wholeRow: true,
  });
}
for (const n of WORKERS) await phase(`train x${n}`, { eval: 0, train: n, readers: READERS, variant: v });
const top = Math.max(...WORKERS);
await phase(`mixed ${top / 2}+${top / 2}, no readers`, { eval: top / 2, train: top / 2, readers: 0, variant: v });
await phase(`mixed ${top / 2}+${top / 2}`, { eval: top / 2, train: top / 2, readers: READERS, variant: v });
let partitionS: number | null = null;
if (!values["no-partition"]) {
  partitionS = await partitionMetrics();
  console.error(`metrics copied into ${PARTS} hash partitions in ${partitionS.toFixed(1)} s`);
  try {
    const p = "partitioned";
    await phase("partitioned: readers alone", { eval: 0, train: 0, readers: READERS, variant: p });
    await phase(`partitioned: train x${top}`, { eval: 0, train: top, readers: READERS, variant: p });
    await phase(`partitioned: mixed ${top / 2}+${top / 2}`, {
      eval: top / 2,
      train: top / 2,
      readers: READERS,
      variant: p,
    });
  } finally {
    await unpartitionMetrics();
  }
}

fs.writeFileSync(
  path.join(OUT, "results.json"),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} x ${os.cpus()[0]?.model}, ${Math.round(os.totalmem() / 2 ** 30)} GB`,
      args: values,
      seed: S.seconds,
      sizes: sizes.map((x) => ({ ...x, rows: Number(x.rows) })),
      dbMb,
      partitionS,
      results,
    },
    null,
    2,
  ),
);

// ----- tables ----------------------------------------------------------------------------------

type R = Awaited<ReturnType<typeof phase>>;
const rs = results as unknown as R[];
const n0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "");
const n1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : "");
const lat = (s: { n: number; p50: number; p99: number }) => (s.n ? `${n0(s.p50)} / ${n0(s.p99)}` : "");
const core = (r: R, g: string) => n0(r.cpu.corePct[g] ?? 0);
const topSessions = (r: R) =>
  Object.entries(r.sessions.sessions)
    .slice(0, 4)
    .map(([k, v]) => `${k} ${v.toFixed(1)}`)
    .join(", ");
console.log(
  [
    `database ${dbMb.toLocaleString()} MB; ${sizes.map((s) => `${s.rel} ${Number(s.rows).toLocaleString()} rows ${s.mb} MB`).join("; ")}`,
    "",
    "| phase | episodes/s | steps/s (points/s) | events/s | episode p50 / p99 ms | step p50 / p99 ms | chart p50 / p99 | samples page p50 / p99 | groups p50 / p99 | reads/s |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rs.map(
      (r) =>
        `| ${r.label} | ${n1(r.episodesPerS)} | ${n1(r.stepsPerS)} (${n0(r.pointsPerS)}) | ${n1(r.eventsPerS)} | ${lat(r.episode)} | ${lat(r.step)} | ${lat(r.reads.chart)} | ${lat(r.reads["samples page"])} | ${lat(r.reads.groups)} | ${n1(r.readsPerS)} |`,
    ),
    "",
    "| phase | pg backends % core | pg background | writers (node) | web (node) | redis | other jobs (cores) | machine busy / iowait / idle % | commits/s | WAL MB/s | WAL syncs/s | blocks read/s | redis ops/s |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...rs.map(
      (r) =>
        `| ${r.label} | ${core(r, "pg backends")} | ${core(r, "pg background")} | ${core(r, "writers (node)")} | ${core(r, "web (node)")} | ${core(r, "redis")} | ${r.cpu.machine.otherCores.toFixed(2)} | ${n0(r.cpu.machine.busyPct)} / ${n0(r.cpu.machine.iowaitPct)} / ${n0(r.cpu.machine.idlePct)} | ${n0(r.pg.xact_commit!)} | ${n1(r.pg.wal_bytes! / 1048576)} | ${n0(r.pg.wal_sync!)} | ${n0(r.pg.blks_read!)} | ${n0(r.redis.opsPerS)} |`,
    ),
    "",
    "| phase | episode parts p50 / p99 ms | step parts p50 / p99 ms |",
    "| --- | --- | --- |",
    ...rs
      .filter((r) => r.episode.n || r.step.n)
      .map(
        (r) =>
          `| ${r.label} | ${Object.entries(r.episodeParts)
            .map(([k, x]) => `${k} ${lat(x)}`)
            .join(", ")} | ${Object.entries(r.stepParts)
            .map(([k, x]) => `${k} ${lat(x)}`)
            .join(", ")} |`,
      ),
    "",
    "| phase | Postgres sessions (mean count per state: CPU, wait events, idle in transaction) | top waiting statements |",
    "| --- | --- | --- |",
    ...rs.map(
      (r) =>
        `| ${r.label} | ${topSessions(r)} | ${Object.entries(r.sessions.topWaits)
          .slice(0, 2)
          .map(([k, v]) => `${k.replace(/\|/g, "\\|")} (${v.toFixed(2)})`)
          .join("; ")} |`,
    ),
  ].join("\n"),
);

await Promise.all(children.map((c) => new Promise((r) => (c.once("exit", r), c.send({ type: "exit" })))));
await stopRelay();
await closeEventBus();
await redis().quit();
await probe.$disconnect();
await db().$disconnect();
