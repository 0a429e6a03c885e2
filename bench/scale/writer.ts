// One simulated worker process of bench/scale/run.ts: `loops` concurrent writer loops, each doing
// what one worker of the workbench does per unit of work, through the same services, with no
// think time (so the figures are what the database and Redis can absorb, not what a model makes):
// - `eval`: one sample of an eval shard (handle-eval-shard.ts): the run's status check, the
//   sample's row, `storeEpisode` (episode + 2 turns + 1 tool call and its tally, one
//   transaction), `reportStoredProgress` (stored count from the tallies, the run row, a Redis
//   PUBLISH of the run event);
// - `train`: one training step (handle-train-sft.ts / handle-train-rl.ts): `metrics.recordStep` of
//   20 values (the rollup triggers run in its INSERT), then `reportRunProgress` with what it
//   wrote (the run row, a PUBLISH).
// Started by run.ts with fork(); takes `start` / `stop` messages and answers with its timings.
// Each loop holds at most one connection at a time, so the pool is sized to the loops: a loop
// stands for a worker process of its own (which has a pool of 10 but uses one or two).
import { createDb } from "@paravt/db";
import type { evals as Evals } from "@paravt/shared/server";

const POOL = Number(process.env.BENCH_SCALE_POOL ?? "16");
(globalThis as unknown as { __paravtDb?: unknown }).__paravtDb = createDb(process.env.DATABASE_URL!, {
  maxConnections: POOL,
});
const { evals, metrics, runs, db, publishRunEvent } = await import("@paravt/shared/server");

export interface StartMsg {
  type: "start";
  evalLoops: number;
  trainLoops: number;
  /** eval: the live runs the loops store into (loop i: evalRuns[i % evalRuns.length]). */
  evalRuns: string[];
  /** eval: the sample ids a loop walks (the dataset's reserve, never stored by the seed). */
  sampleIds: string[];
  /** eval: the run's sample count (the progress denominator). */
  total: number;
  /** eval: loop i stores rollout rolloutBase + i, so no two loops of any start share a key. */
  rolloutBase: number;
  /** train: the RUNNING runs the loops write steps to (loop i: trainRuns[i]). */
  trainRuns: string[];
  /** eval: report progress with `wholeRowProgress` (before the fix) instead of `evals.reportStoredProgress`. */
  wholeRow: boolean;
}
export interface Timings {
  kind: "eval" | "train";
  units: number;
  /** ms per unit (one episode or one step) and per part. */
  unit: number[];
  parts: Record<string, number[]>;
  failed: number;
  errors: string[];
}

const NAMES = Array.from({ length: 20 }, (_, i) => `train/metric_${String(i).padStart(2, "0")}`);
const THINK = `<think>${"the clock is on the wall, look closer. ".repeat(12)}</think>\n`;

function episode(sampleId: string, rolloutIndex: number, i: number): Evals.EpisodeRecord {
  const ok = i % 20 !== 0;
  return {
    sampleId,
    rolloutIndex,
    modelId: null,
    k: 64,
    promptMode: "agentic_general",
    status: ok ? "OK" : "ERROR",
    error: ok ? null : "connection reset",
    finalText: ok ? `${THINK}<answer>A</answer>` : null,
    prediction: ok ? "A" : null,
    score: ok ? (i % 3) / 2 : null,
    correct: ok ? i % 5 < 3 : null,
    overviewTimestamps: Array.from({ length: 64 }, (_, t) => t * 10),
    timings: { totalMs: 2000 },
    tokenCounts: { prompt: 1200, completion: 180 },
    details: { engine: "openai" },
    turns: ok
      ? [0, 1].map((index) => ({
          index,
          rawText:
            THINK +
            (index
              ? "<answer>A</answer>"
              : '<tool_call>{"name": "crop_video", "arguments": {"start_time": 10, "end_time": 20}}</tool_call>'),
          forcedPrefix: null,
          forcedFinal: false,
          parsedCalls: [],
          parseIssues: [],
          promptTokens: 600,
          completionTokens: 90,
          timings: { finish: "stop" },
          toolCalls: index
            ? []
            : [
                {
                  index: 0,
                  name: "crop_video",
                  arguments: { start_time: 10, end_time: 20 },
                  startS: 10,
                  endS: 20,
                  clamped: false,
                  frameTimestamps: [10, 12.5, 15, 17.5, 20],
                  subAgentOutput: "A clock on the wall shows 3:15.",
                  status: "OK" as const,
                  error: null,
                  durationMs: 800,
                  details: null,
                },
              ],
        }))
      : [],
  };
}

/**
 * `evals.reportStoredProgress` as it was before the fix: the run row read back for the event with
 * its `config` (the event needs none of it). The baseline of the fix, measured when an eval run's
 * config held its sample ids (~3 MB at 100k samples, read and parsed after every stored episode);
 * they are rows of `eval_run_samples` since, so this baseline now reads a config of a few hundred
 * bytes and no longer reproduces that cost.
 */
async function wholeRowProgress(runId: string, total: number, stored: number): Promise<number> {
  const count = await evals.countStored(runId);
  const fraction = Math.min(0.99, total ? count / total : 0);
  const res = await db().run.updateMany({
    where: { id: runId, status: "RUNNING", progress: { lt: fraction } },
    data: { progress: fraction, message: `${count}/${total} samples` },
  });
  if (res.count) {
    const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
    await publishRunEvent(runs.toEvent(run, { episodes: { count: stored } }));
  } else await evals.assertRunActive(runId);
  return count;
}

let stopping = false;
let running: Promise<unknown> | null = null;
let eval_: Timings = fresh("eval");
let train: Timings = fresh("train");

function fresh(kind: Timings["kind"]): Timings {
  return { kind, units: 0, unit: [], parts: {}, failed: 0, errors: [] };
}

async function timed<T>(parts: Record<string, number[]>, name: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await fn();
  (parts[name] ??= []).push(performance.now() - t);
  return out;
}

async function evalLoop(m: StartMsg, loop: number): Promise<void> {
  const runId = m.evalRuns[loop % m.evalRuns.length]!;
  const rollout = m.rolloutBase + loop;
  for (let i = 0; !stopping; i++) {
    const sampleId = m.sampleIds[i % m.sampleIds.length]!;
    const t = performance.now();
    // `eval_` is read at each use: a `mark` message swaps in fresh timings mid-loop.
    await unit(
      () => eval_,
      async () => {
        await timed(eval_.parts, "status check", () => evals.assertRunActive(runId));
        await timed(eval_.parts, "sample row", () => db().sample.findUnique({ where: { id: sampleId } }));
        await timed(eval_.parts, "storeEpisode", () => evals.storeEpisode(runId, episode(sampleId, rollout, i)));
        await timed(eval_.parts, "reportStoredProgress", () =>
          m.wholeRow ? wholeRowProgress(runId, m.total, 1) : evals.reportStoredProgress(runId, m.total, 1),
        );
      },
    );
    eval_.unit.push(performance.now() - t);
  }
}

async function trainLoop(m: StartMsg, loop: number): Promise<void> {
  const runId = m.trainRuns[loop]!;
  for (let step = 0; !stopping; step++) {
    const t = performance.now();
    const values = Object.fromEntries(NAMES.map((n, k) => [n, Math.sin(step / 50 + k) + k]));
    await unit(
      () => train,
      async () => {
        const written = await timed(train.parts, "recordStep", () => metrics.recordStep(runId, step, values));
        await timed(train.parts, "reportRunProgress", () =>
          runs.reportRunProgress(
            runId,
            Math.min(0.99, step / 1e6),
            `step ${step}`,
            written ? { metrics: written } : {},
          ),
        );
      },
    );
    train.unit.push(performance.now() - t);
  }
}

/** One unit of work; a failure (a deadlock, a timeout) is counted and the loop goes on, as a retry would. */
async function unit(out: () => Timings, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
    out().units++;
  } catch (err) {
    const o = out();
    o.failed++;
    if (o.failed === 1) console.error(`writer ${process.pid}: ${err instanceof Error ? err.stack : String(err)}`);
    if (o.errors.length < 20) o.errors.push(err instanceof Error ? err.message.slice(0, 300) : String(err));
    // A failure that comes back at once would otherwise starve the event loop (and its messages).
    await new Promise((r) => setTimeout(r, 10));
  }
}

process.on("message", (raw) => {
  const m = raw as StartMsg | { type: "mark" } | { type: "stop" } | { type: "exit" };
  if (m.type === "start") {
    stopping = false;
    eval_ = fresh("eval");
    train = fresh("train");
    running = Promise.all([
      ...Array.from({ length: m.evalLoops }, (_, i) => evalLoop(m, i)),
      ...Array.from({ length: m.trainLoops }, (_, i) => trainLoop(m, i)),
    ]);
  } else if (m.type === "mark") {
    // The measured window starts now (connections opened, plans cached).
    eval_ = fresh("eval");
    train = fresh("train");
    process.send!({ type: "marked" });
  } else if (m.type === "stop") {
    // What completes after the stop is not the window's: the answer is the timings as of now.
    const done = structuredClone({ eval: eval_, train });
    stopping = true;
    void running!.then(() => process.send!({ type: "timings", timings: done }));
  } else {
    void db()
      .$disconnect()
      .finally(() => process.exit(0));
  }
});
process.send!({ type: "ready" });
