// The ffmpeg command-line binary, used only to WRITE videos (synthetic test/demo videos and
// fixtures). Reading (probe, frames) goes through node-av in-process; see frame-reader.ts.
// The binary comes from @ffmpeg-installer/ffmpeg (a static 2018 build shipped in npm), never from
// PATH: a fresh laptop has no system ffmpeg, and a different build would make "deterministic"
// test videos differ between machines.

import { spawn } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

let cached: string | undefined;

/** Absolute path of the npm-shipped ffmpeg binary. */
export function ffmpegBinary(): string {
  if (cached !== undefined) return cached;
  try {
    // Required lazily: the installer package throws at load time on platforms it does not ship.
    const installer = require("@ffmpeg-installer/ffmpeg") as { path: string };
    cached = installer.path;
    return cached;
  } catch (err) {
    throw new Error(
      `The ffmpeg binary from @ffmpeg-installer/ffmpeg is unavailable on ${process.platform}-${process.arch}`,
      {
        cause: err,
      },
    );
  }
}

/** Runs ffmpeg with `args`; rejects with the tail of its stderr when it exits non-zero. */
export function runFfmpeg(
  args: readonly string[],
  opts: { signal?: AbortSignal; onTime?: (seconds: number) => void } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    // `-progress pipe:1` makes ffmpeg print `out_time_ms=<microseconds>` lines on stdout as it
    // encodes: real progress for long jobs instead of a guess.
    const progress = opts.onTime ? ["-progress", "pipe:1", "-nostats"] : [];
    const child = spawn(ffmpegBinary(), ["-hide_banner", "-nostdin", "-loglevel", "error", ...progress, ...args], {
      stdio: ["ignore", opts.onTime ? "pipe" : "ignore", "pipe"],
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (opts.onTime && child.stdout) {
      let pending = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        pending += chunk;
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          const m = /^out_time_ms=(\d+)/.exec(line);
          if (m) opts.onTime!(Number(m[1]) / 1e6);
        }
      });
    }
    let stderr = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code ?? signal}: ${stderr.trim()}`));
    });
  });
}
