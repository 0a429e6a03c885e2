// Oracle trajectories for cold-start SFT (SPEC §1 protocol text, §2 rewards).
//
// The main agent starts from ITS K overview frames and nothing else (plus the suite's priors,
// which a trained agent learns: boundaries on whole seconds, events of minEventS..maxEventS
// seconds at least minGapS apart, never overlapping and inside one scene, scenes of at least
// minSceneS seconds, and the question's presupposition). Each round it decides from what it has
// seen: answer if the frames settle the question, else crop the stretches where the missing
// evidence can still hide, at 1 fps in windows of at most 16 s, at most 5 calls per turn, at
// most 3 tool rounds. A stretch can hide an unseen event only if it is a run of unseen seconds
// at least as long as the shortest event (or gap), so shorter runs are never cropped.
// The oracle style (oracle-style.ts) picks the wording, and with `whenSearch: "crops"` a `when`
// question's agent knows only what its crops show: it reads the whole video through its
// sub-agents and answers from their summaries; `sceneSearch: "crops"` does the same for
// `scene_color` and `scene_position` questions, `orderSearch: "crops"` for `order`.
//
// Every round's decision is a pure function of the Knowledge (observe.ts); the annotation is
// only read through `observe` at the frame times the overview and the crops sample.

import { computeReward, PARA_GRPO } from "@paravt/protocol";
import { cropTimestamps, overviewTimestamps } from "@paravt/video/sampling";
import type { OverviewK, SuiteConfig } from "./config";
import {
  Knowledge,
  mmss,
  observe,
  parseShapeSentence,
  parseSummary,
  summarizeFrames,
  type Observation,
  type SeenShape,
} from "./observe";
import { appearanceName, type Appearance, type SceneColor } from "./palette";
import type { CropCall, OracleRow, SubAgentSample, SuiteQuestion, Turn, VideoAnnotation } from "./schemas";
import { formatRange, LETTERS } from "./templates";

/** SPEC §1.6 / brief: at most 5 calls per turn, 3 tool rounds; windows of at most 16 s (1 fps). */
export const MAX_CALLS_PER_TURN = 5;
export const MAX_TOOL_ROUNDS = 3;
export const MAX_WINDOW_S = 16;

/** The priors the agent reasons with and the style it writes in (both from the generator config). */
export type Priors = Pick<SuiteConfig, "minEventS" | "maxEventS" | "minGapS" | "minSceneS" | "oracleStyle">;

type Decision =
  { kind: "answer"; answer: string; reason: string } | { kind: "scan"; runs: [number, number][]; reason: string };

const isLook = (a: Appearance) => (o: Observation) =>
  o.shape !== null && o.shape.shape === a.shape && o.shape.color === a.color;

const secs = (t: number) => `${Number.isInteger(t) ? t : t.toFixed(1)} s`;

function listTimes(k: Knowledge, slots: readonly number[]): string {
  const shown = slots.slice(0, 6).map((s) => secs(k.timeOf(s)!));
  return slots.length > 6 ? `${shown.join(", ")} and ${slots.length - 6} more` : shown.join(", ");
}

function listRuns(runs: readonly [number, number][]): string {
  const shown = runs.slice(0, 5).map(([a, b]) => `${a}-${b} s`);
  return runs.length > 5 ? `${shown.join(", ")} and ${runs.length - 5} more stretches` : shown.join(", ");
}

/** The run of seen slots around `slot` that show the same shape (colour, shape and position) as it. */
function shapeRun(k: Knowledge, slot: number): [number, number] {
  const s = k.get(slot)!.shape!;
  const same = (x: number) => {
    const o = k.get(x)?.shape;
    return o !== undefined && o !== null && o.color === s.color && o.shape === s.shape && o.position === s.position;
  };
  let lo = slot;
  let hi = slot;
  while (lo > 0 && same(lo - 1)) lo--;
  while (hi < k.duration - 1 && same(hi + 1)) hi++;
  return [lo, hi];
}

/** Groups seen slots of one look into events: seen slots separated only by unseen slots belong together. */
function groupSlots(k: Knowledge, slots: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const s of slots) {
    const last = out[out.length - 1];
    if (last && k.seen(() => true, last[1] + 1, s).length === 0) last[1] = s;
    else out.push([s, s]);
  }
  return out;
}

function describeShape(s: SeenShape): string {
  return `a ${s.color} ${s.shape} in the ${s.position}`;
}

/** The letter of the option with this text; null when no option says it (the question cannot be settled). */
function letterOf(options: readonly string[], text: string): string | null {
  return LETTERS[options.indexOf(text)] ?? null;
}

/** How a conclusion names its option's letter: ": option C", or " (C)" as the question's text-first options do. */
function letterLead(letter: string, p: Priors): string {
  return p.oracleStyle.optionStyle === "text-first" ? ` (${letter})` : `: option ${letter}`;
}

const UNSETTLED: Decision = { kind: "scan", runs: [], reason: "" };

/** Where the one scene of color `scene` can be, from what has been seen. */
function sceneRegion(
  k: Knowledge,
  scene: SceneColor,
  p: Priors,
): { seen: number[]; region: [number, number] | null; candidates: [number, number][] } {
  const seen = k.seen((o) => o.scene === scene);
  if (seen.length === 0) return { seen, region: null, candidates: k.unseenRuns(p.minSceneS) };
  const lo = k.neighbours(seen[0]!).before;
  const hi = k.neighbours(seen[seen.length - 1]!).after;
  return { seen, region: [lo + 1, hi], candidates: [] };
}

/**
 * `sceneAnswer: "quote"`: the start of the first summary that shows `scene` throughout, up to and
 * including the first shape sentence `wanted` accepts; null when no summary does.
 */
export function quoteScene(
  summaries: readonly string[],
  scene: SceneColor,
  wanted: (s: SeenShape) => boolean,
): string | null {
  const lead = `The background is ${scene} throughout.`;
  for (const summary of summaries) {
    if (!summary.startsWith(lead)) continue;
    // Sentences end in ". " and never hold one inside (shape names, positions and MM:SS have none).
    const sentences = summary.split(/(?<=\.) /);
    for (let i = 1; i < sentences.length; i++) {
      const shape = parseShapeSentence(sentences[i]!);
      if (shape && wanted(shape)) return sentences.slice(0, i + 1).join(" ");
    }
  }
  return null;
}

/**
 * The first sentence of the summaries, in the order they came, that names one of `looks`, and
 * which one. Crops searched from 0 s come left to right, so it is the earliest of them shown.
 */
export function firstLookSentence(
  summaries: readonly string[],
  looks: readonly Appearance[],
): { sentence: string; index: number } | null {
  for (const summary of summaries) {
    // Sentences end in ". " and never hold one inside (shape names, positions and MM:SS have none).
    for (const sentence of summary.split(/(?<=\.) /)) {
      const s = parseShapeSentence(sentence);
      if (!s) continue;
      const index = looks.findIndex((a) => a.color === s.color && a.shape === s.shape);
      if (index >= 0) return { sentence, index };
    }
  }
  return null;
}

/** A question of one template. */
type QuestionOf<T extends SuiteQuestion["template"]> = Extract<SuiteQuestion, { template: T }>;

/**
 * One round's decision for a question, from the knowledge alone (and, for `sceneAnswer:
 * "quote"` and `orderSearch: "crops"`, the text of the summaries that knowledge was read from,
 * in the order they came). One function per template below.
 */
export function decide(q: SuiteQuestion, k: Knowledge, p: Priors, summaries: readonly string[] = []): Decision {
  switch (q.template) {
    case "scene_color":
    case "scene_position":
      return decideScene(q, k, p, summaries);
    case "count":
      return decideCount(q, k, p);
    case "order":
      return p.oracleStyle.orderSearch === "crops"
        ? decideOrderByCrops(q, k, p, summaries)
        : decideOrderFromOverview(q, k, p);
    case "when":
      return decideWhen(q, k, p);
    case "after":
      return decideAfter(q, k, p);
  }
}

/** The shortest unseen run that can hide an event: as long as the shortest event, or gap. */
const hideS = (p: Priors) => Math.min(p.minEventS, p.minGapS);

/**
 * `scene_color` / `scene_position`: the shape of the one scene of the asked color (in the asked
 * cell). Seen -> answer (or, under sceneSearch "crops" + sceneAnswer "quote", crop the shape's own
 * seconds first when no summary shows its scene throughout); else search where the scene is or
 * can be.
 */
function decideScene(
  q: QuestionOf<"scene_color" | "scene_position">,
  k: Knowledge,
  p: Priors,
  summaries: readonly string[],
): Decision {
  const style = p.oracleStyle;
  const { scene } = q.params;
  const inCell = (position: string) => q.template === "scene_color" || position === q.params.position;
  const wanted = (o: Observation) => o.scene === scene && o.shape !== null && inCell(o.shape.position);
  const where = q.template === "scene_position" ? ` in the ${q.params.position}` : "";
  const hit = k.seen(wanted)[0];
  if (hit !== undefined) {
    const s = k.get(hit)!.shape!;
    const quote = style.sceneAnswer === "quote" ? quoteScene(summaries, scene, (x) => inCell(x.position)) : null;
    // sceneSearch "crops" + quote: the window that showed the shape spans two scenes, so no
    // summary says "<scene> throughout"; one crop of the shape's own seconds (inside one scene,
    // as every event is) gives the summary to quote.
    if (style.sceneSearch === "crops" && style.sceneAnswer === "quote" && quote === null) {
      const [lo, hi] = shapeRun(k, hit);
      return {
        kind: "scan",
        runs: [[lo, hi + 1]],
        reason: `I see ${describeShape(s)} at ${listTimes(k, [lo])} in the ${scene} scene, but its crop also shows another scene, so I will crop its own seconds: ${listRuns([[lo, hi + 1]])}.`,
      };
    }
    const base = quote ?? `The frame at ${secs(k.timeOf(hit)!)} has the ${scene} background and ${describeShape(s)}.`;
    if (q.template === "scene_color") {
      const letter = letterOf(q.options, s.color);
      if (letter === null) return UNSETTLED;
      return {
        kind: "answer",
        answer: letter,
        reason: `${base} That is the shape of the ${scene} scene, so its color is ${s.color}${letterLead(letter, p)}.`,
      };
    }
    return {
      kind: "answer",
      answer: appearanceName(s),
      reason: `${base} That is the shape${where} during the ${scene} scene: a ${appearanceName(s)}.`,
    };
  }
  const r = sceneRegion(k, scene, p);
  if (!r.region) {
    if (style.sceneSearch === "crops") {
      // The knowledge holds the crops only (oracleTrajectory): nothing seen yet = the first round.
      const first = k.seen(() => true).length === 0;
      return {
        kind: "scan",
        runs: r.candidates,
        reason: first
          ? `To find the ${scene} scene I will look through the video at one frame per second: ${listRuns(r.candidates)}.`
          : `No crop so far shows a ${scene} background, so I will look through the rest of the video: ${listRuns(r.candidates)}.`,
      };
    }
    return {
      kind: "scan",
      runs: r.candidates,
      reason: `No frame I have seen has a ${scene} background, so the ${scene} scene lies in a stretch I have not seen: ${listRuns(r.candidates)}. I will look through it at one frame per second.`,
    };
  }
  const runs = k.unseenRuns(hideS(p), r.region[0], r.region[1]);
  return {
    kind: "scan",
    runs,
    reason: `The ${scene} background shows at ${listTimes(k, r.seen)}, but no shape${where} appears there, so the shape must be in the unseen seconds of the ${scene} scene, between ${r.region[0]} s and ${r.region[1]} s: ${listRuns(runs)}.`,
  };
}

/** `count`: answer once no stretch between the seen seconds can hide another appearance. */
function decideCount(q: QuestionOf<"count">, k: Knowledge, p: Priors): Decision {
  const look = q.params.target;
  const name = appearanceName(look);
  const groups = groupSlots(k, k.seen(isLook(look)));
  const runs = k.unseenRuns(hideS(p));
  const so =
    groups.length === 0
      ? `No frame I have seen shows a ${name}`
      : `I see a ${name} at ${listTimes(
          k,
          groups.map((g) => g[0]),
        )}`;
  if (runs.length > 0) {
    return {
      kind: "scan",
      runs,
      reason: `${so}. To count every appearance I must also see the stretches between my frames where one could hide: ${listRuns(runs)}.`,
    };
  }
  const n = groups.length;
  const letter = letterOf(q.options, String(n));
  if (letter === null) return UNSETTLED;
  const spans = groups.map(([a, b]) => (a === b ? secs(a) : `${a}-${b + 1} s`)).join(", ");
  return {
    kind: "answer",
    answer: letter,
    reason: `I have now seen the whole video closely enough that no appearance can hide between my frames. The ${name} appears ${n === 1 ? "once" : `${n} times`} (${spans}), so the answer is ${n}${letterLead(letter, p)}.`,
  };
}

/** `order` from the overview: the earliest option seen, once nothing unseen before it could hold another. */
function decideOrderFromOverview(q: QuestionOf<"order">, k: Knowledge, p: Priors): Decision {
  const looks = q.params.options;
  const firsts = looks.map((a) => k.seen(isLook(a))[0]);
  const seenIdx = looks.map((_, i) => i).filter((i) => firsts[i] !== undefined);
  const names = looks.map(appearanceName);
  if (seenIdx.length === 0) {
    const runs = k.unseenRuns(p.minEventS);
    return {
      kind: "scan",
      runs,
      reason: `None of the four shapes (${names.join(", ")}) is in the frames I have seen, so I will look through the stretches between my frames: ${listRuns(runs)}.`,
    };
  }
  const best = seenIdx.reduce((x, y) => (firsts[y]! < firsts[x]! ? y : x));
  const x = firsts[best]!;
  const runs = k.unseenRuns(p.minEventS, 0, x);
  const seenText = seenIdx.map((i) => `the ${names[i]} at ${secs(k.timeOf(firsts[i]!)!)}`).join(", ");
  if (runs.length > 0) {
    return {
      kind: "scan",
      runs,
      reason: `I see ${seenText}. The earliest is the ${names[best]}, but a shape I have not seen could still come before it in ${listRuns(runs)}, so I will check those stretches.`,
    };
  }
  const letter = LETTERS[best]!;
  return {
    kind: "answer",
    answer: letter,
    reason: `I see ${seenText}. Nothing before ${secs(k.timeOf(x)!)} is left unseen that could hold another of the shapes, so the ${names[best]} came first${letterLead(letter, p)}.`,
  };
}

/**
 * `order` under `orderSearch: "crops"`: scan from 0 s through contiguous crops until one of the
 * four shapes shows, then quote its summary sentence. The crops leave no unseen second before it,
 * so the first option shape any summary names came first.
 */
function decideOrderByCrops(q: QuestionOf<"order">, k: Knowledge, p: Priors, summaries: readonly string[]): Decision {
  const looks = q.params.options;
  const names = looks.map(appearanceName);
  const found = firstLookSentence(summaries, looks);
  if (found === null) {
    const runs = k.unseenRuns(p.minEventS);
    // The knowledge holds the crops only (oracleTrajectory): nothing seen yet = the first round.
    const first = k.seen(() => true).length === 0;
    return {
      kind: "scan",
      runs,
      reason: first
        ? `To find which of the four shapes (${names.join(", ")}) comes first I will look through the video from its start at one frame per second: ${listRuns(runs)}.`
        : `None of the four shapes is in my crops so far, so I will look through the rest of the video: ${listRuns(runs)}.`,
    };
  }
  const name = names[found.index]!;
  const letter = LETTERS[found.index]!;
  return {
    kind: "answer",
    answer: letter,
    reason: `The first of the four shapes in my crops: ${found.sentence} So the ${name} came first${letterLead(letter, p)}.`,
  };
}

/** `when`: find the target, then pin its first and last second (seen neighbours or the longest event). */
function decideWhen(q: QuestionOf<"when">, k: Knowledge, p: Priors): Decision {
  const style = p.oracleStyle;
  const look = q.params.target;
  const name = appearanceName(look);
  const slots = k.seen(isLook(look));
  if (slots.length === 0) {
    const runs = k.unseenRuns(p.minEventS);
    if (style.whenSearch === "crops") {
      // The knowledge holds the crops only (oracleTrajectory): nothing seen yet = the first round.
      const first = k.seen(() => true).length === 0;
      return {
        kind: "scan",
        runs,
        reason: first
          ? `To find when the ${name} is visible I will look through the video at one frame per second: ${listRuns(runs)}.`
          : `No crop so far shows the ${name}, so I will look through the rest of the video: ${listRuns(runs)}.`,
      };
    }
    return {
      kind: "scan",
      runs,
      reason: `No frame I have seen shows the ${name}, so I will look through the stretches between my frames: ${listRuns(runs)}.`,
    };
  }
  const lo = slots[0]!;
  const hi = slots[slots.length - 1]!;
  const before = k.neighbours(lo).before;
  const after = k.neighbours(hi).after;
  // Known when the neighbouring second is seen, or when the event could not be any longer.
  const startKnown = lo === 0 || before === lo - 1 || hi - p.maxEventS + 1 >= lo;
  const endKnown = hi === k.duration - 1 || after === hi + 1 || lo + p.maxEventS <= hi + 1;
  if (startKnown && endKnown) {
    if (style.whenAnswer === "mmss") {
      // The first and last second it is visible, as the summaries write them: the answer is a
      // copy of the tool responses' times, no arithmetic (a one-second event ends a second later
      // so that SPEC §4's MM:SS range, which needs end > start, reads it).
      const range = `${mmss(lo)} - ${mmss(hi > lo ? hi : hi + 1)}`;
      // time-first: the summaries' own "cyan square from 00:56 to 01:03", so the times are the
      // tokens that follow the target's name in a tool response (an induction copy).
      const reason =
        style.shapeSentence === "time-first"
          ? `The ${name} from ${mmss(lo)} to ${mmss(hi)} is the one asked about.`
          : `The ${name} is visible from ${mmss(lo)} to ${mmss(hi)}.`;
      return { kind: "answer", answer: range, reason };
    }
    const range = formatRange(lo, hi + 1);
    const longest = `no shape lasts longer than ${p.maxEventS} s`;
    const edges = [
      lo === 0 ? "from the very start" : before === lo - 1 ? `not yet at ${lo - 1} s` : longest,
      hi === k.duration - 1 ? "until the end" : after === hi + 1 ? `gone at ${hi + 1} s` : longest,
    ];
    return {
      kind: "answer",
      answer: range,
      reason: `The ${name} is visible from ${lo} s to ${hi} s (${edges.join(", ")}), so it spans ${range} seconds.`,
    };
  }
  const runs: [number, number][] = [];
  if (!startKnown) runs.push([Math.max(before + 1, hi - p.maxEventS + 1), lo]);
  if (!endKnown) runs.push([hi + 1, Math.min(after, lo + p.maxEventS)]);
  return {
    kind: "scan",
    runs,
    reason: `I see the ${name} at ${listTimes(k, slots)}. To pin its start and end to the second I need the frames around it: ${listRuns(runs)}.`,
  };
}

/** `after`: the first shape seen after the anchor, once nothing unseen in between could hide another. */
function decideAfter(q: QuestionOf<"after">, k: Knowledge, p: Priors): Decision {
  const look = q.params.anchor;
  const name = appearanceName(look);
  const slots = k.seen(isLook(look));
  if (slots.length === 0) {
    const runs = k.unseenRuns(p.minEventS);
    return {
      kind: "scan",
      runs,
      reason: `No frame I have seen shows the ${name}, so I will look through the stretches between my frames: ${listRuns(runs)}.`,
    };
  }
  const hi = slots[slots.length - 1]!;
  const next = k.seen((o) => o.shape !== null, hi + 1)[0];
  const runs = k.unseenRuns(hideS(p), hi + 1, next ?? k.duration);
  const seenAt = `The ${name} is visible at ${listTimes(k, slots)}`;
  if (runs.length > 0 || next === undefined) {
    const following = next === undefined ? "" : ` The next shape I have seen is at ${secs(k.timeOf(next)!)}.`;
    return {
      kind: "scan",
      runs,
      reason: `${seenAt}.${following} A shape I have not seen could still come in between, in ${listRuns(runs)}, so I will check there.`,
    };
  }
  const s = k.get(next)!.shape!;
  return {
    kind: "answer",
    answer: appearanceName(s),
    reason: `${seenAt} and after it no stretch is left unseen that could hide another shape until ${describeShape(s)} at ${secs(k.timeOf(next)!)}. So the next shape was a ${appearanceName(s)}.`,
  };
}

/**
 * Windows of at most MAX_WINDOW_S seconds that cover every second of `runs`, left to right:
 * the fewest windows, then the fewest seconds cropped, then the most even lengths (dynamic
 * programming over the seconds to cover; a window always starts and ends on one of them).
 */
export function coverRuns(runs: readonly [number, number][]): CropCall[] {
  const wanted = new Set<number>();
  for (const [a, b] of runs) for (let s = a; s < b; s++) wanted.add(s);
  const slots = [...wanted].sort((x, y) => x - y);
  type Cost = { count: number; span: number; squares: number; from: number };
  const better = (x: Cost, y: Cost | undefined) =>
    !y || x.count !== y.count ? !y || x.count < y.count : x.span !== y.span ? x.span < y.span : x.squares < y.squares;
  const best: (Cost | undefined)[] = new Array<Cost | undefined>(slots.length + 1).fill(undefined);
  best[0] = { count: 0, span: 0, squares: 0, from: -1 };
  for (let i = 0; i < slots.length; i++) {
    const here = best[i];
    if (!here) continue;
    for (let j = i + 1; j <= slots.length && slots[j - 1]! - slots[i]! < MAX_WINDOW_S; j++) {
      const len = slots[j - 1]! - slots[i]! + 1;
      const cost = { count: here.count + 1, span: here.span + len, squares: here.squares + len * len, from: i };
      if (better(cost, best[j])) best[j] = cost;
    }
  }
  const out: CropCall[] = [];
  for (let j = slots.length; j > 0; j = best[j]!.from) {
    const i = best[j]!.from;
    out.unshift({ start: slots[i]!, end: slots[j - 1]! + 1 });
  }
  return out;
}

/** The canonical SPEC §1.3 tool call text. */
export function toolCallText(video: string, c: CropCall): string {
  return `<tool_call>\n{"name": "crop_video", "arguments": {"video_path": ${JSON.stringify(video)}, "start_time": ${c.start}, "end_time": ${c.end}}}\n</tool_call>`;
}

/** The sub-agent prompt of SPEC §1.4: the window in MM:SS, its length, and the task. */
export function subAgentPrompt(c: CropCall, frames: number): string {
  return (
    `${frames === 1 ? "This frame comes" : `These ${frames} frames come`} from ${mmss(c.start)} to ${mmss(c.end)} of a video ` +
    `(${c.end - c.start} ${c.end - c.start === 1 ? "second" : "seconds"}, one frame per second). ` +
    "Summarize concisely and factually what happens in them: the background color, and every shape that appears, " +
    "with its color, its position in the frame and the first and last time it is visible (MM:SS)."
  );
}

/** The main agent's first user turn: `<video>` stands for the K overview frames (SPEC §1.1), then the question and the file (SPEC §5). */
export function mainPrompt(q: SuiteQuestion): string {
  return `<video>\n${q.question}\nVideo path: ${q.video}`;
}

export interface OracleResult {
  /** The trajectory, or null when 3 tool rounds did not settle the question. */
  row: OracleRow | null;
  /** Tool rounds used (0 = answered from the overview). */
  rounds: number;
}

/** The oracle's trajectory for one question at overview size K. */
export function oracleTrajectory(q: SuiteQuestion, a: VideoAnnotation, k: OverviewK, priors: Priors): OracleResult {
  const knowledge = new Knowledge(a.durationS);
  const overview = overviewTimestamps(a.durationS, k);
  // whenSearch / sceneSearch / orderSearch "crops": the main agent does not read the target off its overview frames; it knows
  // only what the sub-agents' summaries say.
  const style = priors.oracleStyle;
  const cropsOnly =
    (q.template === "when" && style.whenSearch === "crops") ||
    ((q.template === "scene_color" || q.template === "scene_position") && style.sceneSearch === "crops") ||
    (q.template === "order" && style.orderSearch === "crops");
  if (!cropsOnly) for (const t of overview) knowledge.see(t, observe(a, t));

  const turns: Turn[] = [{ role: "user", content: mainPrompt(q) }];
  const rounds: CropCall[][] = [];
  const subAgents: SubAgentSample[] = [];
  const heard: string[] = [];
  for (let round = 1; ; round++) {
    const d = decide(q, knowledge, priors, heard);
    if (d.kind === "answer") {
      turns.push({ role: "assistant", content: `<think>\n${d.reason}\n</think>\n<answer>${d.answer}</answer>` });
      const completion = turns
        .slice(1)
        .map((t) => t.content)
        .join("\n");
      const r = computeReward({ completion, answer: q.answer, questionType: q.type }, PARA_GRPO);
      const row: OracleRow = {
        id: `${q.id}-k${k}`,
        questionId: q.id,
        videoId: q.videoId,
        video: q.video,
        k,
        overviewTimestamps: overview,
        questionType: q.type,
        answer: q.answer,
        turns,
        rounds,
        subAgents,
        reward: { reward: r.reward, acc: r.accReward, format: r.formatReward, tool: r.toolReward },
      };
      return { row, rounds: rounds.length };
    }
    if (round > MAX_TOOL_ROUNDS || d.runs.length === 0) return { row: null, rounds: rounds.length };
    const calls = coverRuns(d.runs).slice(0, MAX_CALLS_PER_TURN);
    const plan = calls.map((c) => `${c.start}-${c.end} s`).join(", ");
    const think = `${d.reason} I will crop ${calls.length === 1 ? "this window" : `these ${calls.length} windows in parallel`}: ${plan}.`;
    turns.push({
      role: "assistant",
      content: `<think>\n${think}\n</think>\n${calls.map((c) => toolCallText(q.video, c)).join("\n")}`,
    });
    const responses: string[] = [];
    calls.forEach((c, i) => {
      const times = cropTimestamps(c.start, c.end, a.durationS);
      const frames = times.map((t) => observe(a, t));
      const summary = summarizeFrames(times, frames, style.shapeSentence);
      subAgents.push({
        round,
        call: i,
        video: q.video,
        start: c.start,
        end: c.end,
        timestamps: times,
        prompt: subAgentPrompt(c, times.length),
        summary,
      });
      // The main agent learns what the summary says, read back from its text.
      parseSummary(summary, times).forEach((o, j) => knowledge.see(times[j]!, o));
      heard.push(summary);
      responses.push(`<tool_response>\n${summary}\n</tool_response>`);
    });
    turns.push({ role: "user", content: responses.join("\n") });
    rounds.push(calls);
  }
}
