// Pure sampling and sizing math shared by the server (which decodes) and the UI (which draws
// ticks, crop windows and scrubber previews). Client-safe: no Node imports, exported separately
// as `@paravt/video/sampling`. Every number the model sees about time comes from here, so the
// UI and the episode runner can never disagree about where a frame was taken.

import { VideoError } from "./errors";
import type { Size } from "./size";

/** SPEC §1.1: frames are resized so that MIN_PIXELS <= width*height <= MAX_PIXELS. */
export const MIN_PIXELS = 784;
/** 224 x 224 (SPEC §1.1). */
export const MAX_PIXELS = 50176;
/** SPEC §5: frames travel as JPEG quality 85. */
export const JPEG_QUALITY = 85;
/** SPEC §1.4: crop_video samples at 1 fps, at least 1 and at most 16 frames. */
export const CROP_FPS = 1;
export const MAX_CROP_FRAMES = 16;
/** SPEC §1.1 default overview size. */
export const DEFAULT_OVERVIEW_FRAMES = 64;

function assertDuration(duration: number): void {
  if (!Number.isFinite(duration) || duration <= 0) {
    throw new VideoError("INVALID_ARGUMENT", `Video duration must be a positive number of seconds (got ${duration}).`);
  }
}

function assertCount(count: number, what: string): void {
  if (!Number.isInteger(count) || count < 1) {
    throw new VideoError("INVALID_ARGUMENT", `${what} must be a positive integer (got ${count}).`);
  }
}

/**
 * Timestamps (seconds from the start of the video) of the K overview frames: `t_i = i * duration / K`
 * for `i = 0 .. K-1`, i.e. K evenly spaced points over the half-open range [0, duration).
 *
 * Why this formula: the first frame is the opening frame and every point lies strictly before the
 * end, where no frame exists (the last frame starts one frame period before `duration`). The
 * spacing is exactly `duration / K`, so tick `i` of the UI sits at `i / K` of the timeline.
 * `i * duration / K` (not `i * (duration / K)`) keeps results exact when `duration` is a multiple of K.
 */
export function overviewTimestamps(duration: number, k: number): number[] {
  assertDuration(duration);
  assertCount(k, "The number of overview frames K");
  return Array.from({ length: k }, (_, i) => (i * duration) / k);
}

export interface CropWindow {
  start: number;
  /** End after clamping to the video duration. */
  end: number;
  /** True when the requested end was past the end of the video (SPEC §1.4: clamped, not an error). */
  clamped: boolean;
}

function fmt(seconds: number): string {
  return `${Number.isFinite(seconds) ? seconds.toFixed(1) : String(seconds)}s`;
}

/**
 * Validates a crop_video window against SPEC §1.4: `start >= end` and `start >= duration` are
 * errors, `end > duration` is clamped. A negative or non-finite time is an error too (the SPEC
 * leaves it open; rejecting it turns a model's mistake into a visible tool error instead of a
 * silently shifted window).
 */
export function clampWindow(start: number, end: number, duration: number): CropWindow {
  assertDuration(duration);
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    throw new VideoError(
      "INVALID_WINDOW",
      `Invalid crop window ${fmt(start)}–${fmt(end)}: times must be finite numbers.`,
    );
  }
  if (start < 0) {
    throw new VideoError(
      "INVALID_WINDOW",
      `Invalid crop window ${fmt(start)}–${fmt(end)}: start must not be negative.`,
    );
  }
  if (start >= end) {
    throw new VideoError("INVALID_WINDOW", `Invalid crop window ${fmt(start)}–${fmt(end)}: start must be before end.`);
  }
  if (start >= duration) {
    throw new VideoError(
      "INVALID_WINDOW",
      `Invalid crop window ${fmt(start)}–${fmt(end)}: start is at or past the end of the video (${fmt(duration)}).`,
    );
  }
  return end > duration ? { start, end: duration, clamped: true } : { start, end, clamped: false };
}

/**
 * Timestamps of a crop_video window (SPEC §1.4): one frame per second from `start`
 * (`start, start+1, …`, every point strictly before the clamped end, so a 16-second window gives
 * exactly 16 frames and a 0.3-second one gives 1). Windows longer than 16 s are subsampled evenly:
 * the spacing becomes `length / 16` and there are exactly 16 frames. Same half-open convention
 * as `overviewTimestamps`.
 */
export function cropTimestamps(start: number, end: number, duration: number): number[] {
  const w = clampWindow(start, end, duration);
  const length = w.end - w.start;
  const spacing = Math.max(1 / CROP_FPS, length / MAX_CROP_FRAMES);
  // The epsilon keeps float noise (e.g. 10.000000000000002 s) from adding a frame at the end.
  const count = Math.min(MAX_CROP_FRAMES, Math.max(1, Math.ceil(length / spacing - 1e-9)));
  return Array.from({ length: count }, (_, i) => w.start + i * spacing);
}

/**
 * Half the smallest spacing between requested timestamps (`fallback` for one timestamp): the
 * largest `maxErrorS` for which each keyframe-approximated frame stays nearer its own tick than
 * any neighbour's. Frames are exact by default; this is a bound for callers that opt into speed.
 */
export function defaultMaxErrorS(timestamps: readonly number[], fallback: number): number {
  const sorted = [...timestamps].sort((a, b) => a - b);
  let spacing = Infinity;
  for (let i = 1; i < sorted.length; i++) {
    const d = sorted[i]! - sorted[i - 1]!;
    if (d > 0) spacing = Math.min(spacing, d);
  }
  return Number.isFinite(spacing) ? spacing / 2 : fallback;
}

export type { Size } from "./size";

/**
 * Output size for a `width x height` image so that `minPixels <= w*h <= maxPixels`, keeping the
 * aspect ratio (up to integer rounding). Images already inside the bounds keep their size. When
 * the bounds are too tight for any integer size of that shape (extreme aspect ratios), the upper
 * bound wins: frames are never larger than `maxPixels`.
 */
export function fitPixels(width: number, height: number, minPixels = MIN_PIXELS, maxPixels = MAX_PIXELS): Size {
  if (!(width > 0) || !(height > 0) || !Number.isFinite(width) || !Number.isFinite(height)) {
    throw new VideoError("INVALID_ARGUMENT", `Image size must be positive (got ${width}x${height}).`);
  }
  if (!(minPixels >= 1) || !(maxPixels >= minPixels) || !Number.isFinite(maxPixels)) {
    throw new VideoError(
      "INVALID_ARGUMENT",
      `Pixel bounds must satisfy 1 <= min <= max (got ${minPixels}, ${maxPixels}).`,
    );
  }
  let w = Math.max(1, Math.round(width));
  let h = Math.max(1, Math.round(height));
  const area = width * height;
  if (area > maxPixels) {
    const s = Math.sqrt(maxPixels / area);
    w = Math.max(1, Math.floor(width * s));
    h = Math.max(1, Math.floor(height * s));
  } else if (area < minPixels) {
    // Round the shorter side up and derive the longer one from it: rounding both sides up
    // independently can move the aspect by a pixel on each side (1x12 became 9x97, not 9x108).
    const s = Math.sqrt(minPixels / area);
    if (width <= height) {
      w = Math.max(1, Math.ceil(width * s));
      h = Math.max(1, Math.round((w * height) / width));
    } else {
      h = Math.max(1, Math.ceil(height * s));
      w = Math.max(1, Math.round((h * width) / height));
    }
  }
  // Integer rounding (or a dimension pinned at 1 px) can leave the area outside the bounds.
  if (w * h > maxPixels) {
    if (w >= h) w = Math.max(1, Math.floor(maxPixels / h));
    else h = Math.max(1, Math.floor(maxPixels / w));
  }
  if (w * h < minPixels) {
    if (w >= h) w = Math.min(Math.ceil(minPixels / h), Math.floor(maxPixels / h));
    else h = Math.min(Math.ceil(minPixels / w), Math.floor(maxPixels / w));
  }
  return { width: w, height: h };
}

/** Largest size that fits in `maxWidth x maxHeight` keeping the aspect ratio; never upscales. */
export function fitBox(width: number, height: number, maxWidth: number, maxHeight: number): Size {
  if (!(width > 0) || !(height > 0) || !(maxWidth >= 1) || !(maxHeight >= 1)) {
    throw new VideoError("INVALID_ARGUMENT", `Invalid sizes ${width}x${height} in ${maxWidth}x${maxHeight}.`);
  }
  const s = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * s)), height: Math.max(1, Math.round(height * s)) };
}

/**
 * Timestamps of filmstrip tiles: the midpoints `(i + 0.5) * duration / n` of n equal slices of the
 * timeline. A scrubber hovering at time t shows tile `filmstripTileAt(t, duration, n)`, the slice
 * that contains t, whose frame was taken at the middle of that slice.
 */
export function filmstripTimestamps(duration: number, n: number): number[] {
  assertDuration(duration);
  assertCount(n, "The number of filmstrip frames");
  return Array.from({ length: n }, (_, i) => ((i + 0.5) * duration) / n);
}

export function filmstripTileAt(t: number, duration: number, n: number): number {
  assertDuration(duration);
  assertCount(n, "The number of filmstrip frames");
  return Math.min(n - 1, Math.max(0, Math.floor((t / duration) * n)));
}

export interface FilmstripFrame {
  /** Timestamp of the tile's frame (seconds). */
  t: number;
  /** Index of the sprite sheet holding the tile. */
  sheet: number;
  /** Top-left pixel of the tile inside its sheet. */
  x: number;
  y: number;
}

export interface FilmstripIndex {
  tileWidth: number;
  tileHeight: number;
  columns: number;
  /** Rows of a full sheet; the last sheet may have fewer (see `filmstripSheetSize`). */
  rows: number;
  sheetCount: number;
  frames: FilmstripFrame[];
}

/** Places tiles row-major, `columns` per row, `rowsPerSheet` rows per sheet, starting new sheets as needed. */
export function filmstripLayout(
  timestamps: readonly number[],
  opts: { tileWidth: number; tileHeight: number; columns: number; rowsPerSheet: number },
): FilmstripIndex {
  assertCount(timestamps.length, "The number of filmstrip frames");
  assertCount(opts.columns, "Filmstrip columns");
  assertCount(opts.rowsPerSheet, "Filmstrip rows per sheet");
  assertCount(opts.tileWidth, "Filmstrip tile width");
  assertCount(opts.tileHeight, "Filmstrip tile height");
  const columns = Math.min(opts.columns, timestamps.length);
  const perSheet = columns * opts.rowsPerSheet;
  const rows = Math.min(opts.rowsPerSheet, Math.ceil(timestamps.length / columns));
  const frames = timestamps.map((t, i) => {
    const within = i % perSheet;
    return {
      t,
      sheet: Math.floor(i / perSheet),
      x: (within % columns) * opts.tileWidth,
      y: Math.floor(within / columns) * opts.tileHeight,
    };
  });
  return {
    tileWidth: opts.tileWidth,
    tileHeight: opts.tileHeight,
    columns,
    rows,
    sheetCount: Math.ceil(timestamps.length / perSheet),
    frames,
  };
}

/** Pixel size of one sprite sheet: full width, and only as many rows as that sheet uses. */
export function filmstripSheetSize(index: FilmstripIndex, sheet: number): Size {
  const onSheet = index.frames.filter((f) => f.sheet === sheet);
  if (onSheet.length === 0) {
    throw new VideoError("INVALID_ARGUMENT", `Filmstrip has no sheet ${sheet}.`);
  }
  const maxY = Math.max(...onSheet.map((f) => f.y));
  return { width: index.columns * index.tileWidth, height: maxY + index.tileHeight };
}

export { VIDEO_ERROR_CODES, VideoError, isVideoError, type VideoErrorCode } from "./errors";
// The reference evaluator's sampling (qwen-vl-utils fetch_video), optional: client-safe too.
export * from "./reference-sampling";
