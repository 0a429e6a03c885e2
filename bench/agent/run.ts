// Benchmark of the agentic episode (@paravt/agent) and of evaluation throughput (workers), each
// part comparing against a baseline measured in the same run. Model: the committed default nano
// checkpoint (packages/nano/checkpoints/default) on onnxruntime (OrtNanoBackend), the backend the
// eval workers (workers/src/eval-sample.ts) and `paravt nano serve` use by default; the C++ core
// (CoreNanoBackend, `--backend core`) is kept as a baseline arm in part 1.
//   --part parallel  one episode with N crop_video calls (N = 1, 3, 5), crops and sub-agents
//                    with `concurrency: N` vs `concurrency: 1`, on nano in-process (NanoEngine on
//                    onnxruntime, and on the C++ core) and on the nano server (createNanoServer on
//                    onnxruntime + OpenAIEngine).
//   --part frames    frame pipeline cost per episode (overview K = 8, 16, 64 + 3 crops):
//                    videoFrameSampler time vs model time (onnxruntime), without a FrameCache and
//                    with a warm one.
//   --part eval      samples/s of a 200-sample suite eval (nano, agentic_general, K 8) with 1 and
//                    2 real worker processes (Postgres + Redis + BullMQ), launched via launchEval;
//                    the workers open the model themselves (onnxruntime).
// Usage (from the repository root):
//   npx tsx bench/agent/run.ts [--part parallel|frames|eval|all] [--reps 5] [--samples 200] [--eval-reps 1]
// The eval part needs Postgres and Redis; it uses its own database (default
// postgresql://postgres@127.0.0.1:5432/paravt_bench, created + migrated beforehand with
// `DATABASE_URL=... npx tsx prisma/scripts/migrate.ts`), Redis db 12 and the prefix paravt-bench.
// Results: bench/agent/README.md.

import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  runEpisode,
  videoFrameSampler,
  type ChatEngine,
  type Completion,
  type CompletionRequest,
  type FrameSampler,
  type Trajectory,
} from "@paravt/agent";
import { call, textOf, writeTinySuite } from "../../packages/agent/src/test-support";
import { FrameCache, generateTestVideo, probe } from "@paravt/video";
import { CHECKPOINT, nanoEngines } from "./engines";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const outDir = resolve(here, "../out/agent");

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
const PART = flag("part", "all");
const REPS = Number(flag("reps", "5"));
const SAMPLES = Number(flag("samples", "200"));
const EVAL_REPS = Number(flag("eval-reps", "1"));
if (!["parallel", "frames", "eval", "all"].includes(PART)) throw new Error(`unknown --part ${PART}`);
if (!(REPS >= 1 && SAMPLES >= 1 && EVAL_REPS >= 1)) throw new Error("--reps, --samples, --eval-reps must be >= 1");

/** Sub-agent token budget: small so a sub-agent that does not stop early ends in bounded time. */
const SUB_MAX_TOKENS = 128;
/** 12-s windows of the 64-s tiny-suite video (1 fps, SPEC §1.4: 12 frames each). */
const WINDOWS: [number, number][] = [
  [0, 12],
  [12, 24],
  [24, 36],
  [36, 48],
  [48, 60],
];

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f0 = (x: number) => x.toFixed(0);
const f2 = (x: number) => x.toFixed(2);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

/**
 * The 1-min load average sampled every 5 s while a part runs: other jobs share this machine, so
 * each table says how loaded it was, not only at its start.
 */
function loadDuring(): () => string {
  const xs = [loadavg()[0]!];
  const timer = setInterval(() => xs.push(loadavg()[0]!), 5000);
  return () => {
    clearInterval(timer);
    xs.push(loadavg()[0]!);
    return `1-min load avg during the part: ${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)} (mean ${mean(xs).toFixed(1)}, ${xs.length} samples)`;
  };
}

function isToolRound(r: CompletionRequest): boolean {
  return r.messages.some((m) => m.role === "user" && textOf(m).includes("<tool_response>"));
}

/**
 * The main agent of part 1: emits exactly `n` canonical calls in turn 1 and an answer once the
 * responses are back, so N is controlled exactly; it costs ~0 ms, so the episode's wall time is
 * the frames + sub-agents of the tool round (the real nano engine) plus the runner.
 */
class ScriptedMain implements ChatEngine {
  readonly description = "scripted main agent";
  readonly promptPreset = "nano" as const;
  constructor(private readonly n: number) {}
  async complete(requests: readonly CompletionRequest[]): Promise<Completion[]> {
    return requests.map((r) => {
      const text = isToolRound(r)
        ? "<answer>A</answer>"
        : WINDOWS.slice(0, this.n)
            .map(([s, e]) => call(s, e))
            .join("\n");
      return { text, promptTokens: 0, completionTokens: 0, finish: "stop", latencyMs: 0 };
    });
  }
  async close(): Promise<void> {}
}

/**
 * The main agent of part 2: the real nano engine generates every turn (so the model time of a
 * K-frame prompt is real), but its turn-1 text is replaced by 3 canonical calls (the default
 * checkpoint's own calls vary in number with K and the question), so every episode has the same
 * crops.
 */
class NanoDrivenMain implements ChatEngine {
  readonly description: string;
  readonly promptPreset = "nano" as const;
  constructor(
    private readonly inner: ChatEngine,
    private readonly n: number,
  ) {
    this.description = `${inner.description} (turn-1 calls scripted)`;
  }
  get tokenCounter() {
    return this.inner.tokenCounter;
  }
  async complete(requests: readonly CompletionRequest[], o?: { signal?: AbortSignal }): Promise<Completion[]> {
    const out = await this.inner.complete(requests, o);
    return out.map((c, i) =>
      isToolRound(requests[i]!)
        ? c
        : {
            ...c,
            text: WINDOWS.slice(0, this.n)
              .map(([s, e]) => call(s, e))
              .join("\n"),
          },
    );
  }
  async close(): Promise<void> {}
}

/** Separates overview time from crop time (the trajectory only has their sum). */
function timedSampler(inner: FrameSampler) {
  const t = { overviewMs: 0, cropMs: 0 };
  const s: FrameSampler = {
    duration: (...a) => inner.duration(...a),
    async overview(...a) {
      const t0 = performance.now();
      try {
        return await inner.overview(...a);
      } finally {
        t.overviewMs += performance.now() - t0;
      }
    },
    crop: (...a) => inner.crop(...a),
  };
  return { sampler: s, t };
}

function checked(t: Trajectory, crops: number): Trajectory {
  if (t.status !== "ok") throw new Error(`episode failed: ${t.error?.stage} ${t.error?.message}`);
  const ok = t.turns[0]?.toolCalls.filter((c) => c.status === "OK").length ?? 0;
  if (ok !== crops) throw new Error(`expected ${crops} OK crops, got ${ok}: ${JSON.stringify(t.turns[0]?.toolCalls)}`);
  return t;
}

async function partParallel(): Promise<void> {
  const suite = await writeTinySuite();
  const q = suite.plan.questions[0]!;
  const ort = await nanoEngines("ort");
  const core = await nanoEngines("core");
  const input = { video: { file: `${suite.dir}/${q.video}`, path: q.video }, question: q.question };
  const frames = videoFrameSampler(); // what the eval workers use (default accuracy knob)
  console.log(`\n### 1. One episode with N crops: parallel (concurrency N) vs sequential (concurrency 1)\n`);
  console.log(
    `${REPS} reps each, alternating order, K 8, sub-agent max ${SUB_MAX_TOKENS} tokens; load avg ${load()}\n`,
  );
  console.log(
    "| sub-agent engine | N | sequential ms | parallel ms | seq / par | crop frames ms seq / par | sub-agent ms seq / par | sub-agent tokens (prompt / completion) |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const [name, sub] of [
    ["NanoEngine (in-process), onnxruntime", ort.direct],
    ["OpenAIEngine -> nano server, onnxruntime", ort.http],
    ["NanoEngine (in-process), C++ core", core.direct],
  ] as const) {
    for (const n of [1, 3, 5]) {
      const run = async (concurrency: number) => {
        const { sampler, t } = timedSampler(frames);
        const traj = checked(
          await runEpisode({
            engine: new ScriptedMain(n),
            subAgentEngine: sub,
            input,
            frames: sampler,
            config: { k: 8, concurrency, subAgentMaxTokens: SUB_MAX_TOKENS, thinkPrefix: true },
          }),
          n,
        );
        return { traj, cropMs: traj.timings.framesMs - t.overviewMs };
      };
      await run(n); // warm-up: probe, decoder, thumbnails
      const seq: Awaited<ReturnType<typeof run>>[] = [];
      const par: typeof seq = [];
      for (let r = 0; r < REPS; r++) {
        if (r % 2) {
          par.push(await run(n));
          seq.push(await run(1));
        } else {
          seq.push(await run(1));
          par.push(await run(n));
        }
      }
      const tot = (xs: typeof seq) => mean(xs.map((x) => x.traj.timings.totalMs));
      const crop = (xs: typeof seq) => mean(xs.map((x) => x.cropMs));
      const subMs = (xs: typeof seq) => mean(xs.map((x) => x.traj.timings.subAgentMs));
      const toks = (xs: typeof seq) =>
        `${f0(mean(xs.map((x) => x.traj.tokenCounts.subAgentPrompt)))} / ${f0(mean(xs.map((x) => x.traj.tokenCounts.subAgentCompletion)))}`;
      console.log(
        `| ${name} | ${n} | ${f0(tot(seq))} | ${f0(tot(par))} | ${f2(tot(seq) / tot(par))}x | ${f0(crop(seq))} / ${f0(crop(par))} | ${f0(subMs(seq))} / ${f0(subMs(par))} | ${toks(par)} |`,
      );
    }
  }
  await ort.close();
  await core.close();
  await suite.cleanup();
}

async function partFrames(): Promise<void> {
  const suite = await writeTinySuite();
  const q = suite.plan.questions[0]!;
  const engines = await nanoEngines("ort");
  const input = { video: { file: `${suite.dir}/${q.video}`, key: "tiny-v0001", path: q.video }, question: q.question };
  const cacheDir = await mkdtemp(join(tmpdir(), "paravt-bench-frames-"));
  const CROPS = 3;
  console.log(`\n### 2. Frame pipeline vs model time per episode (overview K + ${CROPS} crops of 12 s)\n`);
  console.log(`${REPS} reps each; main agent and sub-agents = nano in-process (onnxruntime); load avg ${load()}\n`);
  console.log(
    "| K | FrameCache | overview ms | crops ms | frames ms | model ms (main + sub) | frames / episode | frames vs no cache |",
  );
  console.log("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const k of [8, 16, 64]) {
    let baseFrames = 0;
    for (const cached of [false, true]) {
      const cache = cached ? new FrameCache({ dir: join(cacheDir, `k${k}`), maxBytes: 1e9 }) : null;
      const { sampler, t } = timedSampler(videoFrameSampler(cache ? { cache } : {}));
      const run = async () =>
        checked(
          await runEpisode({
            engine: new NanoDrivenMain(engines.direct, CROPS),
            subAgentEngine: engines.direct,
            input,
            frames: sampler,
            config: { k, maxTokens: 128, subAgentMaxTokens: SUB_MAX_TOKENS, thinkPrefix: true },
          }),
          CROPS,
        );
      const cold = await run(); // no cache: warm-up (probe, decoder); cache: fills it
      t.overviewMs = 0;
      const ts: Trajectory[] = [];
      for (let r = 0; r < REPS; r++) ts.push(await run());
      const frames = mean(ts.map((x) => x.timings.framesMs));
      const overviewMs = t.overviewMs / REPS;
      const model = mean(ts.map((x) => x.timings.mainMs + x.timings.subAgentMs));
      const total = mean(ts.map((x) => x.timings.totalMs));
      if (!cached) baseFrames = frames;
      const label = cached ? `warm (cold fill: ${f0(cold.timings.framesMs)} ms frames)` : "none";
      console.log(
        `| ${k} | ${label} | ${f0(overviewMs)} | ${f0(frames - overviewMs)} | ${f0(frames)} | ${f0(model)} | ${((100 * frames) / total).toFixed(0)}% of ${f0(total)} ms | ${cached ? `${f2(frames / baseFrames)}x` : "1.00x"} |`,
      );
    }
  }
  await engines.close();
  await suite.cleanup();
  await rm(cacheDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// Part 3: eval throughput with 1 and 2 real worker processes.

process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/paravt_bench";
process.env.REDIS_URL ??= "redis://127.0.0.1:6379/12";
process.env.REDIS_PREFIX ??= "paravt-bench";
process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";

function startWorker(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: join(root, "workers"),
    // One job at a time per process: the ratio is then processes, not in-process concurrency.
    env: { ...process.env, WORKER_QUEUES: "cpu", WORKER_CONCURRENCY: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((ok, fail) => {
    child.stdout!.on("data", (d: Buffer) => {
      if (d.toString().includes('"worker started"')) ok(child);
    });
    child.on("exit", (code) => fail(new Error(`worker exited (${code}) before starting: ${err}`)));
  });
}

async function stopWorker(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((r) => {
    child.once("exit", () => r());
    child.kill("SIGTERM");
  });
}

async function partEval(): Promise<void> {
  const { db, evals, projectAccess, queue, redis, closeQueues, closeEventBus } = await import("@paravt/shared/server");
  const { createProjectWithRoles } = await import("@paravt/db/factories");
  await mkdir(outDir, { recursive: true });
  // A few real short videos (ffmpeg testsrc2), shared by the samples round-robin.
  const videos: { file: string; durationS: number }[] = [];
  for (const d of [16, 24, 32, 40]) {
    const file = await generateTestVideo(join(outDir, `eval-${d}s.mp4`), {
      durationS: d,
      width: 160,
      height: 90,
      fps: 10,
    });
    videos.push({ file, durationS: (await probe(file)).duration });
  }
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.editor.id }, fx.project.id);
  const rows = await Promise.all(
    videos.map((v, i) =>
      db().video.create({
        data: {
          projectId: fx.project.id,
          name: `eval-${i}.mp4`,
          source: "PATH",
          path: v.file,
          status: "READY",
          durationS: v.durationS,
          width: 160,
          height: 90,
        },
      }),
    ),
  );
  const dataset = await db().dataset.create({ data: { projectId: fx.project.id, name: "bench" } });
  await db().sample.createMany({
    data: Array.from({ length: SAMPLES }, (_, i) => ({
      datasetId: dataset.id,
      videoId: rows[i % rows.length]!.id,
      key: `q${String(i).padStart(4, "0")}`,
      question: `Question ${i}? What is shown?\nA. a test pattern\nB. a cat\nC. a car\nD. a tree`,
      options: ["a test pattern", "a cat", "a car", "a tree"],
      answer: "A",
      questionType: "mcq" as const,
    })),
  });
  const model = await db().model.create({
    data: { projectId: fx.project.id, name: "nano", kind: "NANO_CHECKPOINT", config: { checkpoint: CHECKPOINT } },
  });

  console.log(`\n### 3. Eval throughput: ${SAMPLES} samples, 1 vs 2 worker processes\n`);
  console.log(
    `nano (onnxruntime in each worker), agentic_general, K 8, subagent dispatch, max 128 tokens, max_turns 3, shard 25, WORKER_CONCURRENCY 1\n`,
  );
  console.log(
    "| worker processes | wall s (launch -> SUCCEEDED) | samples/s | vs 1 worker | episodes OK | load avg before |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | --- |");
  const rates = new Map<number, number[]>();
  for (let rep = 0; rep < EVAL_REPS; rep++) {
    for (const n of rep % 2 ? [2, 1] : [1, 2]) {
      const before = load();
      const workers = await Promise.all(Array.from({ length: n }, () => startWorker()));
      const t0 = performance.now();
      const { runs: launched } = await evals.launchEval(access, {
        name: `bench ${n} workers`,
        modelIds: [model.id],
        datasetIds: [dataset.id],
        modes: ["agentic_general"],
        ks: [8],
        knobs: {
          temperature: 0,
          maxTokens: 128,
          maxTurns: 3,
          maxParallel: 5,
          thinkPrefix: true,
          dispatch: "subagent",
          subtitles: false,
          requestStyle: "workbench",
          videoChannel: "image_url",
        },
        shardSize: 25,
      });
      const runId = launched[0]!.id;
      let run;
      for (;;) {
        run = await db().run.findUniqueOrThrow({ where: { id: runId } });
        if (["SUCCEEDED", "FAILED", "CANCELLED"].includes(run.status)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const wall = (performance.now() - t0) / 1000;
      await Promise.all(workers.map(stopWorker));
      if (run.status !== "SUCCEEDED") throw new Error(`run ${runId} ${run.status}: ${run.error}`);
      const ok = await db().episode.count({ where: { runId, status: "OK" } });
      const rate = SAMPLES / wall;
      rates.set(n, [...(rates.get(n) ?? []), rate]);
      const base = rates.get(1);
      console.log(
        `| ${n} | ${wall.toFixed(1)} | ${f2(rate)} | ${base ? `${f2(rate / mean(base))}x` : "-"} | ${ok} / ${SAMPLES} | ${before} |`,
      );
    }
  }
  if (rates.get(1) && rates.get(2)) {
    console.log(`\nmean 2 workers / 1 worker: ${f2(mean(rates.get(2)!) / mean(rates.get(1)!))}x`);
  }
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
  await closeQueues();
  await closeEventBus();
  await redis().quit();
  await db().$disconnect();
}

console.log(`Machine: ${cpus().length}x ${cpus()[0]?.model ?? "?"}, Node ${process.version}, load avg ${load()}`);
for (const [name, part] of [
  ["parallel", partParallel],
  ["frames", partFrames],
  ["eval", partEval],
] as const) {
  if (PART !== name && PART !== "all") continue;
  const during = loadDuring();
  const t0 = performance.now();
  await part();
  console.log(`\n${during()}; part took ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
