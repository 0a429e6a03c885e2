// The reference evaluator's frame sampling, ported for a "reference-evaluator" dispatch preset:
// which frames, how many and at what size qwen-vl-utils' `fetch_video` gives the ParaVT driver.
// Optional: our default overview stays at i * D / K (sampling.ts `overviewTimestamps`).
//
// Source: qwen-vl-utils 0.0.14 (the version pinned by EvolvingLMMs-Lab/ParaVT
// requirements/eval.lock), QwenLM/Qwen3-VL qwen-vl-utils/src/qwen_vl_utils/vision_process.py at
// 0dcc180d854f4b132f8059b10bbf0b5fd5dae9ed: `smart_resize` (l. 56), `smart_nframes` (l. 144),
// `calculate_video_frame_range` (l. 234), `_read_video_torchcodec` / `_read_video_decord`
// (l. 338 / 292: `torch.linspace(start_frame, end_frame, nframes).round().long()`) and
// `fetch_video` (l. 403: pixel bounds). The ParaVT driver calls it from paravt/eval/utils.py:
// `get_frames` (overview: `{"nframes": 64}`) and `crop_frames` (`{"fps": 1, "min_frames": 1,
// "max_frames": 16, "min_pixels": 784, "max_pixels": 50176, "video_start", "video_end"}`).
// The eval lock installs torchcodec 0.10, which qwen-vl-utils prefers over decord; both pick
// frames with the same index formula.
//
// Frames are chosen by INDEX. Our reader returns the first frame at or after a time, so frame i of
// a constant-frame-rate video is requested at `i / fps` (`frameIndexTimes`) and comes back exactly.

import { VideoError } from "./errors";
import type { Size } from "./size";

/** vision_process.py constants (l. 24-37); MODEL_SEQ_LEN is the env default. */
export const QWEN_VL = {
  MAX_RATIO: 200,
  SPATIAL_MERGE_SIZE: 2,
  IMAGE_MIN_TOKEN_NUM: 4,
  IMAGE_MAX_TOKEN_NUM: 16384,
  VIDEO_MIN_TOKEN_NUM: 128,
  VIDEO_MAX_TOKEN_NUM: 768,
  FPS: 2.0,
  FRAME_FACTOR: 2,
  FPS_MIN_FRAMES: 4,
  FPS_MAX_FRAMES: 768,
  MODEL_SEQ_LEN: 128000,
  /** `fetch_video(..., image_patch_size=14)`: the driver does not pass it. */
  IMAGE_PATCH_SIZE: 14,
} as const;

/** What the ParaVT driver asks `fetch_video` for (paravt/eval/utils.py). */
export const REFERENCE_OVERVIEW_FRAMES = 64;
export const REFERENCE_CROP = { fps: 1, minFrames: 1, maxFrames: 16, minPixels: 784, maxPixels: 50176 } as const;

function invalid(message: string): never {
  throw new VideoError("INVALID_ARGUMENT", message);
}

/** Python 3 `round()` of a float: halves go to the even neighbour (`round(2.5) == 2`). */
export function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f; // exact for doubles
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

const roundByFactor = (n: number, factor: number) => roundHalfEven(n / factor) * factor;
const ceilByFactor = (n: number, factor: number) => Math.ceil(n / factor) * factor;
const floorByFactor = (n: number, factor: number) => Math.floor(n / factor) * factor;

/**
 * `smart_resize`: both sides multiples of `factor`, `minPixels <= w*h <= maxPixels`, aspect kept
 * as closely as possible. Defaults are the image bounds (4 and 16384 tokens of factor² pixels).
 */
export function smartResize(
  height: number,
  width: number,
  factor: number = QWEN_VL.IMAGE_PATCH_SIZE * QWEN_VL.SPATIAL_MERGE_SIZE,
  minPixels: number = QWEN_VL.IMAGE_MIN_TOKEN_NUM * factor ** 2,
  maxPixels: number = QWEN_VL.IMAGE_MAX_TOKEN_NUM * factor ** 2,
): Size {
  if (!(height > 0) || !(width > 0)) invalid(`Image size must be positive (got ${width}x${height}).`);
  if (!(maxPixels >= minPixels)) invalid("The max_pixels of image must be greater than or equal to min_pixels.");
  const ratio = Math.max(height, width) / Math.min(height, width);
  if (ratio > QWEN_VL.MAX_RATIO)
    invalid(`absolute aspect ratio must be smaller than ${QWEN_VL.MAX_RATIO}, got ${ratio}`);
  let h = Math.max(factor, roundByFactor(height, factor));
  let w = Math.max(factor, roundByFactor(width, factor));
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = floorByFactor(height / beta, factor);
    w = floorByFactor(width / beta, factor);
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    h = ceilByFactor(height * beta, factor);
    w = ceilByFactor(width * beta, factor);
  }
  return { width: w, height: h };
}

/** The `ele` keys of `fetch_video` that choose frames: `nframes`, or `fps` with its bounds; and a time range. */
export interface FetchVideoFrames {
  nframes?: number;
  fps?: number;
  minFrames?: number;
  maxFrames?: number;
  /** Seconds (`video_start` / `video_end`). */
  videoStart?: number;
  videoEnd?: number;
}

/** `smart_nframes`: how many frames, from `nframes` or from `fps` (even, within [2, totalFrames]). */
export function smartNframes(ele: FetchVideoFrames, totalFrames: number, videoFps: number): number {
  const { FRAME_FACTOR } = QWEN_VL;
  if (ele.nframes !== undefined && ele.fps !== undefined) invalid("Only accept either `fps` or `nframes`");
  let nframes: number;
  if (ele.nframes !== undefined) {
    nframes = roundByFactor(ele.nframes, FRAME_FACTOR);
  } else {
    const fps = ele.fps ?? QWEN_VL.FPS;
    const minFrames = ceilByFactor(ele.minFrames ?? QWEN_VL.FPS_MIN_FRAMES, FRAME_FACTOR);
    const maxFrames = floorByFactor(ele.maxFrames ?? Math.min(QWEN_VL.FPS_MAX_FRAMES, totalFrames), FRAME_FACTOR);
    nframes = (totalFrames / videoFps) * fps;
    nframes = Math.min(Math.min(Math.max(nframes, minFrames), maxFrames), totalFrames);
    nframes = floorByFactor(nframes, FRAME_FACTOR);
  }
  if (!(FRAME_FACTOR <= nframes && nframes <= totalFrames)) {
    invalid(`nframes should in interval [${FRAME_FACTOR}, ${totalFrames}], but got ${nframes}.`);
  }
  return nframes;
}

export interface FrameRange {
  startFrame: number;
  endFrame: number;
  /** endFrame - startFrame + 1: the `total_frames` smart_nframes then sees. */
  frameCount: number;
}

/** `calculate_video_frame_range`: the frame indices a `[videoStart, videoEnd]` range covers. */
export function calculateVideoFrameRange(ele: FetchVideoFrames, totalFrames: number, videoFps: number): FrameRange {
  if (!(videoFps > 0)) invalid("video_fps must be a positive number");
  if (!(totalFrames > 0)) invalid("total_frames must be a positive integer");
  if (ele.videoStart === undefined && ele.videoEnd === undefined) {
    return { startFrame: 0, endFrame: totalFrames - 1, frameCount: totalFrames };
  }
  const maxDuration = totalFrames / videoFps;
  const startFrame =
    ele.videoStart === undefined ? 0 : Math.ceil(Math.max(0, Math.min(ele.videoStart, maxDuration)) * videoFps);
  const endFrame =
    ele.videoEnd === undefined
      ? totalFrames - 1
      : Math.min(Math.floor(Math.max(0, Math.min(ele.videoEnd, maxDuration)) * videoFps), totalFrames - 1);
  if (startFrame >= endFrame) {
    invalid(
      `Invalid time range: Start frame ${startFrame} exceeds end frame ${endFrame}. ` +
        `Video duration: ${maxDuration.toFixed(2)}s (${totalFrames} frames @ ${videoFps}fps)`,
    );
  }
  return { startFrame, endFrame, frameCount: endFrame - startFrame + 1 };
}

/**
 * `torch.linspace(start, end, steps).round().long()` on the CPU, bit for bit: the default dtype is
 * float32, and ATen's serial kernel (aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp,
 * `linspace_kernel`) computes `step = (end - start) / (steps - 1)` and fills the first half as
 * `start + step * i`, the second half as `end - step * (steps - 1 - i)`, each operation rounded to
 * float32; `torch.round` rounds halves to even. Float32 matters: in an hour at 30 fps (108,000
 * frames) its spacing is 1/128 of a frame, the same order as a fraction's distance to .5.
 * (Assumes no fused multiply-add in the compiled kernel; that could differ by one float32 step.)
 */
export function torchLinspaceRound(start: number, end: number, steps: number): number[] {
  if (!Number.isInteger(steps) || steps < 0) invalid(`steps must be a non-negative integer (got ${steps}).`);
  const f = Math.fround;
  const s = f(start);
  const e = f(end);
  if (steps === 1) return [roundHalfEven(s)]; // ATen fills with start (RangeFactories.cpp)
  const step = f(f(e - s) / f(steps - 1));
  const halfway = Math.floor(steps / 2);
  return Array.from({ length: steps }, (_, i) =>
    roundHalfEven(i < halfway ? f(s + f(step * f(i))) : f(e - f(step * f(steps - 1 - i)))),
  );
}

/**
 * The frame indices `fetch_video` decodes for `ele` from a video of `totalFrames` frames at
 * `videoFps` (torchcodec's `metadata.num_frames` / `average_fps`, decord's `len(vr)` /
 * `get_avg_fps()`): the range, the count, then linspace over the range, both ends included.
 */
export function fetchVideoFrameIndices(ele: FetchVideoFrames, totalFrames: number, videoFps: number): number[] {
  const range = calculateVideoFrameRange(ele, totalFrames, videoFps);
  const nframes = smartNframes(ele, range.frameCount, videoFps);
  return torchLinspaceRound(range.startFrame, range.endFrame, nframes);
}

/** The reference overview (`get_frames`): `nframes` evenly over the whole video, first AND last frame included. */
export function referenceOverviewFrameIndices(
  totalFrames: number,
  videoFps: number,
  nframes: number = REFERENCE_OVERVIEW_FRAMES,
): number[] {
  return fetchVideoFrameIndices({ nframes }, totalFrames, videoFps);
}

/** The reference crop (`crop_frames`): 1 fps over [start, end], an even count in [2, maxFrames]. */
export function referenceCropFrameIndices(
  totalFrames: number,
  videoFps: number,
  start: number,
  end: number,
  maxFrames: number = REFERENCE_CROP.maxFrames,
): number[] {
  const { fps, minFrames } = REFERENCE_CROP;
  return fetchVideoFrameIndices({ fps, minFrames, maxFrames, videoStart: start, videoEnd: end }, totalFrames, videoFps);
}

/** Times (seconds) at which frames `indices` start in a constant-frame-rate video: `i / fps`. */
export function frameIndexTimes(indices: readonly number[], videoFps: number): number[] {
  if (!(videoFps > 0)) invalid(`The frame rate must be positive (got ${videoFps}).`);
  return indices.map((i) => i / videoFps);
}

/** The `ele` keys of `fetch_video` that bound the frame size. */
export interface FetchVideoPixels {
  minPixels?: number;
  maxPixels?: number;
  totalPixels?: number;
}

/**
 * `fetch_video`'s per-frame pixel bounds for `nframes` frames (l. 449-455): at least 128 tokens,
 * at most 768 tokens and the model's sequence budget shared by all frames, then capped by the
 * caller's `max_pixels`. For the reference overview of 64 frames: 100,352 .. 602,112 pixels.
 */
export function fetchVideoPixelBounds(nframes: number, ele: FetchVideoPixels = {}): { min: number; max: number } {
  const factor = QWEN_VL.IMAGE_PATCH_SIZE * QWEN_VL.SPATIAL_MERGE_SIZE;
  const frameMin = QWEN_VL.VIDEO_MIN_TOKEN_NUM * factor * factor;
  const frameMax = QWEN_VL.VIDEO_MAX_TOKEN_NUM * factor * factor;
  const min = ele.minPixels ?? frameMin;
  const totalPixels = ele.totalPixels ?? QWEN_VL.MODEL_SEQ_LEN * factor * factor * 0.9;
  const max = Math.max(Math.min(frameMax, (totalPixels / nframes) * QWEN_VL.FRAME_FACTOR), Math.trunc(min * 1.05));
  return { min, max: Math.min(ele.maxPixels ?? max, max) };
}

/** The size `fetch_video` resizes `nframes` frames of `width x height` to (bicubic, antialiased). */
export function fetchVideoFrameSize(width: number, height: number, nframes: number, ele: FetchVideoPixels = {}): Size {
  const { min, max } = fetchVideoPixelBounds(nframes, ele);
  return smartResize(height, width, QWEN_VL.IMAGE_PATCH_SIZE * QWEN_VL.SPATIAL_MERGE_SIZE, min, max);
}
