// What frames show, and what an agent can know from the frames it has seen.
//
// Scene and event boundaries are whole seconds, so the one-second SLOT [n, n+1) is the unit of
// knowledge: a frame taken anywhere inside slot n shows exactly what the whole slot shows.
// `observe` is the world (it reads the annotation); the oracle's planner only ever sees a
// `Knowledge`, filled from the frames of the overview and of its own crops, so it cannot use
// anything those frames do not show. Sub-agent summaries render a crop's observations as text
// and `parseSummary` reads them back losslessly (tested), so the main agent's knowledge after a
// crop is exactly what the summary it receives says.

import type { OracleStyle } from "./oracle-style";
import type { Position, SceneColor, Shape, ShapeColor } from "./palette";
import type { SuiteEvent, VideoAnnotation } from "./schemas";

export interface SeenShape {
  shape: Shape;
  color: ShapeColor;
  position: Position;
}

/** What one frame shows. */
export interface Observation {
  scene: SceneColor;
  shape: SeenShape | null;
}

/** The event showing at time t, if any. */
export function eventAt(a: VideoAnnotation, t: number): SuiteEvent | null {
  return a.events.find((e) => t >= e.start && t < e.end) ?? null;
}

/** What the frame at time t shows (the renderer draws exactly this; render.ts). */
export function observe(a: VideoAnnotation, t: number): Observation {
  const scene = a.scenes.find((s) => t >= s.start && t < s.end) ?? a.scenes[a.scenes.length - 1]!;
  const e = eventAt(a, t);
  return { scene: scene.color, shape: e ? { shape: e.shape, color: e.color, position: e.position } : null };
}

export const slotOf = (t: number) => Math.floor(t + 1e-9);

export function sameShape(a: SeenShape | null, b: SeenShape | null): boolean {
  if (a === null || b === null) return a === b;
  return a.shape === b.shape && a.color === b.color && a.position === b.position;
}

/** Seen slots of a video: slot -> (time of the first frame seen in it, observation). */
export class Knowledge {
  private readonly slots: ({ t: number; obs: Observation } | undefined)[];

  constructor(readonly duration: number) {
    this.slots = new Array<{ t: number; obs: Observation } | undefined>(duration).fill(undefined);
  }

  see(t: number, obs: Observation): void {
    const s = slotOf(t);
    if (s < 0 || s >= this.duration) throw new RangeError(`frame time ${t} outside the video`);
    if (!this.slots[s]) this.slots[s] = { t, obs };
  }

  get(slot: number): Observation | undefined {
    return this.slots[slot]?.obs;
  }

  /** Time of the first frame seen in `slot` (for wording). */
  timeOf(slot: number): number | undefined {
    return this.slots[slot]?.t;
  }

  /** Seen slots in [from, to) matching `pred`, ascending. */
  seen(pred: (o: Observation) => boolean, from = 0, to = this.duration): number[] {
    const out: number[] = [];
    for (let s = Math.max(0, from); s < Math.min(to, this.duration); s++) {
      const o = this.slots[s]?.obs;
      if (o && pred(o)) out.push(s);
    }
    return out;
  }

  /** Maximal runs [a, b) of unseen slots inside [from, to) with at least `minLength` slots. */
  unseenRuns(minLength: number, from = 0, to = this.duration): [number, number][] {
    const out: [number, number][] = [];
    let a = -1;
    const end = Math.min(to, this.duration);
    for (let s = Math.max(0, from); s <= end; s++) {
      const unseen = s < end && !this.slots[s];
      if (unseen && a < 0) a = s;
      if (!unseen && a >= 0) {
        if (s - a >= minLength) out.push([a, s]);
        a = -1;
      }
    }
    return out;
  }

  /** Last seen slot before `slot` (-1 if none) and first seen slot after it (duration if none). */
  neighbours(slot: number): { before: number; after: number } {
    let before = slot - 1;
    while (before >= 0 && !this.slots[before]) before--;
    let after = slot + 1;
    while (after < this.duration && !this.slots[after]) after++;
    return { before, after };
  }
}

/** "01:05": the sub-agents' time format (the window is stated the same way, SPEC §1.4). */
export function mmss(t: number): string {
  const s = Math.floor(t + 1e-9);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

function parseMmss(text: string): number {
  const [m, s] = text.split(":");
  return Number(m) * 60 + Number(s);
}

const article = (word: string) => (/^[aeiou]/.test(word) ? "An" : "A");

/** Groups consecutive frames by `key`; returns [first index, last index, item]. */
function runsOf<T>(items: readonly T[], same: (a: T, b: T) => boolean): [number, number, T][] {
  const out: [number, number, T][] = [];
  items.forEach((item, i) => {
    const last = out[out.length - 1];
    if (last && same(last[2], item)) last[1] = i;
    else out.push([i, i, item]);
  });
  return out;
}

/**
 * The sub-agent's summary of a crop: the background colors and every shape with its color,
 * position and the first and last frame (MM:SS) in which it is visible. Frames are at whole
 * seconds (1 fps from a whole-second start), so these are slot times. `order` puts a shape's
 * times after its position (default) or right after its name.
 */
export function summarizeFrames(
  times: readonly number[],
  frames: readonly Observation[],
  order: OracleStyle["shapeSentence"] = "position-first",
): string {
  if (times.length === 0 || times.length !== frames.length) throw new RangeError("one observation per frame time");
  const first = times[0]!;
  const last = times[times.length - 1]!;
  const parts: string[] = [];
  const span = (i: number, j: number) =>
    i === j ? `at ${mmss(times[i]!)}` : `from ${mmss(times[i]!)} to ${mmss(times[j]!)}`;
  const scenes = runsOf(frames, (a, b) => a.scene === b.scene);
  if (scenes.length === 1) parts.push(`The background is ${scenes[0]![2].scene} throughout.`);
  else {
    const pieces = scenes.map(([i, j, o]) => `${o.scene} ${span(i, j)}`);
    parts.push(`The background is ${pieces.slice(0, -1).join(", ")} and ${pieces[pieces.length - 1]}.`);
  }
  const shapes = runsOf(frames, (a, b) => sameShape(a.shape, b.shape)).filter(([, , o]) => o.shape !== null);
  for (const [i, j, o] of shapes) {
    const s = o.shape!;
    const notes: string[] = [];
    if (times.length > 1 && times[i] === first) notes.push("already visible in the first frame");
    if (times.length > 1 && times[j] === last) notes.push("still visible in the last frame");
    const note = notes.length > 0 ? `, ${notes.join(" and ")}` : "";
    const name = `${article(s.color)} ${s.color} ${s.shape}`;
    parts.push(
      order === "time-first"
        ? `${name} ${span(i, j)} is in the ${s.position}${note}.`
        : `${name} is in the ${s.position} ${span(i, j)}${note}.`,
    );
  }
  parts.push(shapes.length === 0 ? "No shape appears in these frames." : "No other shape appears.");
  return parts.join(" ");
}

// "from 00:40 to 00:44" or "at 00:40" (a single frame).
const SPAN = "(?:from (\\d\\d+:\\d\\d) to (\\d\\d+:\\d\\d)|at (\\d\\d+:\\d\\d))";
// Either word order: "A red square is in the center from …" or "A red square from … is in the center".
const SHAPE_SENTENCE = new RegExp(
  `(?:A|An) (\\w+) (\\w+) (?:is in the ([a-z-]+) ${SPAN}|${SPAN} is in the ([a-z-]+))`,
  "g",
);
const SCENE_PIECE = new RegExp(`(\\w+) ${SPAN}`, "g");

/** [first, last] second of a SPAN match whose groups start at `g`. */
function spanOf(m: RegExpMatchArray, g: number): [number, number] {
  const at = m[g + 2];
  return at === undefined ? [parseMmss(m[g]!), parseMmss(m[g + 1]!)] : [parseMmss(at), parseMmss(at)];
}

/** The shape and its [first, last] second of one SHAPE_SENTENCE match. */
function shapeOfMatch(m: RegExpMatchArray): { shape: SeenShape; from: number; to: number } {
  const positionFirst = m[3] !== undefined;
  const [from, to] = spanOf(m, positionFirst ? 4 : 7);
  const position = (positionFirst ? m[3] : m[10]) as Position;
  return { shape: { color: m[1] as ShapeColor, shape: m[2] as Shape, position }, from, to };
}

/** The shape one summary sentence describes ("A red circle from 02:02 to 02:07 is in the top-left…"), or null. */
export function parseShapeSentence(sentence: string): SeenShape | null {
  const m = new RegExp(`^${SHAPE_SENTENCE.source}`).exec(sentence);
  return m ? shapeOfMatch(m).shape : null;
}

/**
 * Reads a summary back into per-frame observations for the given frame times: the inverse of
 * `summarizeFrames` (the main agent's reading of a tool response).
 */
export function parseSummary(summary: string, times: readonly number[]): Observation[] {
  const bg = /^The background is (.*?)\.(?: |$)/.exec(summary);
  if (!bg) throw new Error(`summary without a background sentence: ${summary}`);
  const sceneAt: (t: number) => SceneColor = (() => {
    const m = /^(\w+) throughout$/.exec(bg[1]!);
    if (m) return () => m[1] as SceneColor;
    const pieces = [...bg[1]!.replace(/ and /g, ", ").matchAll(SCENE_PIECE)].map((p) => {
      const [from, to] = spanOf(p, 2);
      return { scene: p[1] as SceneColor, from, to };
    });
    return (t: number) => {
      const p = pieces.find((x) => slotOf(t) >= x.from && slotOf(t) <= x.to);
      if (!p) throw new Error(`summary does not say the background at ${mmss(t)}`);
      return p.scene;
    };
  })();
  const shapes = [...summary.matchAll(SHAPE_SENTENCE)].map(shapeOfMatch);
  return times.map((t) => {
    const hit = shapes.find((x) => slotOf(t) >= x.from && slotOf(t) <= x.to);
    return { scene: sceneAt(t), shape: hit ? hit.shape : null };
  });
}
