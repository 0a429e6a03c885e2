import { capEvenly } from "@paravt/shared";
import { filmstripLayout, filmstripTimestamps } from "@paravt/video/sampling";
import { describe, expect, it } from "vitest";
import type { Filmstrip } from "../viewer/filmstrip-tiles";
import { cardTiles, gridMove, miniTimeline } from "./sample-grid-model";

/** A filmstrip index as the video.assets job writes it: n tiles of 160x90, 10 per row, 10 rows a sheet. */
function strip(duration: number, n: number): Filmstrip {
  const index = filmstripLayout(filmstripTimestamps(duration, n), {
    tileWidth: 160,
    tileHeight: 90,
    columns: 10,
    rowsPerSheet: 10,
  });
  return { ...index, duration };
}

describe("card tiles", () => {
  it("picks, for each overview timestamp, the tile of the slice holding it (the nearest tile)", () => {
    const fs = strip(60, 30); // slices of 2 s, tile frames at 1, 3, 5, ... s
    const tiles = cardTiles(fs, [0, 7.5, 15, 22.5, 30, 37.5, 45, 52.5], 8);
    expect(tiles.map((t) => t.t)).toEqual([0, 7.5, 15, 22.5, 30, 37.5, 45, 52.5]);
    expect(tiles.map((t) => t.tileT)).toEqual([1, 7, 15, 23, 31, 37, 45, 53]);
    // Every tile's frame is within half a slice of the time it stands for.
    for (const t of tiles) expect(Math.abs(t.tileT - t.t)).toBeLessThanOrEqual(1);
  });

  it("keeps at most `max` timestamps, evenly, first and last included", () => {
    const fs = strip(64, 64);
    const times = Array.from({ length: 64 }, (_, i) => i);
    const tiles = cardTiles(fs, times, 6);
    expect(tiles).toHaveLength(6);
    expect(tiles[0]!.t).toBe(0);
    expect(tiles[5]!.t).toBe(63);
    expect(tiles.map((t) => t.t)).toEqual(capEvenly(times, 6));
  });

  it("shows a tile two timestamps share once", () => {
    const fs = strip(10, 10); // 1 s slices
    expect(cardTiles(fs, [0.1, 0.2, 0.9, 5.5], 6).map((t) => t.tileT)).toEqual([0.5, 5.5]);
  });

  it("without overview timestamps, spreads the tiles evenly over the video", () => {
    const fs = strip(100, 50);
    const tiles = cardTiles(fs, [], 6);
    expect(tiles.map((t) => t.tileT)).toEqual(capEvenly(fs.frames, 6).map((f) => f.t));
    expect(tiles[0]!.tileT).toBe(1);
    expect(tiles[5]!.tileT).toBe(99);
  });

  it("positions the sprite in % of the tile box: column c of C at c/(C-1), rows of the tile's own sheet", () => {
    // 150 tiles: sheet 0 holds 100 (10 x 10), sheet 1 the last 50 (10 x 5 rows).
    const fs = strip(150, 150);
    const [first, mid, last] = cardTiles(fs, [0.5, 54.5, 149.5], 3);
    expect(first).toMatchObject({ sheet: 0, size: "1000% 1000%", position: "0% 0%" });
    // Tile 54: row 5, column 4 of sheet 0.
    expect(mid).toMatchObject({ sheet: 0, size: "1000% 1000%", position: "44.444% 55.556%" });
    // Tile 149: row 4 (the last of 5), column 9 of sheet 1.
    expect(last).toMatchObject({ sheet: 1, size: "1000% 500%", position: "100% 100%" });
    expect(first!.aspect).toBeCloseTo(160 / 90);
  });

  it("has no tiles for an empty filmstrip", () => {
    expect(cardTiles({ ...strip(10, 10), frames: [] }, [1, 2])).toEqual([]);
  });
});

describe("mini timeline", () => {
  const base = { overviewTimestamps: [], windows: [], grounding: false, answer: "A", prediction: "A" };

  it("places ticks and windows at time / duration in % (the viewer's formula), clamped to the video", () => {
    const tl = miniTimeline({
      ...base,
      duration: 80,
      overviewTimestamps: [0, 10, 70],
      windows: [
        { turn: 0, call: 0, startS: 8, endS: 16, status: "OK" },
        { turn: 0, call: 1, startS: 72, endS: 96, status: "OK" },
        { turn: 1, call: 0, startS: 40, endS: 60, status: "REJECTED" },
      ],
    })!;
    expect(tl.ticks.map((t) => t.leftPct)).toEqual([0, 12.5, 87.5]);
    expect(tl.lanes.map((l) => l.turn)).toEqual([0, 1]);
    const [a, b] = tl.lanes[0]!.windows;
    expect([a!.leftPct, a!.widthPct]).toEqual([10, 10]);
    // Past the end: only the part inside the video (72..80 s).
    expect([b!.leftPct, b!.widthPct]).toEqual([90, 10]);
    expect(tl.lanes[1]!.windows[0]).toMatchObject({ leftPct: 50, widthPct: 25, status: "REJECTED" });
  });

  it("stacks overlapping windows of a turn in sub-rows (the viewer's packing)", () => {
    const tl = miniTimeline({
      ...base,
      duration: 100,
      windows: [
        { turn: 0, call: 0, startS: 5, endS: 12 },
        { turn: 0, call: 1, startS: 8, endS: 18 },
        { turn: 0, call: 2, startS: 42, endS: 48 },
      ].map((w) => ({ ...w, status: "OK" as const })),
    })!;
    expect(tl.lanes[0]!.rows).toBe(2);
    expect(tl.lanes[0]!.windows.map((w) => [w.id, w.row])).toEqual([
      ["0.0", 0],
      ["0.1", 1],
      ["0.2", 0],
    ]);
  });

  it("draws the reference and predicted spans of a grounding sample", () => {
    const tl = miniTimeline({ ...base, duration: 50, grounding: true, answer: "[10, 20]", prediction: "15.0 - 30.0" })!;
    expect(tl.truth).toMatchObject({ startS: 10, endS: 20, leftPct: 20, widthPct: 20 });
    expect(tl.predicted).toMatchObject({ startS: 15, endS: 30, leftPct: 30, widthPct: 30 });
    expect(miniTimeline({ ...base, duration: 50, answer: "[10, 20]" })!.truth).toBeNull();
  });

  it("has no timeline without a duration", () => {
    expect(miniTimeline({ ...base, duration: null })).toBeNull();
    expect(miniTimeline({ ...base, duration: 0 })).toBeNull();
  });
});

describe("arrow keys in the grid", () => {
  // 10 cards, 4 columns: rows 0-3, 4-7, 8-9.
  it("moves by one across and by a row up and down", () => {
    expect(gridMove(0, "ArrowRight", 4, 10)).toBe(1);
    expect(gridMove(1, "ArrowLeft", 4, 10)).toBe(0);
    expect(gridMove(0, "ArrowLeft", 4, 10)).toBeNull();
    expect(gridMove(1, "ArrowDown", 4, 10)).toBe(5);
    expect(gridMove(5, "ArrowUp", 4, 10)).toBe(1);
    expect(gridMove(2, "ArrowUp", 4, 10)).toBeNull();
    expect(gridMove(6, "Home", 4, 10)).toBe(0);
    expect(gridMove(0, "End", 4, 10)).toBe(9);
  });

  it("lands on the last card from above a short last row, and asks for more past the end", () => {
    expect(gridMove(6, "ArrowDown", 4, 10)).toBe(9);
    expect(gridMove(8, "ArrowDown", 4, 10)).toBe("past-end");
    expect(gridMove(9, "ArrowRight", 4, 10)).toBe("past-end");
    expect(gridMove(0, "ArrowDown", 4, 0)).toBeNull();
  });
});
