// Deterministic synthetic videos for demo seed data, tests and the benchmark.
//
// testsrc2 already burns in the time (HH:MM:SS.mmm) and the frame number with FFmpeg's built-in
// bitmap font, so no drawtext/fontconfig is needed (the static 2018 build has drawtext but a fresh
// machine may have no fonts). The "frame-index" pattern adds a machine-readable barcode of the
// frame number along the bottom edge; tests decode it to check which frame a seek really returned.
//
// Determinism: same ffmpeg binary (npm-pinned) + fixed x264 thread count + bitexact flags + no
// metadata => byte-identical output for the same options on any machine.

import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, join, basename } from "node:path";
import { runFfmpeg } from "./ffmpeg-cli";
import { VideoError } from "./errors";

export type TestPattern = "testsrc2" | "frame-index" | "smptebars";

export interface TestVideoOptions {
  durationS: number;
  width: number;
  height: number;
  fps: number;
  /** Default "testsrc2" (moving pattern with burnt-in time and frame number). */
  pattern?: TestPattern;
  /** Keyframe interval (GOP) in seconds. Default: 250 frames, libx264's own default and a common real-world value. */
  keyframeIntervalS?: number;
  /** Adds a 440 Hz AAC track (real videos have audio; the demuxer must skip it cheaply). Default false. */
  audio?: boolean;
  /** Clockwise display rotation stored in the container (as phones do); the pixels stay unrotated. Default 0. */
  rotation?: 0 | 90 | 180 | 270;
  /** Moves the index (moov) to the front so browsers can start playing before the download ends. Default true. */
  faststart?: boolean;
  signal?: AbortSignal;
  /** Called with the fraction (0..1) of the video encoded so far. */
  onProgress?: (fraction: number) => void;
}

/** Bits of the frame-index barcode: 16 blocks => frame numbers up to 65535. */
export const FRAME_INDEX_BITS = 16;

function barcodeFilter(): string {
  // A black strip over the bottom eighth, then block k is white when bit k of the frame number n is set.
  const parts = ["drawbox=x=0:y=ih*7/8:w=iw:h=ih/8:color=black:t=fill"];
  for (let k = 0; k < FRAME_INDEX_BITS; k++) {
    parts.push(
      `drawbox=x=iw*${k}/${FRAME_INDEX_BITS}:y=ih*7/8:w=iw/${FRAME_INDEX_BITS}:h=ih/8:color=white:t=fill:enable='mod(floor(n/${2 ** k})\\,2)'`,
    );
  }
  return parts.join(",");
}

/**
 * The ffmpeg invocations for a test video, as argument lists without the output path (and with
 * "{in}" standing for the previous pass's output). Pure, so callers can key a cache on them: same
 * arguments + same pinned binary = same bytes.
 */
export function testVideoPasses(opts: TestVideoOptions): string[][] {
  const { durationS, width, height, fps } = opts;
  if (
    !(durationS > 0) ||
    !(fps > 0) ||
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width < 2 ||
    height < 2
  ) {
    throw new VideoError(
      "INVALID_ARGUMENT",
      `Invalid test video options ${JSON.stringify({ durationS, width, height, fps })}.`,
    );
  }
  if (width % 2 !== 0 || height % 2 !== 0) {
    throw new VideoError("INVALID_ARGUMENT", `yuv420p needs even dimensions (got ${width}x${height}).`);
  }
  const pattern = opts.pattern ?? "testsrc2";
  const gop = opts.keyframeIntervalS === undefined ? 250 : Math.max(1, Math.round(opts.keyframeIntervalS * fps));
  const source = pattern === "smptebars" ? "smptehdbars" : "testsrc2";
  const args = ["-y", "-f", "lavfi", "-i", `${source}=size=${width}x${height}:rate=${fps}:duration=${durationS}`];
  if (opts.audio) {
    args.push("-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${durationS}`);
  }
  args.push("-map", "0:v");
  if (opts.audio) args.push("-map", "1:a", "-c:a", "aac", "-b:a", "64k", "-flags:a", "+bitexact");
  if (pattern === "frame-index") args.push("-vf", barcodeFilter());
  // veryfast keeps B-frames and CABAC (like real uploads) while encoding an hour of 720p in minutes.
  args.push("-c:v", "libx264", "-preset", "veryfast", "-profile:v", "high", "-pix_fmt", "yuv420p");
  args.push("-g", String(gop), "-threads", "2", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-map_metadata", "-1");
  if (opts.faststart ?? true) args.push("-movflags", "+faststart");
  const passes = [args];
  if (opts.rotation) {
    // The 2018 binary drops the rotate tag when it encodes, so rotation is a stream-copy pass.
    // Its "rotate=N" tag writes a matrix that FFmpeg (and browsers) display N degrees
    // counter-clockwise, hence 360 - N for a clockwise display rotation.
    const tag = (360 - opts.rotation) % 360;
    const remux = ["-y", "-i", "{in}", "-map", "0", "-c", "copy", "-map_metadata", "-1", "-fflags", "+bitexact"];
    remux.push("-metadata:s:v:0", `rotate=${tag}`);
    if (opts.faststart ?? true) remux.push("-movflags", "+faststart");
    passes.push(remux);
  }
  return passes;
}

/**
 * Writes a browser-playable H.264 (High, yuv420p) MP4 to `out` and returns `out`. The file appears
 * atomically (written under a temporary name, then renamed), so a crashed run never leaves a
 * half-written video that a later run would take for a finished one.
 */
export async function generateTestVideo(out: string, opts: TestVideoOptions): Promise<string> {
  const passes = testVideoPasses(opts);
  await mkdir(dirname(out), { recursive: true });
  const tmp = (n: number) => join(dirname(out), `.${basename(out)}.${process.pid}.${Date.now()}.${n}.tmp`);
  const written: string[] = [];
  try {
    let previous = "";
    for (const [n, pass] of passes.entries()) {
      const target = tmp(n);
      written.push(target);
      const args = pass.map((a) => (a === "{in}" ? previous : a));
      // Only the first pass encodes; the others are quick stream copies.
      const onTime =
        n === 0 && opts.onProgress
          ? (t: number) => opts.onProgress!(Math.min(1, Math.max(0, t / opts.durationS)))
          : undefined;
      await runFfmpeg([...args, "-f", "mp4", target], {
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(onTime ? { onTime } : {}),
      });
      previous = target;
    }
    await rename(previous, out);
  } finally {
    await Promise.all(written.map((f) => rm(f, { force: true })));
  }
  return out;
}

/**
 * Reads the frame-index barcode of a decoded frame (grayscale pixels, one byte per pixel, the
 * whole picture scaled to `width x height`). Returns the frame number encoded by the
 * "frame-index" pattern. Works on frames downscaled to the SPEC sizes and JPEG-compressed.
 */
export function readFrameIndex(gray: Uint8Array, width: number, height: number): number {
  const y = Math.floor((height * 15) / 16);
  let n = 0;
  for (let k = 0; k < FRAME_INDEX_BITS; k++) {
    const x = Math.floor(((k + 0.5) * width) / FRAME_INDEX_BITS);
    let sum = 0;
    let count = 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const px = gray[(y + dy) * width + (x + dx)];
        if (px !== undefined) {
          sum += px;
          count++;
        }
      }
    }
    if (count > 0 && sum / count > 128) n |= 1 << k;
  }
  return n;
}
