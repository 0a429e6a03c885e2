// A tiny rasterizer: draws the frame at time t of an annotated video into an RGB24 buffer
// (no canvas dependency). What it draws is exactly `observe(annotation, t)`: the scene's
// background and at most one shape (events never overlap).
//
// Background: the scene's dark base color with a vertical gradient (0.85x at the top to 1.1x
// at the bottom) and a soft horizontal band that drifts across the frame every 40 s (+-8%), so
// scenes vary slowly but never come near a shape color.

import { observe, type SeenShape } from "./observe";
import { POSITIONS, SCENE_RGB, SHAPE_RGB, type Shape } from "./palette";
import type { VideoAnnotation } from "./schemas";

export interface FrameGeometry {
  width: number;
  height: number;
}

/** Center and radius (pixels) of the shape drawn in grid cell `position`. */
export function cellGeometry(g: FrameGeometry, position: SeenShape["position"]) {
  const i = POSITIONS.indexOf(position);
  const cw = g.width / 3;
  const ch = g.height / 3;
  const col = i % 3;
  const row = Math.floor(i / 3);
  return {
    cx: (col + 0.5) * cw,
    cy: (row + 0.5) * ch,
    r: 0.4 * Math.min(cw, ch),
    cell: {
      x0: Math.round(col * cw),
      y0: Math.round(row * ch),
      x1: Math.round((col + 1) * cw),
      y1: Math.round((row + 1) * ch),
    },
  };
}

/** Whether the pixel whose center is (dx, dy) from the shape center is inside a shape of radius r. */
export function insideShape(shape: Shape, dx: number, dy: number, r: number): boolean {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  switch (shape) {
    case "circle":
      return dx * dx + dy * dy <= r * r;
    case "square":
      return ax <= 0.85 * r && ay <= 0.85 * r;
    case "diamond":
      return ax + ay <= r;
    case "triangle": {
      // Apex up, base at the bottom; the half-width grows linearly from 0 to r.
      if (dy < -r || dy > r) return false;
      return ax <= (dy + r) / 2;
    }
    case "cross":
      return (ax <= r / 3 && ay <= r) || (ay <= r / 3 && ax <= r);
  }
}

/** Renders the frame at time `t` into `out` (width * height * 3 bytes, RGB24) and returns it. */
export function renderFrame(a: VideoAnnotation, t: number, out?: Buffer): Buffer {
  const { width: w, height: h } = a;
  const buf = out ?? Buffer.alloc(w * h * 3);
  const seen = observe(a, t);
  const base = SCENE_RGB[seen.scene];
  const rowGain = new Float64Array(h);
  for (let y = 0; y < h; y++) rowGain[y] = 0.85 + (0.25 * (y + 0.5)) / h;
  const colGain = new Float64Array(w);
  for (let x = 0; x < w; x++) colGain[x] = 1 + 0.08 * Math.sin(2 * Math.PI * (t / 40 + (x + 0.5) / w));
  // A clamped view rounds and clamps on store (the hot loop of generation: ~20k pixels a frame).
  const px = new Uint8ClampedArray(buf.buffer, buf.byteOffset, w * h * 3);
  let i = 0;
  for (let y = 0; y < h; y++) {
    const r = base[0] * rowGain[y]!;
    const g = base[1] * rowGain[y]!;
    const b = base[2] * rowGain[y]!;
    for (let x = 0; x < w; x++) {
      const c = colGain[x]!;
      px[i++] = r * c;
      px[i++] = g * c;
      px[i++] = b * c;
    }
  }
  if (seen.shape) {
    const s = seen.shape;
    const { cx, cy, r } = cellGeometry(a, s.position);
    const rgb = SHAPE_RGB[s.color];
    const x0 = Math.max(0, Math.floor(cx - r - 1));
    const x1 = Math.min(w - 1, Math.ceil(cx + r + 1));
    const y0 = Math.max(0, Math.floor(cy - r - 1));
    const y1 = Math.min(h - 1, Math.ceil(cy + r + 1));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        if (!insideShape(s.shape, x + 0.5 - cx, y + 0.5 - cy, r)) continue;
        const j = (y * w + x) * 3;
        buf[j] = rgb[0];
        buf[j + 1] = rgb[1];
        buf[j + 2] = rgb[2];
      }
    }
  }
  return buf;
}

/** Time of frame `n` (frames are drawn at n / fps). */
export const frameTime = (n: number, fps: number) => n / fps;
