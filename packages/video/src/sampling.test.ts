import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  MAX_CROP_FRAMES,
  MAX_PIXELS,
  MIN_PIXELS,
  VideoError,
  clampWindow,
  cropTimestamps,
  defaultMaxErrorS,
  filmstripLayout,
  filmstripSheetSize,
  filmstripTileAt,
  filmstripTimestamps,
  fitBox,
  fitPixels,
  overviewTimestamps,
} from "./sampling";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof VideoError ? err.code : `not a VideoError: ${String(err)}`;
  }
  return undefined;
}

describe("overviewTimestamps", () => {
  it("samples K points evenly over [0, duration)", () => {
    expect(overviewTimestamps(64, 4)).toEqual([0, 16, 32, 48]);
    expect(overviewTimestamps(10, 8)).toEqual([0, 1.25, 2.5, 3.75, 5, 6.25, 7.5, 8.75]);
    expect(overviewTimestamps(3600, 64)[1]).toBe(56.25);
    expect(overviewTimestamps(7, 1)).toEqual([0]);
  });

  it("is exact i*duration/K, strictly increasing and strictly before the end, for any K", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 1e5, noNaN: true }), fc.integer({ min: 1, max: 256 }), (d, k) => {
        const ts = overviewTimestamps(d, k);
        expect(ts).toHaveLength(k);
        ts.forEach((t, i) => {
          expect(t).toBe((i * d) / k);
          expect(t).toBeLessThan(d);
          if (i > 0) expect(t).toBeGreaterThan(ts[i - 1]!);
        });
      }),
    );
  });

  it("rejects K that is not a positive integer and non-positive durations", () => {
    expect(codeOf(() => overviewTimestamps(10, 0))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => overviewTimestamps(10, 2.5))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => overviewTimestamps(0, 4))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => overviewTimestamps(Number.NaN, 4))).toBe("INVALID_ARGUMENT");
  });
});

describe("cropTimestamps / clampWindow (SPEC §1.4)", () => {
  it("samples 1 fps from start, half-open at the end", () => {
    expect(cropTimestamps(10, 20, 100)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(cropTimestamps(10, 26, 100)).toHaveLength(16);
    expect(cropTimestamps(2.5, 5, 100)).toEqual([2.5, 3.5, 4.5]);
  });

  it("gives at least one frame for windows shorter than a second", () => {
    expect(cropTimestamps(4, 4.3, 100)).toEqual([4]);
  });

  it("subsamples windows longer than 16 s to exactly 16 evenly spaced frames", () => {
    const ts = cropTimestamps(0, 64, 100);
    expect(ts).toHaveLength(MAX_CROP_FRAMES);
    expect(ts).toEqual(Array.from({ length: 16 }, (_, i) => i * 4));
    expect(cropTimestamps(10, 26.5, 100)).toHaveLength(16);
  });

  it("clamps end to the duration", () => {
    expect(clampWindow(95, 120, 100)).toEqual({ start: 95, end: 100, clamped: true });
    expect(cropTimestamps(95, 120, 100)).toEqual([95, 96, 97, 98, 99]);
    expect(clampWindow(5, 10, 100)).toEqual({ start: 5, end: 10, clamped: false });
  });

  it("rejects start >= end, start >= duration, negative and non-finite times", () => {
    expect(codeOf(() => cropTimestamps(20, 10, 100))).toBe("INVALID_WINDOW");
    expect(codeOf(() => cropTimestamps(10, 10, 100))).toBe("INVALID_WINDOW");
    expect(codeOf(() => cropTimestamps(100, 120, 100))).toBe("INVALID_WINDOW");
    expect(codeOf(() => cropTimestamps(150, 160, 100))).toBe("INVALID_WINDOW");
    expect(codeOf(() => cropTimestamps(-1, 5, 100))).toBe("INVALID_WINDOW");
    expect(codeOf(() => cropTimestamps(Number.NaN, 5, 100))).toBe("INVALID_WINDOW");
    expect(codeOf(() => cropTimestamps(1, Number.POSITIVE_INFINITY, 100))).toBe("INVALID_WINDOW");
  });

  it("writes messages a user can act on", () => {
    try {
      cropTimestamps(120, 130, 100);
      expect.unreachable();
    } catch (err) {
      expect((err as VideoError).message).toBe(
        "Invalid crop window 120.0s–130.0s: start is at or past the end of the video (100.0s).",
      );
    }
  });

  it("always yields 1..16 increasing frames inside [start, clamped end)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.double({ min: 0.001, max: 2000, noNaN: true }),
        fc.double({ min: 0.5, max: 1000, noNaN: true }),
        (start, len, duration) => {
          fc.pre(start < duration);
          const end = start + len;
          fc.pre(end > start);
          const ts = cropTimestamps(start, end, duration);
          const w = clampWindow(start, end, duration);
          expect(ts.length).toBeGreaterThanOrEqual(1);
          expect(ts.length).toBeLessThanOrEqual(16);
          expect(ts[0]).toBe(start);
          for (let i = 1; i < ts.length; i++) expect(ts[i]!).toBeGreaterThan(ts[i - 1]!);
          for (const t of ts) expect(t).toBeLessThan(w.end);
          // 1 fps whenever that fits in 16 frames.
          if (w.end - w.start <= 16 && ts.length > 1) expect(ts[1]! - ts[0]!).toBeCloseTo(1, 9);
        },
      ),
    );
  });
});

describe("fitPixels (SPEC §1.1 pixel bounds)", () => {
  it("downscales large frames into the bounds keeping aspect", () => {
    expect(fitPixels(1280, 720)).toEqual({ width: 298, height: 168 });
    expect(fitPixels(1920, 1080)).toEqual({ width: 298, height: 168 });
    expect(fitPixels(720, 1280)).toEqual({ width: 168, height: 298 });
    expect(fitPixels(224, 224)).toEqual({ width: 224, height: 224 });
  });

  it("keeps frames already inside the bounds and upscales tiny ones", () => {
    expect(fitPixels(160, 120)).toEqual({ width: 160, height: 120 });
    const tiny = fitPixels(16, 16);
    expect(tiny.width * tiny.height).toBeGreaterThanOrEqual(MIN_PIXELS);
    expect(tiny).toEqual({ width: 28, height: 28 });
  });

  it("always lands within [min, max] with the aspect ratio kept up to rounding", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8000 }), fc.integer({ min: 1, max: 8000 }), (w, h) => {
        fc.pre(Math.max(w, h) / Math.min(w, h) <= 64);
        const out = fitPixels(w, h);
        const area = out.width * out.height;
        expect(area).toBeLessThanOrEqual(MAX_PIXELS);
        expect(area).toBeGreaterThanOrEqual(MIN_PIXELS);
        // One pixel of rounding on the shorter side is the most the aspect can move.
        const aspect = w / h;
        const got = out.width / out.height;
        const tolerance = Math.max(1 / out.height, 1 / out.width) * Math.max(aspect, 1) * 1.01 + 1e-9;
        expect(Math.abs(got - aspect) / aspect).toBeLessThanOrEqual(tolerance);
      }),
    );
  });

  it("never exceeds the upper bound, even for shapes too thin to keep aspect", () => {
    const out = fitPixels(100000, 1);
    expect(out.width * out.height).toBeLessThanOrEqual(MAX_PIXELS);
    expect(out.width).toBeGreaterThanOrEqual(1);
    expect(out.height).toBeGreaterThanOrEqual(1);
  });

  it("rejects invalid sizes and bounds", () => {
    expect(codeOf(() => fitPixels(0, 10))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => fitPixels(10, 10, 100, 50))).toBe("INVALID_ARGUMENT");
  });
});

describe("fitBox", () => {
  it("fits inside the box and never upscales", () => {
    expect(fitBox(1280, 720, 320, 320)).toEqual({ width: 320, height: 180 });
    expect(fitBox(720, 1280, 320, 320)).toEqual({ width: 180, height: 320 });
    expect(fitBox(100, 50, 320, 320)).toEqual({ width: 100, height: 50 });
  });
});

describe("defaultMaxErrorS", () => {
  it("is half the smallest spacing, or the fallback for a single timestamp", () => {
    expect(defaultMaxErrorS([0, 10, 20, 25], 0)).toBe(2.5);
    expect(defaultMaxErrorS([25, 0, 10], 0)).toBe(5);
    expect(defaultMaxErrorS([7], 3)).toBe(3);
  });
});

describe("filmstrip layout", () => {
  it("takes midpoints of equal slices and maps hover times back to the slice", () => {
    expect(filmstripTimestamps(100, 4)).toEqual([12.5, 37.5, 62.5, 87.5]);
    expect(filmstripTileAt(0, 100, 4)).toBe(0);
    expect(filmstripTileAt(37.5, 100, 4)).toBe(1);
    expect(filmstripTileAt(99.99, 100, 4)).toBe(3);
    expect(filmstripTileAt(150, 100, 4)).toBe(3);
    expect(filmstripTileAt(-3, 100, 4)).toBe(0);
  });

  it("places tiles row-major and spills into new sheets", () => {
    const ts = filmstripTimestamps(100, 23);
    const index = filmstripLayout(ts, { tileWidth: 160, tileHeight: 90, columns: 5, rowsPerSheet: 2 });
    expect(index.columns).toBe(5);
    expect(index.rows).toBe(2);
    expect(index.sheetCount).toBe(3);
    expect(index.frames[0]).toEqual({ t: ts[0], sheet: 0, x: 0, y: 0 });
    expect(index.frames[6]).toEqual({ t: ts[6], sheet: 0, x: 160, y: 90 });
    expect(index.frames[10]).toEqual({ t: ts[10], sheet: 1, x: 0, y: 0 });
    expect(index.frames[22]).toEqual({ t: ts[22], sheet: 2, x: 2 * 160, y: 0 });
    expect(filmstripSheetSize(index, 0)).toEqual({ width: 800, height: 180 });
    expect(filmstripSheetSize(index, 2)).toEqual({ width: 800, height: 90 });
  });

  it("keeps every tile inside its sheet with no two tiles overlapping", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        (n, columns, rowsPerSheet) => {
          const index = filmstripLayout(filmstripTimestamps(60, n), {
            tileWidth: 16,
            tileHeight: 9,
            columns,
            rowsPerSheet,
          });
          const seen = new Set<string>();
          for (const f of index.frames) {
            const size = filmstripSheetSize(index, f.sheet);
            expect(f.x + index.tileWidth).toBeLessThanOrEqual(size.width);
            expect(f.y + index.tileHeight).toBeLessThanOrEqual(size.height);
            const key = `${f.sheet}:${f.x}:${f.y}`;
            expect(seen.has(key)).toBe(false);
            seen.add(key);
          }
          expect(new Set(index.frames.map((f) => f.sheet)).size).toBe(index.sheetCount);
        },
      ),
    );
  });
});

describe("VideoError", () => {
  it("serializes code and message for the API", () => {
    const err = new VideoError("TRUNCATED", "The video is incomplete.", { detail: "moov atom not found" });
    expect(JSON.parse(JSON.stringify(err))).toEqual({
      code: "TRUNCATED",
      message: "The video is incomplete.",
      detail: "moov atom not found",
    });
    expect(err).toBeInstanceOf(Error);
  });
});
