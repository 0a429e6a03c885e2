import { describe, expect, it } from "vitest";
import { observe } from "./observe";
import { POSITIONS, SCENE_RGB, SHAPE_RGB, SHAPES, type Position, type Shape } from "./palette";
import { cellGeometry, insideShape, renderFrame } from "./render";
import type { VideoAnnotation } from "./schemas";

function video(shape: Shape, position: Position): VideoAnnotation {
  return {
    generatorVersion: 1,
    id: "v1",
    file: "videos/v1.mp4",
    durationS: 64,
    fps: 4,
    width: 192,
    height: 108,
    scenes: [
      { index: 0, start: 0, end: 30, color: "teal" },
      { index: 1, start: 30, end: 64, color: "purple" },
    ],
    events: [{ id: "e1", start: 10, end: 14, shape, color: "yellow", position, role: "needle" }],
  };
}

const pixel = (buf: Buffer, w: number, x: number, y: number) => [...buf.subarray((y * w + x) * 3, (y * w + x) * 3 + 3)];
const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

function countColor(buf: Buffer, w: number, rgb: readonly number[]): number {
  let n = 0;
  for (let i = 0; i < buf.length; i += 3) if (buf[i] === rgb[0] && buf[i + 1] === rgb[1] && buf[i + 2] === rgb[2]) n++;
  return n;
}

describe("renderFrame", () => {
  it("draws the event's shape in its cell, in its color, only while it lasts", () => {
    for (const position of POSITIONS) {
      const a = video("circle", position);
      const g = cellGeometry(a, position);
      const during = renderFrame(a, 12);
      expect(pixel(during, a.width, Math.floor(g.cx), Math.floor(g.cy))).toEqual([...SHAPE_RGB.yellow]);
      // Every shape pixel lies inside the event's cell.
      const inCell = (() => {
        let n = 0;
        for (let y = g.cell.y0; y < g.cell.y1; y++)
          for (let x = g.cell.x0; x < g.cell.x1; x++)
            if (dist(pixel(during, a.width, x, y), SHAPE_RGB.yellow) === 0) n++;
        return n;
      })();
      expect(inCell).toBe(countColor(during, a.width, SHAPE_RGB.yellow));
      expect(inCell).toBeGreaterThan(0.2 * (g.cell.x1 - g.cell.x0) * (g.cell.y1 - g.cell.y0));
      for (const t of [9.75, 14, 20]) expect(countColor(renderFrame(a, t), a.width, SHAPE_RGB.yellow)).toBe(0);
    }
  });

  it("gives each shape its own outline", () => {
    const masks = SHAPES.map((s) => {
      let m = "";
      for (let dy = -14; dy <= 14; dy += 2)
        for (let dx = -14; dx <= 14; dx += 2) m += insideShape(s, dx, dy, 14) ? 1 : 0;
      return m;
    });
    expect(new Set(masks).size).toBe(SHAPES.length);
    expect(insideShape("triangle", 0, -13, 14)).toBe(true);
    expect(insideShape("triangle", 10, -10, 14)).toBe(false);
    expect(insideShape("cross", 10, 10, 14)).toBe(false);
  });

  it("paints the scene background, dark and far from every shape color, varying slowly", () => {
    const a = video("square", "center");
    for (const t of [0, 29.75, 30, 63.75]) {
      const f = renderFrame(a, t);
      const base = SCENE_RGB[observe(a, t).scene];
      for (const [x, y] of [
        [0, 0],
        [191, 107],
        [20, 90],
      ] as const) {
        const p = pixel(f, a.width, x, y);
        expect(dist(p, base)).toBeLessThan(0.25 * Math.hypot(...base));
        for (const c of Object.values(SHAPE_RGB)) expect(dist(p, c)).toBeGreaterThan(90);
      }
    }
    // Consecutive frames differ only slightly; the same time always gives the same bytes.
    const f0 = renderFrame(a, 40);
    const f1 = renderFrame(a, 40.25);
    expect(f0.equals(renderFrame(a, 40))).toBe(true);
    expect(f0.equals(f1)).toBe(false);
    let maxDiff = 0;
    for (let i = 0; i < f0.length; i++) maxDiff = Math.max(maxDiff, Math.abs(f0[i]! - f1[i]!));
    expect(maxDiff).toBeLessThanOrEqual(3);
  });
});
