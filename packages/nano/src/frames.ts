// Frame features for the model: the thumbnails of the frames a sequence references
// (`FrameRef` {video, t}), decoded from the suite's videos through @paravt/video and cached in
// memory per (video, t), so each frame is decoded once per process however many examples and
// epochs use it.
//
// Pipeline (the same for training and generation): `framesAt` at the SPEC §1.1 size (the suite's
// 192x108 frames stay 192x108, JPEG q85, exact frames: `maxErrorS: 0`), JPEG -> RGB24 with
// sharp, then the thumbnail: the mean of each block when the frame is an integer multiple of the
// thumbnail (4x4 blocks for 192x108 -> 48x27), otherwise sharp's area resize; then
// `thumbnailFeatures` (byte / 127.5 - 1).

import { isAbsolute, join } from "node:path";
import { framesAt } from "@paravt/video";
import sharp from "sharp";
import { thumbnailFeatures, type ModelConfig } from "./config";
import type { FrameRef } from "./sequence";

type Thumb = ModelConfig["thumbnail"];

/** Where a sequence's frames come from: the RGB24 thumbnails (w*h*3 bytes, HWC) of `refs`, in order. */
export interface FrameSource {
  thumbnails(refs: readonly FrameRef[]): Promise<Uint8Array[]>;
}

/** Block mean of an RGB24 image whose size is an integer multiple of the thumbnail; null otherwise. */
export function boxDownsample(rgb: Uint8Array, width: number, height: number, thumb: Thumb): Uint8Array | null {
  if (width % thumb.width !== 0 || height % thumb.height !== 0) return null;
  const fx = width / thumb.width;
  const fy = height / thumb.height;
  const out = new Uint8Array(thumb.width * thumb.height * 3);
  const n = fx * fy;
  for (let y = 0; y < thumb.height; y++) {
    for (let x = 0; x < thumb.width; x++) {
      for (let ch = 0; ch < 3; ch++) {
        let sum = 0;
        for (let dy = 0; dy < fy; dy++) {
          const row = ((y * fy + dy) * width + x * fx) * 3 + ch;
          for (let dx = 0; dx < fx; dx++) sum += rgb[row + dx * 3]!;
        }
        out[(y * thumb.width + x) * 3 + ch] = Math.round(sum / n);
      }
    }
  }
  return out;
}

/** An encoded frame (JPEG, PNG…) -> the RGB24 thumbnail of `thumb`'s size. */
export async function imageThumbnail(image: Buffer, thumb: Thumb): Promise<Uint8Array> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const rgb = new Uint8Array(data.buffer, data.byteOffset, data.length);
  const boxed = boxDownsample(rgb, info.width, info.height, thumb);
  if (boxed) return boxed;
  const resized = await sharp(image)
    .removeAlpha()
    .resize(thumb.width, thumb.height, { fit: "fill", kernel: "linear" })
    .raw()
    .toBuffer();
  return new Uint8Array(resized.buffer, resized.byteOffset, resized.length);
}

/**
 * Frames of videos under `root` (a suite directory: `FrameRef.video` is relative to it, e.g.
 * `videos/v0001.mp4`), decoded once per (video, t) and kept in memory (3·w·h bytes each).
 */
export function videoFrameSource(root: string, thumb: Thumb): FrameSource & { readonly cached: number } {
  const cache = new Map<string, Promise<Uint8Array>>();
  const key = (r: FrameRef) => `${r.video}\0${r.t}`;
  return {
    get cached() {
      return cache.size;
    },
    async thumbnails(refs) {
      const missing = new Map<string, number[]>();
      for (const r of refs) {
        if (cache.has(key(r))) continue;
        const times = missing.get(r.video) ?? [];
        if (!times.includes(r.t)) times.push(r.t);
        missing.set(r.video, times);
      }
      for (const [video, times] of missing) {
        times.sort((a, b) => a - b);
        const decoded = framesAt(isAbsolute(video) ? video : join(root, video), times, { maxErrorS: 0 }).then(
          (frames) => frames.map((f) => imageThumbnail(f.jpeg, thumb)),
        );
        times.forEach((t, i) => {
          const p = decoded.then((all) => all[i]!);
          p.catch(() => cache.delete(key({ video, t }))); // a failed decode is retried next time
          cache.set(key({ video, t }), p);
        });
      }
      return Promise.all(refs.map((r) => cache.get(key(r))!));
    },
  };
}

/** The features of `refs` (one Float32Array of P per frame). */
export async function frameFeatures(
  source: FrameSource,
  refs: readonly FrameRef[],
  config: Pick<ModelConfig, "thumbnail" | "frameFeatures" | "frameEncoding">,
): Promise<Float32Array[]> {
  const thumbs = await source.thumbnails(refs);
  return thumbs.map((t) => thumbnailFeatures(t, config));
}
