// Test-only helpers (not exported from the package): generated videos shared by the test files
// of one run. Generation is deterministic, so a video is keyed by its ffmpeg arguments and
// made once per machine in the OS temp dir; parallel test files race safely (atomic rename).

import { createHash } from "node:crypto";
import { access } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ffmpegBinary } from "./ffmpeg-cli";
import { generateTestVideo, testVideoPasses, type TestVideoOptions } from "./test-video";

export async function sharedTestVideo(opts: TestVideoOptions): Promise<string> {
  const hash = createHash("sha256")
    .update(JSON.stringify([ffmpegBinary(), testVideoPasses(opts)]))
    .digest("hex");
  const out = join(tmpdir(), "paravt-video-tests", `${hash.slice(0, 16)}.mp4`);
  try {
    await access(out);
    return out;
  } catch {
    return generateTestVideo(out, opts);
  }
}

/** The main test video: 2 minutes, 320x180 (above the SPEC pixel bound), 25 fps, keyframe every 2 s, frame-index barcode. */
export const MAIN_VIDEO: TestVideoOptions = {
  durationS: 120,
  width: 320,
  height: 180,
  fps: 25,
  pattern: "frame-index",
  keyframeIntervalS: 2,
};
