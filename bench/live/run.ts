// Live updates of a run page at the size of real runs (issue 42 item 1): what the server spends per
// run event, and how long a new point takes to reach the page, at 1k / 100k / 1M points per series,
// before (every event refetched every query of the page, whole series included, no coalescing)
// and after (the event says what changed: the row is patched from it, each chart asks only for the
// points after its last step, bursts are coalesced per run), in the same run on the same rows.
//   npx tsx bench/live/run.ts [--sizes 1000,100000,1000000] [--events 10] [--rate 10] [--seconds 10]
//                              [--before-latency-max 100000] [--drain-s 120]
// Needs Postgres (local: its backends' CPU is read from /proc) and Redis; creates and migrates its
// own database paravt_bench_live, Redis db 11 with prefix paravt-bench-live.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { pct, prepareBenchDatabase, seedSineSeries } from "../lib/bench-db";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,100000,1000000" },
    events: { type: "string", default: "10" },
    rate: { type: "string", default: "10" },
    seconds: { type: "string", default: "10" },
    "before-latency-max": { type: "string", default: "100000" },
    "drain-s": { type: "string", default: "120" },
  },
});
const SIZES = values.sizes.split(",").map(Number);
const EVENTS = Number(values.events);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const BEFORE_LATENCY_MAX = Number(values["before-latency-max"]);
const DRAIN_MS = Number(values["drain-s"]) * 1000;
/** The series train.sft writes (workers/src/handlers/handle-train-sft.ts). */
const SERIES = ["grad_norm", "loss", "lr", "step_time_ms", "token_accuracy", "tokens_per_s"];
/** What the run page's summary panel reads of an SFT run (components/runs/run-config.ts). */
const SUMMARY = ["loss", "token_accuracy"];

const PG_BASE = process.env.BENCH_PG_URL ?? "postgresql://postgres@127.0.0.1:5432";
const DB_NAME = "paravt_bench_live";
process.env.DATABASE_URL = `${PG_BASE}/${DB_NAME}`;
process.env.REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/11";
process.env.REDIS_PREFIX = "paravt-bench-live";
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
prepareBenchDatabase(DB_NAME);

// Imported after the environment is set (clients read it on first use).
const { closeEventBus, db, metrics, redis, runEvents, runs } = await import("@paravt/shared/server");
const shared = await import("@paravt/shared");
const { createCaller } = await import("@paravt/api");
const { createProjectWithRoles } = await import("@paravt/db/factories");
type MetricQueryOutput = import("@paravt/shared").MetricQueryOutput;
type RunEvent = import("@paravt/shared").RunEvent;
type Caller = ReturnType<typeof createCaller>;

// ----- server CPU: this process (the web server's work: tRPC, services, the relay) + Postgres ----

const TICK_MS = 1000 / Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);

/** CPU ms of every Postgres backend of the bench database (from /proc: Postgres is local). */
async function pgCpuMs(): Promise<Map<number, number>> {
  const rows = await db().$queryRaw<{ pid: number }[]>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database()`;
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS); // utime, stime
    } catch {
      // the backend ended meanwhile
    }
  }
  return out;
}

async function cpuMark() {
  return { node: process.cpuUsage(), pg: await pgCpuMs() };
}
/** CPU ms spent since `mark`: this process, and the database's backends. */
async function cpuSince(mark: Awaited<ReturnType<typeof cpuMark>>) {
  const node = process.cpuUsage(mark.node);
  const pg = await pgCpuMs();
  let pgMs = 0;
  for (const [pid, ms] of pg) pgMs += ms - (mark.pg.get(pid) ?? 0);
  return { node: (node.user + node.system) / 1000, pg: pgMs };
}

// ----- the run page, as the browser's query cache sees it --------------------------------------

type Mode = "before" | "after";
type QueryName = "byId" | "metricNames" | "dashboard" | "summary";

/**
 * The queries of an SFT run's page (the run row, its series list, the 6-series dashboard at 600
 * points, the summary panel at 5000) and what the page does on an event: `before`, refetch every
 * one (TanStack's invalidation cancels a fetch in flight and starts again, and the abandoned
 * request still runs on the server); `after`, `liveRunPlan` and the chart appends of
 * @paravt/shared, as apps/web/src/lib/apply-run-event.ts applies them.
 */
class Page {
  data: Partial<Record<QueryName, unknown>> = {};
  private gen: Record<QueryName, number> = { byId: 0, metricNames: 0, dashboard: 0, summary: 0 };
  private inflight = new Set<Promise<unknown>>();
  private chains = new Map<QueryName, Promise<void>>();
  requests = 0;
  onChange: () => void = () => undefined;

  constructor(
    private caller: Caller,
    private ref: { projectId: string; runId: string },
    private mode: Mode,
  ) {}

  private chartInput(q: "dashboard" | "summary") {
    return q === "dashboard"
      ? { ...this.ref, names: SERIES, maxPoints: 600, x: "step" as const }
      : { ...this.ref, names: SUMMARY, maxPoints: 5000, x: "step" as const };
  }

  private read(q: QueryName): Promise<unknown> {
    this.requests++;
    if (q === "byId") return this.caller.runs.byId(this.ref);
    if (q === "metricNames") return this.caller.runs.metricNames(this.ref);
    return this.caller.runs.metrics(this.chartInput(q));
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p)).catch(() => undefined);
    return p;
  }

  /** A fetch whose answer lands only if no later fetch of the query started meanwhile. */
  refetch(q: QueryName): Promise<void> {
    const gen = ++this.gen[q];
    return this.track(
      this.read(q).then((d) => {
        if (gen !== this.gen[q]) return;
        this.data[q] = d;
        this.onChange();
      }),
    );
  }

  async mount() {
    await Promise.all((["byId", "metricNames", "dashboard", "summary"] as const).map((q) => this.refetch(q)));
  }

  onEvent(e: RunEvent) {
    if (this.mode === "before") {
      for (const q of ["byId", "metricNames", "dashboard", "summary"] as const) void this.refetch(q);
      return;
    }
    const plan = shared.liveRunPlan(e);
    if (plan.patchRows && this.data.byId) this.data.byId = shared.patchRunRow(this.data.byId as { id: string }, e);
    for (const r of plan.refresh) {
      if (r.family === "runs.byId") void this.refetch("byId");
      if (r.family === "runs.metricNames") void this.refetch("metricNames");
      if (r.family === "runs.metrics") for (const q of ["dashboard", "summary"] as const) void this.refetch(q);
    }
    const change = plan.metrics;
    if (!change) return;
    const names = this.data.metricNames as { name: string }[] | undefined;
    if (shared.metricNamesLack(names, change)) void this.refetch("metricNames");
    for (const q of ["dashboard", "summary"] as const) {
      const next = (this.chains.get(q) ?? Promise.resolve()).then(() => this.append(q, change));
      this.chains.set(q, next);
      void this.track(next);
    }
  }

  private async append(
    q: "dashboard" | "summary",
    change: NonNullable<ReturnType<typeof shared.liveRunPlan>["metrics"]>,
  ) {
    const input = this.chartInput(q);
    const request = shared.metricsAppendRequest(input, this.data[q] as MetricQueryOutput | undefined, change);
    if (request.action === "skip") return;
    if (request.action === "refetch") return this.refetch(q);
    this.requests++;
    const { names: _names, ...read } = input;
    const since = await this.caller.runs.metricsSince({
      ...read,
      series: request.series,
      untilStep: request.untilStep,
    });
    const merged = shared.appendSince(this.data[q] as MetricQueryOutput, since, request.series, input.maxPoints);
    if (!merged) return this.refetch(q);
    this.data[q] = merged;
    this.onChange();
  }

  /** The last step the dashboard shows (of `loss`). */
  shownStep(): number {
    const loss = (this.data.dashboard as MetricQueryOutput | undefined)?.find((s) => s.name === "loss");
    return loss?.steps.at(-1) ?? 0;
  }

  idle() {
    return this.inflight.size === 0;
  }

  async settle(timeoutMs: number): Promise<boolean> {
    const end = performance.now() + timeoutMs;
    while (!this.idle()) {
      if (performance.now() > end) return false;
      await Promise.race([...this.inflight, sleep(50)]).catch(() => undefined);
    }
    return true;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => pct(xs, 50);
/** CPU per event is a mean: /proc counts whole ticks (10 ms), which only averages out. */
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

// ----- one size --------------------------------------------------------------------------------

async function seed(n: number) {
  const fx = await createProjectWithRoles(db());
  const run = await db().run.create({
    data: {
      projectId: fx.project.id,
      kind: "sft",
      jobName: "train.sft",
      name: `live-${n}`,
      config: {},
      status: "RUNNING",
      startedAt: new Date(),
    },
  });
  for (const name of SERIES) {
    await seedSineSeries((sql, ...v) => db().$executeRawUnsafe(sql, ...v), run.id, name, n);
  }
  await db().$executeRawUnsafe("ANALYZE metrics");
  return { caller: createCaller({ principal: { kind: "user", userId: fx.owner.id }, user: null }), run };
}

/** A trainer's step as train.sft stores and announces it. */
async function writeStep(runId: string, step: number, total: number) {
  const values = Object.fromEntries(SERIES.map((s, i) => [s, Math.sin(step / 500) + i]));
  const written = await metrics.recordStep(runId, step, values);
  await runs.reportRunProgress(runId, Math.min(0.99, step / total), `step ${step}/${total}`, { metrics: written! });
}

interface Result {
  n: number;
  mode: Mode;
  perEvent?: { cpuMs: number[]; nodeMs: number[]; pgMs: number[]; requests: number; wallMs: number[] };
  latency?: { ms: number[]; written: number; shown: number; cpuPerEventMs: number; requests: number; drained: boolean };
}

async function measure(n: number, mode: Mode, next: { step: number }): Promise<Result> {
  const { caller, run } = await seedOnce(n);
  const ref = { projectId: run.projectId, runId: run.id };
  const page = new Page(caller, ref, mode);
  await page.mount();
  const abort = new AbortController();
  const stream = runEvents(run.projectId, abort.signal, { coalesceMs: mode === "before" ? 0 : undefined });
  const it = stream[Symbol.asyncIterator]();
  await it.next(); // subscribed
  const pump = (async () => {
    for (;;) {
      const m = await it.next();
      if (m.done) return;
      if (m.value.type === "run" && m.value.event.runId === run.id) page.onEvent(m.value.event);
    }
  })();
  const total = n + 1_000_000;
  const result: Result = { n, mode };

  // Warm-up (plans, connections, JIT), not measured.
  for (let i = 0; i < 2; i++) {
    const step = ++next.step;
    await sleep(300);
    await writeStep(run.id, step, total);
    while (page.shownStep() < step || !page.idle()) await sleep(2);
  }

  // 1) Server CPU per event, one event at a time: from the step's publish until the page shows it.
  const perEvent = {
    cpuMs: [] as number[],
    nodeMs: [] as number[],
    pgMs: [] as number[],
    requests: 0,
    wallMs: [] as number[],
  };
  const eventsHere = mode === "before" && n >= 1_000_000 ? Math.min(EVENTS, 3) : EVENTS;
  const req0 = page.requests;
  for (let i = 0; i < eventsHere; i++) {
    const step = ++next.step;
    // Wait out the coalescing window of the previous step, so each event is one leading event.
    if (mode === "after") await sleep(300);
    await writeStep(run.id, step, total);
    const t = performance.now();
    const mark = await cpuMark();
    while (page.shownStep() < step || !page.idle()) await sleep(2);
    const wall = performance.now() - t;
    const cpu = await cpuSince(mark);
    perEvent.nodeMs.push(cpu.node);
    perEvent.pgMs.push(cpu.pg);
    perEvent.cpuMs.push(cpu.node + cpu.pg);
    perEvent.wallMs.push(wall);
  }
  perEvent.requests = (page.requests - req0) / eventsHere;
  result.perEvent = perEvent;

  // 2) Point-to-screen latency at RATE events/s for SECONDS.
  if (mode === "after" || n <= BEFORE_LATENCY_MAX) {
    const writtenAt = new Map<number, number>();
    const latencies: number[] = [];
    page.onChange = () => {
      const shown = page.shownStep();
      const now = performance.now();
      for (const [s, t] of writtenAt) {
        if (s <= shown) {
          latencies.push(now - t);
          writtenAt.delete(s);
        }
      }
    };
    const req1 = page.requests;
    const mark = await cpuMark();
    const count = RATE * SECONDS;
    const start = performance.now();
    for (let i = 0; i < count; i++) {
      const due = start + (i * 1000) / RATE;
      if (performance.now() < due) await sleep(due - performance.now());
      const step = ++next.step;
      writtenAt.set(step, performance.now());
      await writeStep(run.id, step, total);
    }
    // Every point on screen, then every request the page sent settled (abandoned ones included).
    const end = performance.now() + DRAIN_MS;
    while (writtenAt.size > 0 && performance.now() < end) await sleep(20);
    const drained = (await page.settle(Math.max(0, end - performance.now()))) && writtenAt.size === 0;
    const cpu = await cpuSince(mark);
    result.latency = {
      ms: latencies,
      written: count,
      shown: count - writtenAt.size,
      cpuPerEventMs: (cpu.node + cpu.pg) / count,
      requests: (page.requests - req1) / count,
      drained,
    };
    page.onChange = () => undefined;
  }
  abort.abort();
  await it.return?.(undefined);
  await pump.catch(() => undefined);
  await page.settle(DRAIN_MS);
  return result;
}

const seeded = new Map<number, Awaited<ReturnType<typeof seed>>>();
async function seedOnce(n: number) {
  let s = seeded.get(n);
  if (!s) {
    const t = performance.now();
    s = await seed(n);
    console.error(
      `seeded ${SERIES.length} x ${n.toLocaleString()} points in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    seeded.set(n, s);
  }
  return s;
}

// ----- all sizes, both ways --------------------------------------------------------------------

await db().$executeRawUnsafe("TRUNCATE metrics");
const results: Result[] = [];
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : "–");
for (const n of SIZES) {
  // Same run for both: "after" first, then "before" continues at the next steps.
  const next = { step: n };
  for (const mode of ["after", "before"] as const) {
    const r = await measure(n, mode, next);
    results.push(r);
    const e = r.perEvent!;
    const l = r.latency;
    console.error(
      `${n} ${mode}: cpu/event mean ${fmt(mean(e.cpuMs))} ms (node ${fmt(mean(e.nodeMs))}, pg ${fmt(mean(e.pgMs))}), ` +
        `${e.requests.toFixed(1)} requests/event, event to screen ${fmt(median(e.wallMs))} ms` +
        (l
          ? `; at ${RATE}/s: p50 ${fmt(median(l.ms))} p95 ${fmt(pct(l.ms, 95))} max ${fmt(Math.max(...l.ms))} ms, ` +
            `${l.shown}/${l.written} shown, cpu/event ${fmt(l.cpuPerEventMs)} ms, ${l.requests.toFixed(2)} requests/event${l.drained ? "" : " (not drained)"}`
          : ""),
    );
  }
}

const row = (r: Result) => {
  const e = r.perEvent!;
  const l = r.latency;
  return [
    r.n.toLocaleString(),
    r.mode,
    `${fmt(mean(e.cpuMs))} (${fmt(mean(e.nodeMs))} + ${fmt(mean(e.pgMs))})`,
    e.requests.toFixed(1),
    fmt(median(e.wallMs)),
    l ? `${fmt(median(l.ms))} / ${fmt(pct(l.ms, 95))}` : "(skipped)",
    l ? `${l.shown}/${l.written}` : "",
    l ? fmt(l.cpuPerEventMs) : "",
  ];
};
console.log(
  [
    `| points per series | page | server CPU per event, ms, mean (node + postgres) | requests per event | event to screen, ms, median | at ${RATE} events/s: latency p50 / p95, ms | points shown | server CPU per event at ${RATE}/s, ms |`,
    "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...results.map((r) => `| ${row(r).join(" | ")} |`),
  ].join("\n"),
);
fs.mkdirSync(new URL("../out/live/", import.meta.url), { recursive: true });
fs.writeFileSync(new URL("../out/live/results.json", import.meta.url), JSON.stringify(results, null, 1));
await closeEventBus();
await redis().quit();
await db().$disconnect();
process.exit(0);
