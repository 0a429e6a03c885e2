// The reference evaluator's frame sampling, against values worked out by hand from qwen-vl-utils
// 0.0.14 (QwenLM/Qwen3-VL qwen-vl-utils/src/qwen_vl_utils/vision_process.py at 0dcc180d) and
// ATen's CPU linspace (pytorch aten/src/ATen/native/cpu/RangeFactoriesKernel.cpp); each case
// shows its arithmetic.

import { describe, expect, it } from "vitest";
import { VideoError } from "./errors";
import {
  calculateVideoFrameRange,
  fetchVideoFrameIndices,
  fetchVideoFrameSize,
  fetchVideoPixelBounds,
  frameIndexTimes,
  referenceCropFrameIndices,
  referenceOverviewFrameIndices,
  roundHalfEven,
  smartNframes,
  smartResize,
  torchLinspaceRound,
} from "./sampling";

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return err instanceof VideoError ? err.code : `not a VideoError: ${String(err)}`;
  }
  return "no error";
}

describe("roundHalfEven (Python 3 round, torch.round)", () => {
  it("sends halves to the even neighbour", () => {
    expect([0.5, 1.5, 2.5, 3.5, -1.5, -2.5].map(roundHalfEven)).toEqual([0, 2, 2, 4, -2, -2]);
    expect([2.4999, 2.5001, 7.2, 7.8].map(roundHalfEven)).toEqual([2, 3, 7, 8]);
  });
});

describe("torchLinspaceRound", () => {
  it("includes both ends and fills the halves from each end", () => {
    // step = 1799/63 = 28.5556: i=1 28.56 -> 29, i=2 57.11 -> 57, i=3 85.67 -> 86;
    // i=31 (first half) 885.22 -> 885; i=32 (second half) 1799 - 31*step = 913.78 -> 914.
    const idx = torchLinspaceRound(0, 1799, 64);
    expect(idx).toHaveLength(64);
    expect(idx.slice(0, 4)).toEqual([0, 29, 57, 86]);
    expect(idx.slice(30, 34)).toEqual([857, 885, 914, 942]);
    expect(idx.slice(-3)).toEqual([1742, 1770, 1799]);
    expect(torchLinspaceRound(300, 309, 2)).toEqual([300, 309]);
    expect(torchLinspaceRound(7, 9, 1)).toEqual([7]);
    expect(torchLinspaceRound(7, 9, 0)).toEqual([]);
  });

  it("computes in float32, as torch's default dtype does", () => {
    // 129,050 frames (71.7 min at 30 fps), 64 frames, i = 34 (second half):
    // float32 step = fl(129049 / 63) = 2048.396728515625 (exact 2048.3968254),
    // fl(step * 29) = 59403.50390625, fl(129049 - 59403.50390625) = 69645.5 -> half to even 69646.
    // In exact arithmetic it is 4387666/63 = 69645.492 -> 69645.
    expect(torchLinspaceRound(0, 129049, 64)[34]).toBe(69646);
    expect(Math.round((34 * 129049) / 63)).toBe(69645);
  });
});

describe("smartNframes", () => {
  it("rounds nframes to an even count, halves to even", () => {
    // round_by_factor(n, 2) = round(n / 2) * 2: 63 -> round(31.5) = 32 -> 64; 65 -> round(32.5) = 32 -> 64; 67 -> 68.
    expect([64, 63, 65, 67].map((n) => smartNframes({ nframes: n }, 1800, 30))).toEqual([64, 64, 64, 68]);
  });

  it("derives the count from fps within [min_frames, max_frames], floored to even", () => {
    // 301 frames at 30 fps, 1 fps: 10.03 -> clamp to [2, 16] -> floor to even -> 10.
    expect(smartNframes({ fps: 1, minFrames: 1, maxFrames: 16 }, 301, 30)).toBe(10);
    // 150 frames: 5 -> 4. 10 frames: 0.33 -> min_frames ceil_by_factor(1, 2) = 2. 481 frames: 16.03 -> 16.
    expect(smartNframes({ fps: 1, minFrames: 1, maxFrames: 16 }, 150, 30)).toBe(4);
    expect(smartNframes({ fps: 1, minFrames: 1, maxFrames: 16 }, 10, 30)).toBe(2);
    expect(smartNframes({ fps: 1, minFrames: 1, maxFrames: 16 }, 481, 30)).toBe(16);
    // Defaults: fps 2, min 4, max min(768, total): 600 frames at 30 fps = 20 s -> 40 frames.
    expect(smartNframes({}, 600, 30)).toBe(40);
  });

  it("rejects a count outside [2, total_frames] and both nframes and fps", () => {
    expect(code(() => smartNframes({ nframes: 64 }, 50, 25))).toBe("INVALID_ARGUMENT");
    expect(code(() => smartNframes({ nframes: 1 }, 50, 25))).toBe("INVALID_ARGUMENT"); // round(0.5) = 0
    expect(code(() => smartNframes({ nframes: 8, fps: 1 }, 50, 25))).toBe("INVALID_ARGUMENT");
  });
});

describe("calculateVideoFrameRange", () => {
  it("maps [start, end] seconds to frames: ceil(start * fps) .. floor(end * fps), clamped", () => {
    expect(calculateVideoFrameRange({}, 1800, 30)).toEqual({ startFrame: 0, endFrame: 1799, frameCount: 1800 });
    expect(calculateVideoFrameRange({ videoStart: 10, videoEnd: 20 }, 1800, 30)).toEqual({
      startFrame: 300,
      endFrame: 600,
      frameCount: 301,
    });
    // end 70 s is clamped to the 60 s duration: floor(1800) -> min(1800, 1799).
    expect(calculateVideoFrameRange({ videoStart: 55, videoEnd: 70 }, 1800, 30)).toEqual({
      startFrame: 1650,
      endFrame: 1799,
      frameCount: 150,
    });
  });

  it("rejects a range without two frames, and bad totals", () => {
    // ceil(300) = 300 >= floor(300.3) = 300.
    expect(code(() => calculateVideoFrameRange({ videoStart: 10, videoEnd: 10.01 }, 1800, 30))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(code(() => calculateVideoFrameRange({}, 0, 30))).toBe("INVALID_ARGUMENT");
    expect(code(() => calculateVideoFrameRange({}, 10, 0))).toBe("INVALID_ARGUMENT");
  });
});

describe("reference overview and crops (paravt/eval/utils.py get_frames / crop_frames)", () => {
  it("overview: 64 frames including the last one", () => {
    const idx = referenceOverviewFrameIndices(1800, 30);
    expect(idx).toEqual(torchLinspaceRound(0, 1799, 64));
    expect(idx.at(-1)).toBe(1799);
    expect(frameIndexTimes(idx.slice(0, 3), 30)).toEqual([0, 29 / 30, 57 / 30]);
  });

  it("crops: 1 fps over [start, end], both ends included, an even count", () => {
    // 10 frames over 300..600: step 33.33 -> 300, 333.3, 366.7, 400, 433.3 | 466.7, 500, 533.3, 566.7, 600.
    expect(referenceCropFrameIndices(1800, 30, 10, 20)).toEqual([300, 333, 367, 400, 433, 467, 500, 533, 567, 600]);
    // 4 frames over 1650..1799: step 49.67 -> 1650, 1699.7 | 1749.3, 1799.
    expect(referenceCropFrameIndices(1800, 30, 55, 70)).toEqual([1650, 1700, 1749, 1799]);
    expect(referenceCropFrameIndices(1800, 30, 10, 10.3)).toEqual([300, 309]);
    // A 16 s window of an hour: 481 frames -> 16 frames, 32 apart.
    expect(referenceCropFrameIndices(108000, 30, 1800, 1816)).toEqual(
      Array.from({ length: 16 }, (_, i) => 54000 + 32 * i),
    );
    expect(
      fetchVideoFrameIndices({ fps: 1, minFrames: 1, maxFrames: 16, videoStart: 10, videoEnd: 20 }, 1800, 30),
    ).toEqual(referenceCropFrameIndices(1800, 30, 10, 20));
  });
});

describe("smartResize and fetch_video's pixel bounds", () => {
  it("keeps both sides multiples of 28 inside the bounds", () => {
    // 720x1280 -> 728x1288 (round 25.7, 45.7) = 937,664 > 50,176: beta = sqrt(921600/50176) = 4.2857,
    // floor(168/28)*28 = 168, floor(298.7/28)*28 = 280.
    expect(smartResize(720, 1280, 28, 784, 50176)).toEqual({ height: 168, width: 280 });
    expect(smartResize(1280, 720, 28, 784, 50176)).toEqual({ height: 280, width: 168 });
    // Overview bounds for 64 frames: beta = sqrt(921600/602112) = 1.2372 -> 581.9 -> 560, 1034.6 -> 1008.
    expect(smartResize(720, 1280, 28, 100352, 602112)).toEqual({ height: 560, width: 1008 });
    // Below the minimum: 84x168 = 14,112 < 100,352: beta = sqrt(100352/14400) = 2.6398 -> ceil(8.49)*28, ceil(15.08)*28.
    expect(smartResize(90, 160, 28, 100352, 602112)).toEqual({ height: 252, width: 448 });
    // Python rounds halves to even: 70/28 = 2.5 -> 2 -> 56 (not 84), 42/28 = 1.5 -> 2 -> 56.
    expect(smartResize(70, 70, 28, 784, 1e9)).toEqual({ height: 56, width: 56 });
    expect(smartResize(42, 42, 28, 784, 1e9)).toEqual({ height: 56, width: 56 });
  });

  it("rejects extreme aspect ratios and inverted bounds", () => {
    expect(code(() => smartResize(10, 2010, 28))).toBe("INVALID_ARGUMENT");
    expect(code(() => smartResize(100, 100, 28, 1000, 10))).toBe("INVALID_ARGUMENT");
  });

  it("bounds a frame of the overview by tokens and the sequence budget, a crop by its max_pixels", () => {
    // min 128*28*28 = 100,352; max min(768*784 = 602,112, 128000*784*0.9/64*2 = 2,822,400) = 602,112.
    expect(fetchVideoPixelBounds(64)).toEqual({ min: 100352, max: 602112 });
    // 768 frames share the budget: 90,316,800 / 768 * 2 = 235,200.
    expect(fetchVideoPixelBounds(768)).toEqual({ min: 100352, max: 235200 });
    // crop_frames: min 784, max_pixels 50,176 (below the computed 602,112).
    expect(fetchVideoPixelBounds(16, { minPixels: 784, maxPixels: 50176 })).toEqual({ min: 784, max: 50176 });
    expect(fetchVideoFrameSize(1280, 720, 64)).toEqual({ width: 1008, height: 560 });
    expect(fetchVideoFrameSize(1280, 720, 16, { minPixels: 784, maxPixels: 50176 })).toEqual({
      width: 280,
      height: 168,
    });
  });
});
