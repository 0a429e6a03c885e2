import fs from "node:fs/promises";
import path from "node:path";
import { db } from "@paravt/shared/server";
import { generateTestVideo } from "@paravt/video";
import { SkipJobError, type JobHandler } from "../job-context";
import { probeInto } from "./handle-video-probe";

/** Renders a synthetic H.264 video for a GENERATED row, then probes it. */
export const handleVideoGenerate: JobHandler<"video.generate"> = async ({ videoId }, ctx) => {
  const video = await db().video.findUnique({ where: { id: videoId } });
  if (!video) throw new SkipJobError(`video ${videoId} no longer exists`);
  const requested = (video.probe as { requestedDurationS?: number } | null)?.requestedDurationS ?? 20;
  await db().video.update({ where: { id: videoId }, data: { status: "PROCESSING", error: null } });
  await ctx.progress(0.05, `Rendering ${requested} s of synthetic video`);
  await fs.mkdir(path.dirname(video.path), { recursive: true });
  // Render to a temporary name and rename, so a killed worker never leaves a half file at the
  // path the row points to; a retry simply renders again.
  const tmp = `${video.path}.${process.pid}.tmp.mp4`;
  // A cancel seen by a progress report stops ffmpeg instead of rendering to the end.
  const abort = new AbortController();
  let stopReason: unknown = null;
  try {
    await generateTestVideo(tmp, {
      durationS: requested,
      width: 320,
      height: 180,
      fps: 10,
      // ~2 s keyframe interval, as the demo streams; the scrubber seeks by keyframe.
      keyframeIntervalS: 2,
      signal: abort.signal,
      // ffmpeg's own progress; writes are throttled by ctx.progress.
      onProgress: (f) =>
        void ctx.progress(0.05 + 0.85 * f).catch((err: unknown) => {
          stopReason ??= err;
          abort.abort();
        }),
    });
    await fs.rename(tmp, video.path);
  } catch (err) {
    throw stopReason ?? err;
  } finally {
    await fs.rm(tmp, { force: true });
  }
  await ctx.progress(0.92, "Probing");
  return probeInto(videoId, video.path);
};
