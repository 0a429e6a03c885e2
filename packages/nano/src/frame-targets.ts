// An auxiliary perception loss for SFT: each frame slot, and the prompt positions right after it,
// predict what the frame shows (a training-only target; inference never samples there).
//
// Why: the stage-3 default names shapes at chance (README "Quality bar"): teacher-forced on
// held-out sub-agent samples its pick among the 5 shapes is right 0.22 (blind baseline 0.24),
// even after 600 more steps of sub-agent samples with the palette words weighted 10. The only
// signal that reaches the frame projection is the summary text, and a summary names an event
// seconds of frames away from the frame that shows it. Here the frame's own slot is asked
// "which shape?", the next position "which color?" and the one after "where?", so the gradient
// reaches `frame_w` from the frame itself. SPEC §3's loss on assistant tokens is unchanged: these
// positions are prompt (loss mask 0) and their targets exist only in training (weight `weight`).
//
// The next two positions after a slot are the "<" and first digit of the next frame's timestamp
// (or the text after the last frame); a target is put only where the sequence has no loss and no
// other frame, so an assistant token is never relabelled.

import { observe, type VideoAnnotation } from "@paravt/suite";
import type { FrameRef } from "./sequence";
import type { Tokenizer } from "./tokenizer";

export interface FrameTargets {
  /** Names the labelling in the dataset fingerprint (a resume must use the same). */
  name: string;
  /** Loss weight of each target (assistant tokens weigh 1, or their emphasis). */
  weight: number;
  /** Token ids to predict at a frame's slot and the positions right after it; [] for none. */
  tokensOf(ref: FrameRef): readonly number[];
}

export class FrameTargetsError extends Error {
  override name = "FrameTargetsError";
}

/** Which of a shape's three labels the slot, slot + 1 and slot + 2 predict. */
export type FrameTargetLabel = "shape" | "color" | "position";
export type FrameTargetOrder = readonly FrameTargetLabel[];
export const DEFAULT_FRAME_TARGET_ORDER: FrameTargetOrder = ["shape", "color", "position"];

/** Parses "position,shape,color": a permutation of shape, color and position. */
export function parseFrameTargetOrder(text: string): FrameTargetOrder {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length !== 3 || !DEFAULT_FRAME_TARGET_ORDER.every((label) => parts.includes(label))) {
    throw new FrameTargetsError(`frame target order must be a permutation of shape,color,position (got "${text}")`);
  }
  return parts as FrameTargetLabel[];
}

/**
 * Targets from a suite's annotations (`observe`, what the renderer drew): a frame showing a shape
 * predicts its labels in `order` (default [shape, color, position]: " circle", " red",
 * " top-left"); a frame showing only the background predicts [scene color]. Frames of videos not
 * in `videos` get no target.
 *
 * Why an order: the slot itself can answer from its own embedding, the positions after it only by
 * attending back to the frame, which is what a summary word must do. With the default order the
 * slots read the shape at ~1.0 but the summaries name it far less often than the color
 * (README "Perception can be learnt"); `position,shape,color` makes the shape a transported label.
 */
export function suiteFrameTargets(
  videos: readonly { file: string; annotation: VideoAnnotation }[],
  tok: Pick<Tokenizer, "idOf">,
  weight: number,
  order: FrameTargetOrder = DEFAULT_FRAME_TARGET_ORDER,
): FrameTargets {
  if (!(Number.isFinite(weight) && weight > 0)) {
    throw new FrameTargetsError(`frame target weight must be > 0 (got ${weight})`);
  }
  const orderKey = parseFrameTargetOrder(order.join(",")).join(",");
  const idOf = (word: string) => {
    const id = tok.idOf(` ${word}`) ?? tok.idOf(word);
    if (id === undefined) throw new FrameTargetsError(`"${word}" is not a piece of the tokenizer`);
    return id;
  };
  const byFile = new Map(videos.map((v) => [v.file, v.annotation]));
  const isDefault = orderKey === DEFAULT_FRAME_TARGET_ORDER.join(",");
  return {
    // The default keeps its original name, so fingerprints of earlier runs still match on resume.
    name: isDefault ? "suite-observation-v1" : `suite-observation-v1:${orderKey}`,
    weight,
    tokensOf(ref) {
      const a = byFile.get(ref.video);
      if (!a) return [];
      const o = observe(a, ref.t);
      const shape = o.shape;
      return shape ? order.map((label) => idOf(shape[label])) : [idOf(o.scene)];
    },
  };
}
