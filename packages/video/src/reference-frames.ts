// The frames the reference evaluator decodes (paravt/eval/utils.py `get_frames` / `crop_frames`
// through qwen-vl-utils `fetch_video`): which frames, by index, and at which size. The choice is
// reference-sampling.ts (ported line by line); this file decodes them through `framesAt`, so each
// is the exact frame `i` (requested at `i / fps`) and its stated time is that frame's time.
// Used by the agent's "reference" request style; the workbench's own overview stays `overview()`.

import { VideoError } from "./errors";
import { framesAt, type FrameOptions, type SampledFrame } from "./frames";
import { probe, type VideoInfo } from "./probe";
import {
  REFERENCE_CROP,
  fetchVideoFrameSize,
  frameIndexTimes,
  referenceCropFrameIndices,
  referenceOverviewFrameIndices,
} from "./reference-sampling";

/** torchcodec's `num_frames` / decord's `len(vr)`: the container's frame count, else duration x fps. */
export function referenceFrameCount(info: VideoInfo): number {
  if (info.frameCount !== null && info.frameCount > 0) return info.frameCount;
  const n = Math.round(info.duration * info.fps);
  if (!(n > 0)) throw new VideoError("INVALID_ARGUMENT", `cannot count the frames of ${info.path}`);
  return n;
}

type Options = Omit<FrameOptions, "size" | "minPixels" | "maxPixels">;

/** `get_frames(path, nframes=k)`: k (rounded to even) frames from the first to the LAST, fetch_video's video size. */
export async function referenceOverview(path: string, k: number, opts: Options = {}): Promise<SampledFrame[]> {
  const info = opts.info ?? (await probe(path));
  const indices = referenceOverviewFrameIndices(referenceFrameCount(info), info.fps, k);
  const size = fetchVideoFrameSize(info.width, info.height, indices.length);
  return framesAt(path, frameIndexTimes(indices, info.fps), { ...opts, info, size });
}

/**
 * `crop_frames(path, st, et)`: 1 fps over [st, et] (an even count in [2, 16]) at 784..50,176
 * pixels. Throws VideoError INVALID_ARGUMENT where fetch_video raises (a range of no frame), which
 * the reference turns into its `[Error cropping …]` text.
 */
export async function referenceCrop(
  path: string,
  start: number,
  end: number,
  opts: Options = {},
): Promise<{ start: number; end: number; clamped: boolean; frames: SampledFrame[] }> {
  const info = opts.info ?? (await probe(path));
  const indices = referenceCropFrameIndices(referenceFrameCount(info), info.fps, start, end);
  const size = fetchVideoFrameSize(info.width, info.height, indices.length, {
    minPixels: REFERENCE_CROP.minPixels,
    maxPixels: REFERENCE_CROP.maxPixels,
  });
  const frames = await framesAt(path, frameIndexTimes(indices, info.fps), { ...opts, info, size });
  const clampedEnd = Math.min(end, info.duration);
  return { start, end: clampedEnd, clamped: clampedEnd !== end, frames };
}
