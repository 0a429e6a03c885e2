// The pure parts of a sample-grid card (issue 41 item 13): which filmstrip tiles it shows, where its
// mini timeline draws ticks, crop windows and grounding spans, and how arrow keys move between
// cards. Placement and colours are the episode viewer's (lane-model.ts `timePct` / `spanPct` /
// `packRows`, lane-colors.ts); the tile of a time is the sampler's (`filmstripTileAt`).
import { capEvenly, type GridWindow } from "@paravt/shared";
import { filmstripTileAt } from "@paravt/video/sampling";
import type { Filmstrip } from "../viewer/filmstrip-tiles";
import { packRows, spanOf, spanPct, timePct, windowId, type LaneSpan, type LaneWindow } from "../viewer/lane-model";

/** Tiles on a card's filmstrip strip. */
export const CARD_TILES = 6;

export interface CardTile {
  /** The time the tile stands for: an overview timestamp, or a slice of the video without them. */
  t: number;
  /** The time of the tile's own frame (the middle of its filmstrip slice). */
  tileT: number;
  sheet: number;
  /** CSS background-size / background-position in % of the tile box (the sheet scales with the card). */
  size: string;
  position: string;
  /** Width / height of a tile, for the box's aspect ratio. */
  aspect: number;
}

/** Rows used on each sprite sheet (the last one may be short; filmstripSheetSize's rule). */
function rowsPerSheet(filmstrip: Filmstrip): Map<number, number> {
  const rows = new Map<number, number>();
  for (const f of filmstrip.frames) {
    rows.set(f.sheet, Math.max(rows.get(f.sheet) ?? 0, f.y / filmstrip.tileHeight + 1));
  }
  return rows;
}

/**
 * The tiles of a card: for up to `max` of `times` (evenly picked, `capEvenly`), the filmstrip tile
 * of the slice holding that time (`filmstripTileAt`: the nearest tile, its frame at the slice's
 * middle); without times (a dataset sample, an imported run), `max` tiles evenly over the video.
 * A tile two times share is shown once.
 */
export function cardTiles(filmstrip: Filmstrip, times: readonly number[], max = CARD_TILES): CardTile[] {
  const n = filmstrip.frames.length;
  if (n === 0 || !(filmstrip.duration > 0)) return [];
  const wanted = times.length > 0 ? capEvenly(times, max) : capEvenly(filmstrip.frames, max).map((f) => f.t);
  const sheetRows = rowsPerSheet(filmstrip);
  const seen = new Set<number>();
  const out: CardTile[] = [];
  for (const t of wanted) {
    const i = filmstripTileAt(t, filmstrip.duration, n);
    if (seen.has(i)) continue;
    seen.add(i);
    const f = filmstrip.frames[i]!;
    const rows = sheetRows.get(f.sheet) ?? 1;
    const col = f.x / filmstrip.tileWidth;
    const row = f.y / filmstrip.tileHeight;
    // background-position p% puts the image's p% point on the box's p% point: column c of C
    // is at c / (C - 1).
    const x = filmstrip.columns > 1 ? (col / (filmstrip.columns - 1)) * 100 : 0;
    const y = rows > 1 ? (row / (rows - 1)) * 100 : 0;
    out.push({
      t,
      tileT: f.t,
      sheet: f.sheet,
      size: `${filmstrip.columns * 100}% ${rows * 100}%`,
      position: `${round(x)}% ${round(y)}%`,
      aspect: filmstrip.tileWidth / filmstrip.tileHeight,
    });
  }
  return out;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

export interface MiniWindow {
  id: string;
  turn: number;
  call: number;
  startS: number;
  endS: number;
  status: GridWindow["status"];
  /** Sub-row inside its turn's lane (overlapping windows of a turn never hide each other). */
  row: number;
  leftPct: number;
  widthPct: number;
}

export interface MiniSpan extends LaneSpan {
  leftPct: number;
  widthPct: number;
}

export interface MiniTimeline {
  duration: number;
  ticks: { t: number; leftPct: number }[];
  /** One lane per turn that has windows, in turn order. */
  lanes: { turn: number; rows: number; windows: MiniWindow[] }[];
  /** Grounding: the reference span and the predicted one, when they parse. */
  truth: MiniSpan | null;
  predicted: MiniSpan | null;
}

function placedSpan(span: LaneSpan | null, duration: number): MiniSpan | null {
  if (!span) return null;
  return { ...span, leftPct: timePct(span.startS, duration), widthPct: spanPct(span.startS, span.endS, duration) };
}

/**
 * A card's mini timeline on a video of `duration` seconds (null without a duration): the overview
 * timestamps as ticks, the crop windows in one lane per turn (stacked like the viewer's lanes), and
 * for grounding the reference and predicted spans read with the viewer's `spanOf`.
 */
export function miniTimeline(o: {
  duration: number | null;
  overviewTimestamps: readonly number[];
  windows: readonly GridWindow[];
  grounding: boolean;
  answer: string;
  prediction: string | null;
}): MiniTimeline | null {
  const d = o.duration;
  if (d === null || !(d > 0)) return null;
  const byTurn = new Map<number, LaneWindow[]>();
  for (const w of o.windows) {
    const lane: LaneWindow = {
      id: windowId(w.turn, w.call),
      turn: w.turn,
      call: w.call,
      startS: w.startS,
      endS: w.endS,
      status: w.status,
      clamped: false,
      frameTimestamps: [],
      summary: null,
      error: null,
    };
    byTurn.set(w.turn, [...(byTurn.get(w.turn) ?? []), lane]);
  }
  const lanes = [...byTurn.entries()]
    .sort(([a], [b]) => a - b)
    .map(([turn, windows]) => {
      const rowOf = packRows(windows);
      const placed = windows.map((w) => ({
        id: w.id,
        turn: w.turn,
        call: w.call,
        startS: w.startS,
        endS: w.endS,
        status: w.status,
        row: rowOf.get(w.id) ?? 0,
        leftPct: timePct(w.startS, d),
        widthPct: spanPct(w.startS, w.endS, d),
      }));
      return { turn, rows: Math.max(1, ...placed.map((w) => w.row + 1)), windows: placed };
    });
  return {
    duration: d,
    ticks: o.overviewTimestamps.map((t) => ({ t, leftPct: timePct(t, d) })),
    lanes,
    truth: o.grounding ? placedSpan(spanOf(o.answer), d) : null,
    predicted: o.grounding ? placedSpan(spanOf(o.prediction), d) : null,
  };
}

export type GridKey = "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Home" | "End";
export const GRID_KEYS: ReadonlySet<string> = new Set<GridKey>([
  "ArrowLeft",
  "ArrowRight",
  "ArrowUp",
  "ArrowDown",
  "Home",
  "End",
]);

/**
 * Where an arrow key moves the focus in a grid of `count` cards laid out `columns` per row:
 * the index, "past-end" (down or right from the last row: load the next page), or null (stay).
 * Down from a row above a short last row lands on the last card.
 */
export function gridMove(index: number, key: GridKey, columns: number, count: number): number | "past-end" | null {
  if (count === 0) return null;
  const cols = Math.max(1, columns);
  const i = Math.min(Math.max(index, 0), count - 1);
  switch (key) {
    case "ArrowRight":
      return i + 1 < count ? i + 1 : "past-end";
    case "ArrowLeft":
      return i > 0 ? i - 1 : null;
    case "ArrowDown": {
      if (i + cols < count) return i + cols;
      const lastRowStart = Math.floor((count - 1) / cols) * cols;
      return i >= lastRowStart ? "past-end" : count - 1;
    }
    case "ArrowUp":
      return i - cols >= 0 ? i - cols : null;
    case "Home":
      return 0;
    case "End":
      return count - 1;
  }
}
