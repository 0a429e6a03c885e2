/**
 * Suite generation speed: minutes of video generated per second, for
 *   (a) writeSuite end to end (plan + render + encode + annotations/JSONL/manifest + sha256),
 *   (b) our rasterizer alone (frames rendered to memory, nothing encoded),
 * against baselines measured in the same run on the same durations, size, fps and x264 settings:
 *   (c) ffmpeg encoding its own lavfi `testsrc2` source (no pipe, no Node),
 *   (d) ffmpeg encoding a lavfi solid `color` source (the cheapest possible input).
 * Then a CRF sweep: decoded-color error of event cells and file size per CRF, the measurement
 * behind the default CRF. Run from the repository root:
 *
 *   npx tsx bench/suite/generate-speed.ts [--count 6] [--reps 3] [--seed 1] [--min-minutes 1] [--max-minutes 3]
 *
 * Prints Markdown tables (best of --reps runs after one warm-up) and writes bench/out/suite-bench.json.
 * No assertion on wall-clock figures: this is a measurement, not a test.
 */
import { spawn } from "node:child_process";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { ffmpegBinary, framesAt } from "@paravt/video";
import {
  cellGeometry,
  DEFAULT_CONFIG,
  encodeVideo,
  encoderArgs,
  planSuite,
  renderFrame,
  writeSuite,
  type VideoAnnotation,
} from "@paravt/suite";
import sharp from "sharp";

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i === -1 ? dflt : Number(args[i + 1]);
};
const COUNT = flag("--count", 6);
const REPS = flag("--reps", 3);
const SEED = flag("--seed", 1);
const OUT = fileURLToPath(new URL("../out/suite-bench/", import.meta.url));

const config = { minMinutes: flag("--min-minutes", 1), maxMinutes: flag("--max-minutes", 3) };
const plan = planSuite({ seed: SEED, count: COUNT, config });
const totalS = plan.videos.reduce((s, v) => s + v.durationS, 0);

function ffmpeg(argv: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegBinary(), argv, { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(err.slice(-2000)))));
  });
}

/** The same x264 settings as encode.ts, with a lavfi source instead of the raw-frame pipe. */
function lavfiArgs(v: VideoAnnotation, source: string, out: string): string[] {
  const ours = encoderArgs(v, DEFAULT_CONFIG);
  const enc = ours.slice(ours.indexOf("-c:v"));
  const sep = source.includes("=") ? ":" : "=";
  const lavfi = `${source}${sep}size=${v.width}x${v.height}:rate=${v.fps}:duration=${v.durationS}`;
  return ["-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", lavfi, ...enc, out];
}

async function time(fn: () => Promise<void>): Promise<number> {
  await fn(); // warm-up
  let best = Infinity;
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    await fn();
    best = Math.min(best, (performance.now() - t0) / 1000);
  }
  return best;
}

await mkdir(OUT, { recursive: true });
const results: Record<string, number> = {};
results["writeSuite (plan + render + encode + files)"] = await time(async () => {
  await writeSuite({ seed: SEED, count: COUNT, out: join(OUT, "suite"), config });
});
results["render only (no encode)"] = await time(async () => {
  const buf = Buffer.alloc(plan.videos[0]!.width * plan.videos[0]!.height * 3);
  for (const v of plan.videos) for (let n = 0; n < v.durationS * v.fps; n++) renderFrame(v, n / v.fps, buf);
});
results["baseline: ffmpeg lavfi testsrc2 encode"] = await time(async () => {
  for (const v of plan.videos) await ffmpeg(lavfiArgs(v, "testsrc2", join(OUT, `testsrc2-${v.id}.mp4`)));
});
results["baseline: ffmpeg lavfi color encode"] = await time(async () => {
  for (const v of plan.videos) await ffmpeg(lavfiArgs(v, "color=c=navy", join(OUT, `color-${v.id}.mp4`)));
});

const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(
  `\n${COUNT} videos, ${(totalS / 60).toFixed(1)} min of video (${plan.videos[0]!.width}x${plan.videos[0]!.height}, ` +
    `${plan.videos[0]!.fps} fps, x264 ${DEFAULT_CONFIG.preset} crf ${DEFAULT_CONFIG.crf}), best of ${REPS}; ` +
    `${cpus().length} x ${cpu}, Node ${process.version}\n`,
);
console.log("| path | seconds | min of video / s | vs testsrc2 |\n| --- | ---: | ---: | ---: |");
const base = results["baseline: ffmpeg lavfi testsrc2 encode"]!;
for (const [name, s] of Object.entries(results)) {
  console.log(`| ${name} | ${s.toFixed(2)} | ${(totalS / 60 / s).toFixed(1)} | ${(base / s).toFixed(2)}x |`);
}

// CRF sweep on the first two videos: max-channel error at shape centers and mean error over
// event cells (decoded exact frames, JPEG q85 as an episode sees them), and bytes per minute.
console.log(
  "\n| crf | preset | mean cell error | worst center error | kB per minute |\n| ---: | --- | ---: | ---: | ---: |",
);
const sweep: Record<string, unknown>[] = [];
for (const [crf, preset] of [
  [18, "veryfast"],
  [23, "veryfast"],
  [28, "veryfast"],
  [33, "veryfast"],
  [23, "medium"],
] as const) {
  let cellErr = 0;
  let cells = 0;
  let worst = 0;
  let bytes = 0;
  let seconds = 0;
  for (const v of plan.videos.slice(0, 2)) {
    const path = join(OUT, `crf-${crf}-${preset}-${v.id}.mp4`);
    await encodeVideo(v, path, { crf, preset });
    bytes += (await stat(path)).size;
    seconds += v.durationS;
    const times = v.events.map((e) => (e.start + e.end) / 2);
    const frames = await framesAt(path, times, { maxErrorS: 0 });
    for (const [i, f] of frames.entries()) {
      const e = v.events[i]!;
      const { data, info } = await sharp(f.jpeg).raw().toBuffer({ resolveWithObject: true });
      const ref = renderFrame(v, times[i]!);
      const g = cellGeometry(v, e.position);
      let sum = 0;
      let n = 0;
      for (let y = g.cell.y0; y < g.cell.y1; y++)
        for (let x = g.cell.x0; x < g.cell.x1; x++)
          for (let c = 0; c < 3; c++) {
            sum += Math.abs(data[(y * info.width + x) * 3 + c]! - ref[(y * v.width + x) * 3 + c]!);
            n++;
          }
      cellErr += sum / n;
      cells++;
      const j = (Math.floor(g.cy) * v.width + Math.floor(g.cx)) * 3;
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(data[j + c]! - ref[j + c]!));
    }
    await rm(path, { force: true });
  }
  const row = {
    crf,
    preset,
    meanCellError: cellErr / cells,
    worstCenterError: worst,
    kBPerMinute: bytes / 1024 / (seconds / 60),
  };
  sweep.push(row);
  console.log(`| ${crf} | ${preset} | ${row.meanCellError.toFixed(2)} | ${worst} | ${row.kBPerMinute.toFixed(0)} |`);
}

await writeFile(
  join(OUT, "..", "suite-bench.json"),
  JSON.stringify(
    {
      count: COUNT,
      seed: SEED,
      config,
      totalS,
      reps: REPS,
      seconds: results,
      crfSweep: sweep,
      cpu,
      node: process.version,
    },
    null,
    2,
  ),
);
