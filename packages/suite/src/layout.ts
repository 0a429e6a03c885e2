// One video's timeline and questions, planned from (seed, index, config) alone.
//
// Order of work: pick the length, cut it into scenes, pick the question templates of this video
// (balanced rotation over the whole suite), decide every needle's look (answers drawn from
// balanced decks), color the scenes (question scenes get a color no other scene has), place the
// needles, then the distractors (similar looks: same color or same shape as a needle, never the
// same pair), and finally compute every answer from the finished annotation. A layout that
// cannot hold all its needles is retried with the next attempt's random stream; questions that
// still do not fit are dropped (counted in the manifest).

import { durationUnitS, type SuiteConfig, type TemplateName } from "./config";
import {
  ALL_APPEARANCES,
  appearanceKey,
  POSITIONS,
  SCENE_COLORS,
  SHAPE_COLORS,
  SHAPES,
  type Appearance,
  type Position,
  type SceneColor,
} from "./palette";
import { deckDraw, rngFor, type Rng } from "./prng";
import { SUITE_GENERATOR_VERSION, type Scene, type SuiteEvent, type VideoAnnotation } from "./schemas";
import { COUNT_OPTIONS, groundTruth, LETTERS, type TemplateParams } from "./templates";

/** A planned question before its ground truth is checked against the finished annotation. */
export interface QuestionDraft {
  slot: number;
  q: TemplateParams;
  /** mcq option texts in display order (A-D); null otherwise. */
  options: string[] | null;
  /** What the generator meant the answer to be (checked against groundTruth). */
  intended: string;
}

export interface VideoPlan {
  annotation: VideoAnnotation;
  questions: QuestionDraft[];
  /** Templates chosen for this video that could not be placed. */
  dropped: TemplateName[];
}

export const videoId = (index: number) => `v${String(index + 1).padStart(4, "0")}`;
export const videoFile = (index: number) => `videos/${videoId(index)}.mp4`;

/** Length of video `index`: a multiple of 64/fps seconds within [minMinutes, maxMinutes]. */
export function videoDuration(seed: number, index: number, config: SuiteConfig): number {
  const unit = durationUnitS(config);
  const lo = Math.max(1, Math.ceil((config.minMinutes * 60) / unit));
  const hi = Math.max(lo, Math.floor((config.maxMinutes * 60) / unit));
  return unit * rngFor(seed, "duration", index).int(lo, hi);
}

/** The templates asked about video `index` (balanced rotation; a repeat within a video is skipped). */
export function videoTemplates(
  seed: number,
  index: number,
  config: SuiteConfig,
): { template: TemplateName; occurrence: number }[] {
  const out: { template: TemplateName; occurrence: number }[] = [];
  const n = config.templates.length;
  for (let j = 0; j < config.questionsPerVideo; j++) {
    const p = index * config.questionsPerVideo + j;
    const template = deckDraw(seed, "template", config.templates, p);
    if (!out.some((o) => o.template === template)) out.push({ template, occurrence: Math.floor(p / n) });
  }
  return out;
}

function cutScenes(rng: Rng, duration: number, config: SuiteConfig): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let t = 0;
  while (duration - t > config.maxSceneS) {
    const len = rng.int(config.minSceneS, Math.min(config.maxSceneS, duration - t - config.minSceneS));
    out.push({ start: t, end: t + len });
    t += len;
  }
  out.push({ start: t, end: duration });
  return out;
}

interface Draft {
  start: number;
  end: number;
  shape: Appearance["shape"];
  color: Appearance["color"];
  position: Position;
  role: "needle" | "distractor";
}

/** Event occupancy of the timeline with the placement rules (inside one scene, gaps). */
class Timeline {
  readonly drafts: Draft[] = [];
  private readonly busy: Uint8Array;

  constructor(
    readonly duration: number,
    readonly scenes: readonly Scene[],
    private readonly gap: number,
  ) {
    this.busy = new Uint8Array(duration);
  }

  /** Every start at which a `length`-second event fits inside one of `scenes`, keeping the gap. */
  starts(length: number, scenes: readonly Scene[]): number[] {
    const prefix = new Int32Array(this.duration + 1);
    for (let i = 0; i < this.duration; i++) prefix[i + 1] = prefix[i]! + this.busy[i]!;
    const out: number[] = [];
    for (const s of scenes) {
      for (let t = s.start; t + length <= s.end; t++) {
        const lo = Math.max(0, t - this.gap);
        const hi = Math.min(this.duration, t + length + this.gap);
        if (prefix[hi]! - prefix[lo]! === 0) out.push(t);
      }
    }
    return out;
  }

  /** True when [start, start + length) lies inside one of `scenes` and keeps the gap to every event. */
  fits(start: number, length: number, scenes: readonly Scene[]): boolean {
    if (!scenes.some((s) => start >= s.start && start + length <= s.end)) return false;
    const lo = Math.max(0, start - this.gap);
    const hi = Math.min(this.duration, start + length + this.gap);
    return this.busy.subarray(lo, hi).every((b) => b === 0);
  }

  /** Places an event at exactly `start`; null when it does not fit. */
  placeAt(
    start: number,
    length: number,
    scenes: readonly Scene[],
    make: (start: number, end: number, scene: Scene) => Omit<Draft, "start" | "end">,
  ): Draft | null {
    if (!this.fits(start, length, scenes)) return null;
    const scene = scenes.find((s) => start >= s.start && start + length <= s.end)!;
    return this.add({ start, end: start + length, ...make(start, start + length, scene) });
  }

  private add(d: Draft): Draft {
    this.busy.fill(1, d.start, d.end);
    this.drafts.push(d);
    return d;
  }

  /** Places an event of random length in [minS, maxS] at a random free start; null when none fits. */
  place(
    rng: Rng,
    lengths: { minS: number; maxS: number },
    scenes: readonly Scene[],
    make: (start: number, end: number, scene: Scene) => Omit<Draft, "start" | "end">,
  ): Draft | null {
    // Try the drawn length first, then shorter ones, so a crowded timeline still takes short events.
    const drawn = rng.int(lengths.minS, lengths.maxS);
    for (let length = drawn; length >= lengths.minS; length--) {
      const starts = this.starts(length, scenes);
      if (starts.length === 0) continue;
      const start = rng.pick(starts);
      const scene = scenes.find((s) => start >= s.start && start + length <= s.end)!;
      return this.add({ start, end: start + length, ...make(start, start + length, scene) });
    }
    return null;
  }
}

interface NeedleLooks {
  /** Looks that may appear only on their own needle (order options, when target, after anchor, count target). */
  reserved: Set<string>;
  /** Every needle look; distractors never reuse one. */
  all: Appearance[];
}

function arrange<T>(rng: Rng, correct: T, others: readonly T[], letter: number): T[] {
  const rest = rng.shuffle(others);
  rest.splice(letter, 0, correct);
  return rest;
}

/** Looks not in `taken`, in a fixed order. */
const freeLooks = (taken: Set<string>) => ALL_APPEARANCES.filter((a) => !taken.has(appearanceKey(a)));

/**
 * One attempt at a video's layout. Returns the annotation and the drafts of the questions whose
 * needles fit.
 */
function layoutAttempt(
  seed: number,
  index: number,
  attempt: number,
  duration: number,
  templates: { template: TemplateName; occurrence: number }[],
  config: SuiteConfig,
): VideoPlan {
  const rng = rngFor(seed, "layout", index, attempt);
  const sceneCuts = cutScenes(rng, duration, config);
  const has = (t: TemplateName) => templates.find((x) => x.template === t);
  const deck = <T>(t: TemplateName, name: string, values: readonly T[]) =>
    deckDraw(seed, `${t}:${name}`, values, has(t)!.occurrence);
  const dropped: TemplateName[] = [];
  const drop = (t: TemplateName) => {
    if (!dropped.includes(t)) dropped.push(t);
  };

  // 1. Scenes claimed by scene questions, and the scene colors.
  const sceneOrder = rng.shuffle(sceneCuts.map((_, i) => i));
  const claim = (t: TemplateName): number | null => {
    if (!has(t)) return null;
    const i = sceneOrder.shift();
    if (i === undefined) drop(t);
    return i ?? null;
  };
  const colorScene = claim("scene_color");
  const positionScene = claim("scene_position");
  const sceneColors: (SceneColor | null)[] = sceneCuts.map(() => null);
  const questionColors = rng.shuffle(SCENE_COLORS).slice(0, 2);
  if (colorScene !== null) sceneColors[colorScene] = questionColors[0]!;
  if (positionScene !== null) sceneColors[positionScene] = questionColors[1]!;
  const reservedScenes = new Set(sceneColors.filter((c): c is SceneColor => c !== null));
  for (let i = 0; i < sceneColors.length; i++) {
    if (sceneColors[i] !== null) continue;
    const avoid = new Set<SceneColor>([...reservedScenes]);
    const prev = sceneColors[i - 1];
    const next = sceneColors[i + 1];
    if (prev) avoid.add(prev);
    if (next) avoid.add(next);
    sceneColors[i] = rng.pick(SCENE_COLORS.filter((c) => !avoid.has(c)));
  }
  const scenes: Scene[] = sceneCuts.map((c, i) => ({ index: i, start: c.start, end: c.end, color: sceneColors[i]! }));
  const timeline = new Timeline(duration, scenes, config.minGapS);
  const lengths = { minS: config.minEventS, maxS: config.maxEventS };
  const exclusive = colorScene === null ? null : scenes[colorScene]!;
  const openScenes = scenes.filter((s) => s !== exclusive);

  // 2. Needle looks: deck-drawn answers first, then random looks that must stay unique.
  const looks: NeedleLooks = { reserved: new Set(), all: [] };
  const taken = new Set<string>();
  const take = (a: Appearance, reserve: boolean) => {
    taken.add(appearanceKey(a));
    if (reserve) looks.reserved.add(appearanceKey(a));
    looks.all.push(a);
    return a;
  };
  const positionAnswer = has("scene_position")
    ? take(
        { color: deck("scene_position", "color", SHAPE_COLORS), shape: deck("scene_position", "shape", SHAPES) },
        false,
      )
    : null;
  const afterAnswer = has("after")
    ? take({ color: deck("after", "color", SHAPE_COLORS), shape: deck("after", "shape", SHAPES) }, false)
    : null;
  let countLook: Appearance | null = null;
  if (has("count")) {
    const color = deck("count", "color", SHAPE_COLORS);
    const shapes = SHAPES.filter((shape) => !taken.has(appearanceKey({ color, shape })));
    countLook = take({ color, shape: rng.pick(shapes) }, true);
  }
  let colorAnswer: Appearance | null = null;
  if (has("scene_color")) {
    const color = deck("scene_color", "color", SHAPE_COLORS);
    const shapes = SHAPES.filter((shape) => !looks.reserved.has(appearanceKey({ color, shape })));
    colorAnswer = take({ color, shape: rng.pick(shapes) }, false);
  }
  const uniqueLook = () => take(rng.pick(freeLooks(taken)), true);
  const orderLooks = has("order") ? [uniqueLook(), uniqueLook(), uniqueLook(), uniqueLook()] : null;
  const whenLook = has("when") ? uniqueLook() : null;
  const anchorLook = has("after") ? uniqueLook() : null;

  // The scene_position question owns one cell of its scene: no other event is drawn there.
  let reservedCell: { scene: Scene; position: Position } | null = null;
  const cellsOf = (scene: Scene) =>
    reservedCell && reservedCell.scene === scene ? POSITIONS.filter((p) => p !== reservedCell!.position) : POSITIONS;
  const needle = (a: Appearance, position?: Position) => (_s: number, _e: number, scene: Scene) => ({
    shape: a.shape,
    color: a.color,
    position: position ?? rng.pick(cellsOf(scene)),
    role: "needle" as const,
  });

  // 3. Needles, most constrained first.
  const drafts: QuestionDraft[] = [];
  const slotOf = (t: TemplateName) => templates.findIndex((x) => x.template === t);
  if (colorAnswer && exclusive) {
    if (timeline.place(rng, lengths, [exclusive], needle(colorAnswer))) {
      const others = SHAPE_COLORS.filter((c) => c !== colorAnswer.color);
      const options = arrange(
        rng,
        colorAnswer.color,
        rng.shuffle(others).slice(0, 3),
        LETTERS.indexOf(deck("scene_color", "letter", LETTERS)),
      );
      drafts.push({
        slot: slotOf("scene_color"),
        q: { template: "scene_color", params: { scene: exclusive.color } },
        options,
        intended: colorAnswer.color,
      });
    } else drop("scene_color");
  }
  if (positionAnswer && positionScene !== null) {
    const scene = scenes[positionScene]!;
    const position = rng.pick(POSITIONS);
    if (timeline.place(rng, lengths, [scene], needle(positionAnswer, position))) {
      reservedCell = { scene, position };
      drafts.push({
        slot: slotOf("scene_position"),
        q: { template: "scene_position", params: { scene: scene.color, position } },
        options: null,
        intended: `${positionAnswer.color} ${positionAnswer.shape}`,
      });
    } else drop("scene_position");
  }
  if (anchorLook && afterAnswer) {
    // The answer follows the anchor closer than a distractor could squeeze in between.
    const anchor = timeline.place(rng, lengths, openScenes, needle(anchorLook));
    const maxGap = Math.min(config.minGapS + 2, 2 * config.minGapS + config.minEventS - 1);
    let next: Draft | null = null;
    if (anchor) {
      const at = anchor.end + rng.int(config.minGapS, maxGap);
      for (let length = rng.int(lengths.minS, lengths.maxS); length >= lengths.minS && !next; length--) {
        next = timeline.placeAt(at, length, openScenes, needle(afterAnswer));
      }
    }
    if (anchor && next) {
      drafts.push({
        slot: slotOf("after"),
        q: { template: "after", params: { anchor: anchorLook } },
        options: null,
        intended: `${afterAnswer.color} ${afterAnswer.shape}`,
      });
    } else drop("after");
  }
  if (orderLooks) {
    const placed = orderLooks.map((a) => timeline.place(rng, lengths, openScenes, needle(a)));
    if (placed.every((p) => p !== null)) {
      const firstIndex = placed.reduce((best, p, i) => (p!.start < placed[best]!.start ? i : best), 0);
      const first = orderLooks[firstIndex]!;
      const options = arrange(
        rng,
        first,
        orderLooks.filter((_, i) => i !== firstIndex),
        LETTERS.indexOf(deck("order", "letter", LETTERS)),
      );
      drafts.push({
        slot: slotOf("order"),
        q: { template: "order", params: { options } },
        options: options.map((o) => `${o.color} ${o.shape}`),
        intended: `${first.color} ${first.shape}`,
      });
    } else drop("order");
  }
  if (whenLook) {
    const e = timeline.place(rng, lengths, openScenes, needle(whenLook));
    if (e) {
      drafts.push({
        slot: slotOf("when"),
        q: { template: "when", params: { target: whenLook } },
        options: null,
        intended: `[${e.start}, ${e.end}]`,
      });
    } else drop("when");
  }
  if (countLook) {
    const n = Number(deck("count", "n", COUNT_OPTIONS));
    let placed = 0;
    while (placed < n && timeline.place(rng, lengths, openScenes, needle(countLook))) placed++;
    if (placed === n) {
      drafts.push({
        slot: slotOf("count"),
        q: { template: "count", params: { target: countLook } },
        options: [...COUNT_OPTIONS],
        intended: String(n),
      });
    } else drop("count");
  }

  // 4. Distractors: similar looks (a needle's color or shape), never a needle's exact look.
  const needleKeys = new Set(looks.all.map(appearanceKey));
  const target = Math.round((config.eventsPerMinute * duration) / 60);
  const similar = (base: Appearance): Appearance[] =>
    ALL_APPEARANCES.filter((a) => (a.color === base.color) !== (a.shape === base.shape));
  for (let i = timeline.drafts.length; i < target; i++) {
    const pool =
      looks.all.length > 0 && rng.chance(0.6)
        ? similar(rng.pick(looks.all)).filter((a) => !needleKeys.has(appearanceKey(a)))
        : ALL_APPEARANCES.filter((a) => !needleKeys.has(appearanceKey(a)));
    if (pool.length === 0) continue;
    const look = rng.pick(pool);
    timeline.place(rng, lengths, openScenes, (_s, _e, scene) => ({
      shape: look.shape,
      color: look.color,
      position: rng.pick(cellsOf(scene)),
      role: "distractor",
    }));
  }

  const width = String(Math.max(2, String(timeline.drafts.length).length));
  const events: SuiteEvent[] = [...timeline.drafts]
    .sort((a, b) => a.start - b.start)
    .map((d, i) => ({ id: `e${String(i + 1).padStart(Number(width), "0")}`, ...d }));
  const annotation: VideoAnnotation = {
    generatorVersion: SUITE_GENERATOR_VERSION,
    id: videoId(index),
    file: videoFile(index),
    durationS: duration,
    fps: config.fps,
    width: config.width,
    height: config.height,
    scenes,
    events,
  };

  // 5. Answers come from the annotation; a draft whose planted answer disagrees is dropped.
  const questions = drafts.filter((d) => {
    const gt = groundTruth(d.q, annotation);
    if (gt && gt.answerText === d.intended) return true;
    drop(d.q.template);
    return false;
  });
  questions.sort((a, b) => a.slot - b.slot);
  return { annotation, questions, dropped };
}

/** Tries a few random streams and keeps the first layout that holds every needle (else the fullest). */
export function planVideo(seed: number, index: number, config: SuiteConfig): VideoPlan {
  const duration = videoDuration(seed, index, config);
  const templates = videoTemplates(seed, index, config);
  let best: VideoPlan | null = null;
  for (let attempt = 0; attempt < 8; attempt++) {
    const plan = layoutAttempt(seed, index, attempt, duration, templates, config);
    if (plan.dropped.length === 0) return plan;
    if (!best || plan.questions.length > best.questions.length) best = plan;
  }
  return best!;
}
