// Question templates: their text, their ground truth computed from an annotation (never from
// how the generator planted it), and their evidence (the events an answer rests on).
//
//   template        type  asks                                                    evidence
//   scene_color     mcq   color of the one shape shown during the <scene> scene   that shape
//   count           mcq   how many times a <color shape> appeared (1-4)           every occurrence
//   order           mcq   which of four shapes appeared first                     all four
//   when            tvg   [start, end] of the one <color shape>                   that shape
//   scene_position  oe    "<color> <shape>" shown at <position> in the <scene>    that shape
//   after           oe    "<color> <shape>" that came right after <color shape>   both shapes

import type { TemplateName } from "./config";
import { appearanceName, sameAppearance, type Appearance, type Position, type SceneColor } from "./palette";
import type { Scene, SuiteEvent, VideoAnnotation } from "./schemas";

export type QuestionType = "mcq" | "tvg" | "oe";

export const TEMPLATE_TYPE: Readonly<Record<TemplateName, QuestionType>> = {
  scene_color: "mcq",
  count: "mcq",
  order: "mcq",
  when: "tvg",
  scene_position: "oe",
  after: "oe",
};

export const LETTERS = ["A", "B", "C", "D"] as const;

/** Options of a count question, in ascending order (answers 1-4 are drawn evenly). */
export const COUNT_OPTIONS = ["1", "2", "3", "4"] as const;

export type TemplateParams =
  | { template: "scene_color"; params: { scene: SceneColor } }
  | { template: "count"; params: { target: Appearance } }
  | { template: "order"; params: { options: Appearance[] } }
  | { template: "when"; params: { target: Appearance } }
  | { template: "scene_position"; params: { scene: SceneColor; position: Position } }
  | { template: "after"; params: { anchor: Appearance } };

/** Ground truth of a question: the answer in words, the mcq option texts, and the evidence. */
export interface GroundTruth {
  /** mcq: the correct option's text; tvg: "[start, end]"; oe: "<color> <shape>". */
  answerText: string;
  evidence: SuiteEvent[];
}

const matches = (e: SuiteEvent, a: Appearance) => sameAppearance(e, a);

function onlyScene(a: VideoAnnotation, color: SceneColor): Scene | null {
  const scenes = a.scenes.filter((s) => s.color === color);
  return scenes.length === 1 ? scenes[0]! : null;
}

const inScene = (e: SuiteEvent, s: Scene) => e.start >= s.start && e.end <= s.end;

/** The only event of `a` with this appearance, or null when there are none or several. */
export function uniqueEvent(a: VideoAnnotation, target: Appearance): SuiteEvent | null {
  const found = a.events.filter((e) => matches(e, target));
  return found.length === 1 ? found[0]! : null;
}

/** "[40, 45]": the tvg answer format, read by the protocol's temporal IoU (SPEC §2). */
export function formatRange(start: number, end: number): string {
  return `[${start}, ${end}]`;
}

/**
 * The ground truth of a question over an annotation, or null when the annotation breaks the
 * question's presupposition (no such scene, several matching shapes, a count outside 1-4...).
 */
export function groundTruth(q: TemplateParams, a: VideoAnnotation): GroundTruth | null {
  switch (q.template) {
    case "scene_color": {
      const scene = onlyScene(a, q.params.scene);
      if (!scene) return null;
      const inside = a.events.filter((e) => inScene(e, scene));
      return inside.length === 1 ? { answerText: inside[0]!.color, evidence: inside } : null;
    }
    case "count": {
      const found = a.events.filter((e) => matches(e, q.params.target));
      if (found.length < 1 || found.length > COUNT_OPTIONS.length) return null;
      return { answerText: String(found.length), evidence: found };
    }
    case "order": {
      const found = q.params.options.map((o) => uniqueEvent(a, o));
      if (found.some((e) => e === null)) return null;
      const events = found as SuiteEvent[];
      const first = events.reduce((x, y) => (y.start < x.start ? y : x));
      return { answerText: appearanceName(first), evidence: events };
    }
    case "when": {
      const e = uniqueEvent(a, q.params.target);
      return e ? { answerText: formatRange(e.start, e.end), evidence: [e] } : null;
    }
    case "scene_position": {
      const scene = onlyScene(a, q.params.scene);
      if (!scene) return null;
      const at = a.events.filter((e) => inScene(e, scene) && e.position === q.params.position);
      return at.length === 1 ? { answerText: appearanceName(at[0]!), evidence: at } : null;
    }
    case "after": {
      const anchor = uniqueEvent(a, q.params.anchor);
      if (!anchor) return null;
      const next = a.events.find((e) => e.start >= anchor.end);
      return next ? { answerText: appearanceName(next), evidence: [anchor, next] } : null;
    }
  }
}

/** The question stem (without options or answer instructions). */
export function questionStem(q: TemplateParams): string {
  switch (q.template) {
    case "scene_color":
      return `What color was the shape that appeared during the ${q.params.scene} scene (the part of the video with a ${q.params.scene} background)?`;
    case "count":
      return `How many times did a ${appearanceName(q.params.target)} appear in the video?`;
    case "order":
      return "Which of these shapes appeared first in the video?";
    case "when":
      return `When did the ${appearanceName(q.params.target)} appear in the video?`;
    case "scene_position":
      return `During the ${q.params.scene} scene, which shape appeared in the ${q.params.position} of the frame?`;
    case "after":
      return `Which shape appeared next after the ${appearanceName(q.params.anchor)} disappeared?`;
  }
}

/**
 * The full question text: the stem, then for mcq one "A. text" line per option ("- text (A)" with
 * the oracle style's optionStyle "text-first") (the layout the
 * protocol's option match and letter extraction read, SPEC §2 / §4, letters A-D only because
 * the training reward accepts no other), then how to answer.
 */
export function questionText(
  q: TemplateParams,
  options: readonly string[] | null,
  style: "letter-first" | "text-first" = "letter-first",
): string {
  const stem = questionStem(q);
  switch (TEMPLATE_TYPE[q.template]) {
    case "mcq": {
      const lines = (options ?? []).map((o, i) =>
        style === "text-first" ? `- ${o} (${LETTERS[i]})` : `${LETTERS[i]}. ${o}`,
      );
      return `${stem}\n${lines.join("\n")}\nAnswer with the option's letter from the given choices.`;
    }
    case "tvg":
      return `${stem} Answer with its start and end time in seconds as [start, end].`;
    case "oe":
      return `${stem} Answer with its color and shape, in two words.`;
  }
}
