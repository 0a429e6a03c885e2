// Benchmark of @paravt/video frame access against what a user would otherwise write, in one run on
// one machine and on the same frames: (a) one ffmpeg process per frame, (b) PyAV (Debian
// python3-av), (c) OpenCV (Debian python3-opencv). Ours returns exact frames by default (the
// first frame at or after each time); the keyframe approximation is measured as the opt-in it is.
// Usage (from the repository root): npx tsx bench/video/run.ts [--runs 3]
// The 1-hour 720p test video is generated once into bench/out/ (git-ignored, ~1 GB, ~10-15 min
// on 2 cores) and reused while its recipe is unchanged. Results: bench/video/README.md.

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  FrameCache,
  cropTimestamps,
  cropWindow,
  decodeStats,
  ffmpegBinary,
  fitPixels,
  frameIndexTimes,
  framesAt,
  generateTestVideo,
  defaultMaxErrorS,
  referenceOverviewFrameIndices,
  overview,
  overviewTimestamps,
  probe,
  resetDecodeStats,
  testVideoPasses,
  type SampledFrame,
  type TestVideoOptions,
} from "@paravt/video";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, "../out");
const VIDEO_OPTS: TestVideoOptions = { durationS: 3600, width: 1280, height: 720, fps: 30, audio: true };
const VIDEO = join(outDir, "video-3600s-1280x720-30fps-g250-audio.mp4");
const K = 64;
const CROP: [number, number] = [1800, 1816];
const PYTHON = process.env.PYAV_PYTHON ?? "/usr/bin/python3";
const SYSTEM_FFMPEG = "/usr/bin/ffmpeg";
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;

async function ensureVideo(): Promise<void> {
  const recipeFile = `${VIDEO}.json`;
  const recipe = JSON.stringify({ passes: testVideoPasses(VIDEO_OPTS) });
  if (existsSync(VIDEO) && existsSync(recipeFile) && (await readFile(recipeFile, "utf8")) === recipe) return;
  console.log(`Generating ${VIDEO} (1 h of 1280x720 H.264, takes ~10-15 min on 2 cores)…`);
  const started = performance.now();
  await generateTestVideo(VIDEO, VIDEO_OPTS);
  await writeFile(recipeFile, recipe);
  console.log(`  done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

function run(cmd: string, args: string[]): Promise<{ stdout: Buffer; code: number | null }> {
  return new Promise((ok, fail) => {
    const p = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let err = "";
    p.stdout.on("data", (d: Buffer) => chunks.push(d));
    p.stderr.on("data", (d: Buffer) => (err += d.toString()));
    p.on("error", fail);
    p.on("close", (code) =>
      code === 0 ? ok({ stdout: Buffer.concat(chunks), code }) : fail(new Error(`${cmd} exited ${code}: ${err}`)),
    );
  });
}

interface Measure {
  seconds: number;
  /** Mean and max |frame time - requested time|, when the method reports frame times. */
  meanErr?: number;
  maxErr?: number;
  framesDecoded?: number;
  loopMaxMs?: number;
}

function errors(requested: number[], got: number[]): Pick<Measure, "meanErr" | "maxErr"> {
  const d = requested.map((t, i) => Math.abs((got[i] ?? Number.NaN) - t));
  return { meanErr: d.reduce((a, b) => a + b, 0) / d.length, maxErr: Math.max(...d) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function ours(fn: () => Promise<SampledFrame[]>, requested: number[]): Promise<Measure> {
  const times: number[] = [];
  let last: Measure = { seconds: 0 };
  for (let r = 0; r < RUNS; r++) {
    resetDecodeStats();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const started = performance.now();
    const frames = await fn();
    const seconds = (performance.now() - started) / 1000;
    loop.disable();
    times.push(seconds);
    last = {
      seconds,
      ...errors(
        requested,
        frames.map((f) => f.sourceTime),
      ),
      framesDecoded: decodeStats.framesDecoded,
      loopMaxMs: loop.max / 1e6,
    };
  }
  return { ...last, seconds: median(times) };
}

/** A Python baseline script (`pyav_baseline.py` or `opencv_baseline.py`), median of RUNS runs. */
async function python(
  script: "pyav_baseline.py" | "opencv_baseline.py",
  mode: "keyframe" | "exact" | "window",
  ts: number[],
  size: { width: number; height: number },
): Promise<Measure> {
  const times: number[] = [];
  let got: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const { stdout } = await run(PYTHON, [
      join(here, script),
      VIDEO,
      mode,
      String(size.width),
      String(size.height),
      ...ts.map(String),
    ]);
    const res = JSON.parse(stdout.toString()) as { seconds: number; times: number[] };
    times.push(res.seconds);
    got = res.times;
  }
  return { seconds: median(times), ...errors(ts, got) };
}

/** (a) one ffmpeg process per frame, input-side -ss (fast seek); `accurate` decodes up to t, else takes the keyframe. */
async function ffmpegPerFrame(
  ts: number[],
  size: { width: number; height: number },
  accurate: boolean,
  binary = ffmpegBinary(),
): Promise<Measure> {
  const started = performance.now();
  for (const t of ts) {
    const args = [
      "-hide_banner",
      "-loglevel",
      "error",
      ...(accurate ? [] : ["-noaccurate_seek"]),
      "-ss",
      t.toFixed(3),
      "-i",
      VIDEO,
    ];
    args.push(
      "-frames:v",
      "1",
      "-vf",
      `scale=${size.width}:${size.height}`,
      "-q:v",
      "3",
      "-f",
      "image2",
      "-c:v",
      "mjpeg",
      "pipe:1",
    );
    await run(binary, args);
  }
  return { seconds: (performance.now() - started) / 1000 };
}

/** (a) one ffmpeg process for a whole crop window: -ss before -i, then fps=1. */
async function ffmpegWindow(start: number, length: number, size: { width: number; height: number }): Promise<Measure> {
  const started = performance.now();
  const args = ["-hide_banner", "-loglevel", "error", "-ss", String(start), "-i", VIDEO, "-t", String(length)];
  args.push(
    "-vf",
    `fps=1,scale=${size.width}:${size.height}`,
    "-q:v",
    "3",
    "-f",
    "image2pipe",
    "-c:v",
    "mjpeg",
    "pipe:1",
  );
  await run(ffmpegBinary(), args);
  return { seconds: (performance.now() - started) / 1000 };
}

function fmt(m: Measure | undefined, base: number): string[] {
  if (!m) return ["", "", "", "", ""];
  return [
    m.seconds.toFixed(3),
    `${(m.seconds / base).toFixed(2)}x`,
    m.meanErr === undefined ? "" : `${m.meanErr.toFixed(2)} / ${m.maxErr!.toFixed(2)}`,
    m.framesDecoded === undefined ? "" : String(m.framesDecoded),
    m.loopMaxMs === undefined ? "" : m.loopMaxMs.toFixed(1),
  ];
}

async function main(): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await ensureVideo();
  let started = performance.now();
  const info = await probe(VIDEO);
  const probeMs = performance.now() - started;
  started = performance.now();
  await probe(VIDEO);
  const probeWarmMs = performance.now() - started;
  console.log(
    `video: ${info.width}x${info.height} ${info.fps} fps ${info.duration} s ${info.codec}, keyframe every ${info.keyframeInterval} s, ${(info.sizeBytes / 1e6).toFixed(0)} MB`,
  );
  console.log(`probe: ${probeMs.toFixed(1)} ms (first), ${probeWarmMs.toFixed(1)} ms (again)`);
  const size = fitPixels(info.width, info.height);
  const ovTs = overviewTimestamps(info.duration, K);
  const cropTs = cropTimestamps(CROP[0], CROP[1], info.duration);

  // Warm the page cache and the code paths once, so every method below reads from memory.
  await overview(VIDEO, K, { info });

  const rows: { name: string; ov?: Measure; crop?: Measure }[] = [];
  const add = (name: string, ov?: Measure, crop?: Measure) => {
    rows.push({ name, ...(ov ? { ov } : {}), ...(crop ? { crop } : {}) });
    console.log(`  measured: ${name}`);
  };
  const crop = (o: Parameters<typeof cropWindow>[3]) => async () =>
    (await cropWindow(VIDEO, CROP[0], CROP[1], o)).frames;

  add(
    "**ours, default: exact frames**",
    await ours(() => overview(VIDEO, K, { info }), ovTs),
    await ours(crop({ info }), cropTs),
  );
  add(
    "ours, exact, 2 decoder threads",
    await ours(() => overview(VIDEO, K, { info, threads: 2 }), ovTs),
    await ours(crop({ info, threads: 2 }), cropTs),
  );
  // The same exact decoding on the reference evaluator's overview frames (qwen-vl-utils
  // fetch_video: frame indices round(linspace(0, N-1, 64)), the last frame included).
  const refTs = frameIndexTimes(referenceOverviewFrameIndices(info.frameCount!, info.fps, K), info.fps);
  add(
    "ours, exact, reference overview frames (fetch_video indices)",
    await ours(() => framesAt(VIDEO, refTs, { info }), refTs),
  );
  const halfSpacing = defaultMaxErrorS(ovTs, 0);
  add(
    `ours, opt-in speed: maxErrorS ${halfSpacing.toFixed(2)} s = half the spacing (the former default)`,
    await ours(() => overview(VIDEO, K, { info, maxErrorS: halfSpacing }), ovTs),
    await ours(crop({ info, maxErrorS: defaultMaxErrorS(cropTs, 0) }), cropTs),
  );
  add(
    "ours, opt-in speed: keyframe only (maxErrorS Infinity)",
    await ours(() => overview(VIDEO, K, { info, maxErrorS: Infinity }), ovTs),
  );
  const cacheDir = join(outDir, "bench-frame-cache");
  await rm(cacheDir, { recursive: true, force: true });
  const cache = new FrameCache({ dir: cacheDir, maxBytes: 100e6 });
  await overview(VIDEO, K, { info, cache });
  await cropWindow(VIDEO, CROP[0], CROP[1], { info, cache });
  add(
    "ours, frame cache hit",
    await ours(() => overview(VIDEO, K, { info, cache }), ovTs),
    await ours(crop({ info, cache }), cropTs),
  );
  add(
    "(b) PyAV: seek, decode to the exact frame (¹)",
    await python("pyav_baseline.py", "exact", ovTs, size),
    await python("pyav_baseline.py", "window", cropTs, size),
  );
  add("(b) PyAV: keyframe seek, first frame (not exact)", await python("pyav_baseline.py", "keyframe", ovTs, size));
  add(
    "(c) OpenCV: set(CAP_PROP_POS_FRAMES) + read, exact (¹)",
    await python("opencv_baseline.py", "exact", ovTs, size),
    await python("opencv_baseline.py", "window", cropTs, size),
  );
  add(
    "(a) ffmpeg process per frame, `-ss` before `-i` (accurate) (²)",
    await ffmpegPerFrame(ovTs, size, true),
    await ffmpegPerFrame(cropTs, size, true),
  );
  // Not on a fresh laptop (the package never uses it); shown because its newer MP4 demuxer opens
  // this file ~3x faster than the npm static 2018 build, which dominates the per-process cost.
  if (existsSync(SYSTEM_FFMPEG)) {
    add("(a) Debian ffmpeg 5.1 process per frame, accurate", await ffmpegPerFrame(ovTs, size, true, SYSTEM_FFMPEG));
  }
  add(
    "(a) one ffmpeg process for the window (-ss, -t 16, fps=1)",
    undefined,
    await ffmpegWindow(CROP[0], CROP[1] - CROP[0], size),
  );

  // A main-agent turn with several crop_video calls runs them concurrently (SPEC §1.4).
  const windows = [600, 1200, 1800.5, 2400.25, 3000].map((s) => [s, s + 16] as const);
  started = performance.now();
  for (const [s, e] of windows) await cropWindow(VIDEO, s, e, { info });
  const sequentialCrops = (performance.now() - started) / 1000;
  started = performance.now();
  await Promise.all(windows.map(([s, e]) => cropWindow(VIDEO, s, e, { info })));
  const parallelCrops = (performance.now() - started) / 1000;

  const ovBase = rows[0]!.ov!.seconds;
  const cropBase = rows[0]!.crop!.seconds;
  const header = [
    "method",
    `${K} frames (s)`,
    "vs ours",
    "err mean/max (s)",
    "frames decoded",
    "loop max (ms)",
    "16-s crop (s)",
    "vs ours",
    "err mean/max (s)",
    "frames decoded",
    "loop max (ms)",
  ];
  const lines = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`];
  for (const r of rows) lines.push(`| ${[r.name, ...fmt(r.ov, ovBase), ...fmt(r.crop, cropBase)].join(" | ")} |`);
  const table = lines.join("\n");
  console.log(
    `\n${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), node ${process.version}, median of ${RUNS} runs (ffmpeg rows: 1 run)\n`,
  );
  console.log(table);
  console.log(
    `\n5 crop windows of 16 s (ours, default): ${sequentialCrops.toFixed(3)} s one after another, ${parallelCrops.toFixed(3)} s concurrently`,
  );
  console.log(
    `load average during the run: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")} (other work on the machine skews timings)`,
  );
  const result = {
    date: new Date().toISOString(),
    probeMs,
    probeWarmMs,
    rows,
    sequentialCrops,
    parallelCrops,
    loadavg: loadavg(),
  };
  await writeFile(join(outDir, "video-bench.json"), JSON.stringify(result, null, 2));
}

await main();
