// Does the main agent see its own overview frames? Its first turn, in the suite oracle's words,
// states what those frames show before it crops anything:
//   "The olive background shows at 132 s, 154 s, but no shape appears there, …"  (scene templates)
//   "I see a red square at 16 s, 40 s. …"                                          (count)
//   "I see the red square at 16 s, the cyan circle at 44 s. …"                      (order)
//   "The red square is visible at 16 s. …"                                          (after)
// Each stated (thing, time) pair is checked against the annotation at that time, beside the
// chance of a blind claim: the share of the episode's overview frames that show the thing (a time
// drawn at random from the overview would be right that often). A model trained on the suite's
// `describeOverview` trajectories first writes one note per frame ("My frames: 0 s teal with a
// white cross in the top-left; 22 s teal; …"); each note is checked too. Used by nano-quality.ts; the nano
// README ("Quality bar") has what it found.

import { OVERVIEW_NOTES_LEAD, SCENE_COLORS, SHAPE_COLORS, SHAPES, type VideoAnnotation } from "@paravt/suite";

export interface ClaimTally {
  /** Stated (thing, time) pairs whose time is one of the overview frames. */
  stated: number;
  /** Of those, the annotation shows the thing at that time. */
  right: number;
  /** Sum over the stated pairs of the share of overview frames that show the thing (expected `right` of a blind claim). */
  chance: number;
}

/** The notes of a first turn that opens "My frames: …" (the suite's `describeOverview`), one per frame. */
export interface NoteTally {
  /** Notes whose time is one of the overview frames. */
  notes: number;
  /** Of those, the background named is the frame's. */
  backgroundRight: number;
  /** Of those, the shape is right: the one visible named (color, shape and position), or none named when none is. */
  shapeRight: number;
}

export interface OverviewClaims {
  background: ClaimTally;
  shape: ClaimTally;
  notes: NoteTally;
  /**
   * The background claims at noted frames checked against the turn's own notes instead of the
   * annotation (chance: the share of its notes naming that background): does the reasoning after
   * the notes copy them?
   */
  agreesWithNotes: ClaimTally;
}

const emptyTally = (): ClaimTally => ({ stated: 0, right: 0, chance: 0 });
const emptyNotes = (): NoteTally => ({ notes: 0, backgroundRight: 0, shapeRight: 0 });

/** "132 s, 154 s" / "12.5 s" (the oracle's `secs`, "and 3 more" dropped) → seconds. */
function listedTimes(list: string): number[] {
  return [...list.matchAll(/(\d+(?:\.\d+)?) s\b/g)].map((m) => Number(m[1]));
}

const sceneAt = (a: VideoAnnotation, t: number) => a.scenes.find((s) => s.start <= t && t < s.end)?.color;
const shapeVisible = (a: VideoAnnotation, pair: string, t: number) =>
  a.events.some((e) => `${e.color} ${e.shape}` === pair && e.start <= t && t < e.end);

function tally(into: ClaimTally, times: readonly number[], overview: readonly number[], shows: (t: number) => boolean) {
  const share = overview.filter(shows).length / Math.max(1, overview.length);
  for (const t of times) {
    // A time that is no overview frame is not a claim about what the frames show.
    if (!overview.some((o) => Math.abs(o - t) < 0.05)) continue;
    into.stated++;
    into.right += shows(t) ? 1 : 0;
    into.chance += share;
  }
}

/**
 * The background and shape claims of a main agent's first turn `text` about the overview frames
 * at `overview` (seconds), checked against the video's annotation.
 */
export function overviewClaims(text: string, a: VideoAnnotation, overview: readonly number[]): OverviewClaims {
  const out = noClaims();
  const noted = new Map<number, string>(); // frame time → the background its note names
  // "My frames: 0 s teal with a white cross in the top-left; 22 s teal; …." (suite oracle.ts overviewNotes)
  const list = new RegExp(`${OVERVIEW_NOTES_LEAD} (.*?)\\.(?:\\n|$)`).exec(text)?.[1];
  for (const note of list ? list.split("; ") : []) {
    const m = /^(\d+(?:\.\d+)?) s (\w+)(?: with an? (\w+) (\w+) in the ([a-z-]+))?$/.exec(note);
    const t = Number(m?.[1]);
    if (!m || !overview.some((o) => Math.abs(o - t) < 0.05)) continue;
    const e = a.events.find((x) => x.start <= t && t < x.end);
    noted.set(t, m[2]!);
    out.notes.notes++;
    out.notes.backgroundRight += sceneAt(a, t) === m[2] ? 1 : 0;
    const named = m[3] === undefined ? null : `${m[3]} ${m[4]} ${m[5]}`;
    out.notes.shapeRight += named === (e ? `${e.color} ${e.shape} ${e.position}` : null) ? 1 : 0;
  }
  const times = "((?:\\d+(?:\\.\\d+)? s(?:, | and )?)+)";
  const background = new RegExp(`\\b(${SCENE_COLORS.join("|")}) background shows at ${times}`, "g");
  const notedTimes = [...noted.keys()];
  for (const m of text.matchAll(background)) {
    tally(out.background, listedTimes(m[2]!), overview, (t) => sceneAt(a, t) === m[1]);
    tally(out.agreesWithNotes, listedTimes(m[2]!), notedTimes, (t) => noted.get(t) === m[1]);
  }
  const shape = new RegExp(`\\b(${SHAPE_COLORS.join("|")}) (${SHAPES.join("|")}) (?:is visible )?at ${times}`, "g");
  for (const m of text.matchAll(shape)) {
    const pair = `${m[1]} ${m[2]}`;
    tally(out.shape, listedTimes(m[3]!), overview, (t) => shapeVisible(a, pair, t));
  }
  return out;
}

/** Adds `b` into `a` (both tallies). */
export function addClaims(a: OverviewClaims, b: OverviewClaims): void {
  for (const key of ["background", "shape", "agreesWithNotes"] as const) {
    a[key].stated += b[key].stated;
    a[key].right += b[key].right;
    a[key].chance += b[key].chance;
  }
  a.notes.notes += b.notes.notes;
  a.notes.backgroundRight += b.notes.backgroundRight;
  a.notes.shapeRight += b.notes.shapeRight;
}

export const noClaims = (): OverviewClaims => ({
  background: emptyTally(),
  shape: emptyTally(),
  notes: emptyNotes(),
  agreesWithNotes: emptyTally(),
});
