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
//
// As curricula (packages/nano/src/curriculum.ts): `frameTargets` (`--frame-targets W`) places the
// targets in each batch; `frameDrill` (`--frame-drill S,F`) adds a batch of random frames trained
// on their targets alone.

import type { KernelModel } from "@paravt/kernels";
import {
  coreFrames,
  argmaxHits,
  buildSequence,
  epochSeed,
  frameFeatures,
  frameParts,
  Mulberry32,
  toCoreTokens,
  type FrameRef,
  type SftCurriculum,
  type SftExample,
  type SftRun,
  type Tokenizer,
} from "@paravt/nano";
import { observe, type VideoAnnotation } from "@paravt/suite";

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

/**
 * `--frame-targets W`: `labels`' targets at each frame slot and the positions after it, weight
 * `labels.weight`, where the sequence has no loss and no other frame. They are prompt positions,
 * so `tokenAccuracy` and `lossTokens` stay the assistant tokens'; `frameTargetAccuracy` /
 * `frameTargetCount` report the targets. Fingerprint `frame-targets\0name\0weight`.
 */
export function frameTargets(labels: FrameTargets): SftCurriculum {
  if (!(Number.isFinite(labels.weight) && labels.weight > 0)) {
    throw new FrameTargetsError(`frame target weight must be > 0 (got ${labels.weight})`);
  }
  return {
    name: "frame-targets",
    fingerprint: `frame-targets\0${labels.name}\0${labels.weight}`,
    start: () => ({
      transform: () => ({
        packed({ seqLen, examples, targets, mask }) {
          const placed: number[] = [];
          examples.forEach((e, b) => placeFrameTargets(e, labels, b * seqLen, targets, mask, placed));
          return {
            extraTargets: placed,
            metrics: { frameTargetCount: placed.length, ...(placed.length === 0 ? { frameTargetAccuracy: 0 } : {}) },
            ...(placed.length > 0
              ? { accuracy: (hits) => ({ frameTargetAccuracy: hits(placed) / placed.length }) }
              : {}),
          };
        },
      }),
    }),
  };
}

/**
 * `--frame-drill S,F`: each step also trains `sequences` sequences of `framesPerSequence` frames
 * drawn at random from all the examples' frames (a timestamp and a slot each, no text; drawn
 * from the seed and the step, so a resume draws the same) on `labels`' targets alone, and adds
 * that batch's gradient (of its own mean loss) to the step's. `drillLoss` / `drillAccuracy`
 * report it. Why: a sub-agent sample shows the same two or three events in all its frames, so
 * the frame targets of a batch are few distinct examples; random frames are many. Fingerprint
 * `frame-drill\0S\0F`.
 */
export function frameDrill(
  labels: FrameTargets,
  drill: { sequences: number; framesPerSequence: number },
): SftCurriculum {
  for (const [k, v] of Object.entries(drill)) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`frame drill ${k} must be a positive integer (got ${v})`);
  }
  return {
    name: "frame-drill",
    fingerprint: `frame-drill\0${drill.sequences}\0${drill.framesPerSequence}`,
    start(run) {
      const pool = distinctFrames(run.examples);
      return {
        async extraLoss({ step, seed, model }) {
          const r = await drillStep(run, model, labels, drill, pool, seed, step);
          return { loss: r.loss, metrics: { drillLoss: r.loss, drillAccuracy: r.accuracy } };
        },
      };
    },
  };
}

/**
 * Puts `ft`'s targets of each frame of `e` at its slot and the positions after it, only where the
 * sequence has no loss and no other frame; records the flat positions in `placed`.
 */
function placeFrameTargets(
  e: Pick<SftExample, "ids" | "lossMask" | "frameIndex" | "frames">,
  ft: FrameTargets,
  offset: number,
  targets: Int32Array,
  mask: Float32Array,
  placed: number[],
): void {
  const n = e.ids.length - 1;
  for (let i = 0; i < n; i++) {
    const f = e.frameIndex[i]!;
    if (f < 0) continue;
    ft.tokensOf(e.frames[f]!).forEach((id, j) => {
      const pos = i + j;
      if (pos >= n || e.lossMask[pos + 1] || (j > 0 && e.frameIndex[pos]! >= 0)) return;
      targets[offset + pos] = id;
      mask[offset + pos] = ft.weight;
      placed.push(offset + pos);
    });
  }
}

/** Every distinct frame of the examples (the drill's pool), in first-seen order. */
function distinctFrames(examples: readonly SftExample[]): FrameRef[] {
  const seen = new Map<string, FrameRef>();
  for (const e of examples) for (const f of e.frames) seen.set(`${f.video}\0${f.t}`, f);
  return [...seen.values()];
}

/**
 * The frame drill of one step: random frames of the pool, each as `<t seconds><frame>`, with the
 * frame targets; forward and backward, accumulated into the step's gradient.
 */
async function drillStep(
  run: SftRun,
  model: KernelModel,
  ft: FrameTargets,
  drill: { sequences: number; framesPerSequence: number },
  pool: readonly FrameRef[],
  seed: number,
  step: number,
): Promise<{ loss: number; accuracy: number }> {
  const { tokenizer: tok, config, frames } = run;
  const rng = new Mulberry32(epochSeed(seed ^ 0x6d7a11, step));
  const seqs = Array.from({ length: drill.sequences }, () => {
    const refs = Array.from({ length: drill.framesPerSequence }, () => pool[Math.floor(rng.next() * pool.length)]!);
    return buildSequence(tok, [{ role: "user", content: frameParts(refs) }]);
  });
  const B = seqs.length;
  const P = config.frameFeatures;
  const seqLen = Math.max(...seqs.map((q) => q.ids.length)) - 1;
  const tokens = new Int32Array(B * seqLen).fill(tok.pad);
  const targets = new Int32Array(B * seqLen).fill(tok.pad);
  const mask = new Float32Array(B * seqLen);
  const features: Float32Array[][] = [];
  const placed: number[] = [];
  for (let b = 0; b < B; b++) {
    const q = seqs[b]!;
    const n = q.ids.length - 1;
    features.push(await frameFeatures(frames, q.frames, config));
    tokens.set(toCoreTokens(q.ids.subarray(0, n), tok), b * seqLen);
    placeFrameTargets(q, ft, b * seqLen, targets, mask, placed);
  }
  const frameArr = coreFrames(
    seqs.map((q, b) => ({ frameIndex: q.frameIndex, length: q.ids.length - 1, features: features[b]! })),
    P,
  );
  if (placed.length === 0) return { loss: 0, accuracy: 0 };
  const fwd = await model.forward({ batchSize: B, seqLen, tokens, targets, mask, frames: frameArr }, { logits: true });
  const loss = fwd.loss ?? NaN;
  if (!Number.isFinite(loss)) return { loss, accuracy: 0 }; // the trainer stops the run (NON_FINITE)
  await model.backward({ accumulate: true });
  return { loss, accuracy: argmaxHits(fwd.logits!, config.vocabSize, targets, placed) / placed.length };
}
