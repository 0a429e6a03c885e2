// Encodes an annotated video: frames from render.ts piped as raw RGB24 into the npm-shipped
// ffmpeg (`ffmpegBinary` of @paravt/video, never a system one), libx264 -> browser-playable MP4
// (H.264 High, yuv420p, BT.601 tags, +faststart), written atomically (temp file + rename).
//
// Keyframes: a fixed GOP of duration*fps/64 frames (no scene-cut keyframes) puts a keyframe on
// every overview timestamp of every K dividing 64, so @paravt/video's default keyframe-seek
// mode returns the exact overview frames cheaply. Determinism: fixed thread count, bitexact
// flags and no metadata give the same bytes for the same input with the same binary.

import { spawn } from "node:child_process";
import { mkdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ffmpegBinary } from "@paravt/video";
import type { SuiteConfig } from "./config";
import { renderFrame } from "./render";
import type { VideoAnnotation } from "./schemas";

export type EncodeSettings = Pick<SuiteConfig, "crf" | "preset">;

/** Frames per keyframe interval: the K = 64 overview spacing. */
export function gopFrames(a: Pick<VideoAnnotation, "durationS" | "fps">): number {
  return Math.max(1, Math.round((a.durationS * a.fps) / 64));
}

/** ffmpeg arguments (input: raw RGB24 on stdin) up to but excluding the output path. */
export function encoderArgs(a: VideoAnnotation, s: EncodeSettings): string[] {
  const gop = String(gopFrames(a));
  return [
    "-hide_banner",
    "-nostdin",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgb24",
    "-s",
    `${a.width}x${a.height}`,
    "-r",
    String(a.fps),
    "-i",
    "-",
    "-c:v",
    "libx264",
    "-preset",
    s.preset,
    "-crf",
    String(s.crf),
    "-profile:v",
    "high",
    "-pix_fmt",
    "yuv420p",
    "-colorspace",
    "smpte170m",
    "-color_primaries",
    "smpte170m",
    "-color_trc",
    "smpte170m",
    "-g",
    gop,
    "-keyint_min",
    gop,
    "-sc_threshold",
    "0",
    "-threads",
    "2",
    "-fflags",
    "+bitexact",
    "-flags:v",
    "+bitexact",
    "-map_metadata",
    "-1",
    "-movflags",
    "+faststart",
    "-f",
    "mp4",
  ];
}

/** Frames rendered per pipe write (~0.5 MB at 192x108). */
const BATCH = 8;

/**
 * Renders and encodes `a` to `out` (an .mp4 path). Resolves to `out`; rejects with ffmpeg's
 * stderr tail when it fails. A crash never leaves a partial file at `out`.
 */
export async function encodeVideo(
  a: VideoAnnotation,
  out: string,
  settings: EncodeSettings,
  opts: { signal?: AbortSignal } = {},
): Promise<string> {
  await mkdir(dirname(out), { recursive: true });
  const tmp = join(dirname(out), `.${basename(out)}.${process.pid}.${Date.now()}.tmp`);
  const child = spawn(ffmpegBinary(), [...encoderArgs(a, settings), tmp], {
    stdio: ["pipe", "ignore", "pipe"],
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code ?? signal} encoding ${a.id}: ${stderr.trim()}`));
    });
  });
  const closed = exited.then(
    () => {},
    () => {},
  );
  // A write after ffmpeg died raises EPIPE on stdin; the exit status carries the real reason.
  child.stdin.on("error", () => {});
  try {
    const frameBytes = a.width * a.height * 3;
    const total = a.durationS * a.fps;
    for (let n = 0; n < total; n += BATCH) {
      const count = Math.min(BATCH, total - n);
      const chunk = Buffer.allocUnsafe(count * frameBytes);
      for (let j = 0; j < count; j++) {
        renderFrame(a, (n + j) / a.fps, chunk.subarray(j * frameBytes, (j + 1) * frameBytes));
      }
      if (!child.stdin.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            child.stdin.off("drain", done);
            resolve();
          };
          child.stdin.once("drain", done);
          void closed.then(done);
        });
      }
      if (child.exitCode !== null || child.signalCode !== null) break;
    }
    child.stdin.end();
    await exited;
    await rename(tmp, out);
  } catch (e) {
    child.kill("SIGKILL");
    await exited.catch(() => {});
    throw e;
  } finally {
    await rm(tmp, { force: true });
  }
  return out;
}
