// Does the main agent see its own overview frames? Its first turn, in the suite oracle's words,
// states what those frames show before it crops anything:
//   "The olive background shows at 132 s, 154 s, but no shape appears there, …"  (scene templates)
//   "I see a red square at 16 s, 40 s. …"                                          (count)
//   "I see the red square at 16 s, the cyan circle at 44 s. …"                      (order)
//   "The red square is visible at 16 s. …"                                          (after)
// Each stated (thing, time) pair is checked against the annotation at that time, beside the
// chance of a blind claim: the share of the episode's overview frames that show the thing (a time
// drawn at random from the overview would be right that often). Used by nano-quality.ts; what it
// found is in research/LOG.md.

import { SCENE_COLORS, SHAPE_COLORS, SHAPES, type VideoAnnotation } from "@paravt/suite";

export interface ClaimTally {
  /** Stated (thing, time) pairs whose time is one of the overview frames. */
  stated: number;
  /** Of those, the annotation shows the thing at that time. */
  right: number;
  /** Sum over the stated pairs of the share of overview frames that show the thing (expected `right` of a blind claim). */
  chance: number;
}

export interface OverviewClaims {
  background: ClaimTally;
  shape: ClaimTally;
}

const emptyTally = (): ClaimTally => ({ stated: 0, right: 0, chance: 0 });

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
  const times = "((?:\\d+(?:\\.\\d+)? s(?:, | and )?)+)";
  const background = new RegExp(`\\b(${SCENE_COLORS.join("|")}) background shows at ${times}`, "g");
  for (const m of text.matchAll(background))
    tally(out.background, listedTimes(m[2]!), overview, (t) => sceneAt(a, t) === m[1]);
  const shape = new RegExp(`\\b(${SHAPE_COLORS.join("|")}) (${SHAPES.join("|")}) (?:is visible )?at ${times}`, "g");
  for (const m of text.matchAll(shape)) {
    const pair = `${m[1]} ${m[2]}`;
    tally(out.shape, listedTimes(m[3]!), overview, (t) => shapeVisible(a, pair, t));
  }
  return out;
}

/** Adds `b` into `a` (both tallies). */
export function addClaims(a: OverviewClaims, b: OverviewClaims): void {
  for (const key of ["background", "shape"] as const) {
    a[key].stated += b[key].stated;
    a[key].right += b[key].right;
    a[key].chance += b[key].chance;
  }
}

export const noClaims = (): OverviewClaims => ({
  background: emptyTally(),
  shape: emptyTally(),
});
