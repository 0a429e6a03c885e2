// The ParaVT-nano model config and the parameter layout derived from it.
//
// A GPT-2-style decoder-only transformer (pre-norm blocks, causal self-attention, GELU MLP of
// width 4C, learned positions, output head tied to `wte`) with one addition: a frame slot
// position (token `<frame>`) takes `frame_w · thumbnail + frame_b` instead of its `wte` row, then adds
// `wpe` like every position. Norms are LayerNorm with a gain and a bias (`ln*_w`, `ln*_b`).
//
// Thumbnail: 48x27 RGB (P = 3888 features). It is the smallest 16:9 size with integer scale
// from the suite's 192x108 frames (1/4: each thumbnail pixel is the mean of a 4x4 block) whose
// pixel count (1296) is inside SPEC §1.1's bounds 784 <= w*h <= 50176, so the model sees a
// frame the protocol allows; a shape (radius 14.4 px at 192x108) keeps a ~7 px diameter, enough
// to tell circle, square, triangle, diamond and cross apart, where 16x9 (~2.4 px) keeps only
// its color. Features (`frameEncoding`):
//   "rgb"             the RGB24 bytes in row-major HWC order scaled to [-1, 1] (P = w*h*3);
//   "rgb+foreground"  those, then the same bytes minus the frame's per-channel median, / 127.5
//                     (P = 2*w*h*3). The median of a suite frame is its background, so the second
//                     half is zero except where a shape is: a linear probe reads the shape from it
//                     at 0.989 vs 0.301 from "rgb" alone (research/LOG.md, nano; research/probes/frame-probe.ts).
// Configs written before the option existed have no field and mean "rgb".

import { z } from "zod";
import type { Tokenizer } from "./tokenizer";

export const MODEL_ARCHITECTURE = "paravt-nano-gpt";
/** SPEC §1.1 pixel bounds (784 = 28x28, 50176 = 224x224). */
const MIN_PIXELS = 784;
const MAX_PIXELS = 50176;

export const DEFAULT_THUMBNAIL = { width: 48, height: 27 } as const;

export const FRAME_ENCODINGS = ["rgb", "rgb+foreground"] as const;
export type FrameEncoding = (typeof FRAME_ENCODINGS)[number];

/** P for a thumbnail size and encoding: w*h*3 per RGB plane the encoding feeds in. */
export function frameFeatureCount(thumbnail: { width: number; height: number }, encoding: FrameEncoding): number {
  return thumbnail.width * thumbnail.height * 3 * (encoding === "rgb+foreground" ? 2 : 1);
}

export const ModelConfigSchema = z
  .strictObject({
    architecture: z.literal(MODEL_ARCHITECTURE),
    /** V: the tokenizer's size (checkpoint.ts checks it against the tokenizer's hash). */
    vocabSize: z.number().int().min(1),
    /** T: positions of `wpe`, the longest sequence. */
    contextLength: z.number().int().min(1),
    /** C: residual width. */
    width: z.number().int().min(1),
    /** L: transformer blocks. */
    layers: z.number().int().min(1),
    /** H: attention heads (C % H === 0). */
    heads: z.number().int().min(1),
    thumbnail: z.strictObject({ width: z.number().int().min(1), height: z.number().int().min(1) }),
    /** How a thumbnail becomes features (see the file comment); absent in older configs = "rgb". */
    frameEncoding: z.enum(FRAME_ENCODINGS).default("rgb"),
    /** P = thumbnail width * height * 3 (RGB), twice that for "rgb+foreground". */
    frameFeatures: z.number().int().min(3),
    layerNormEps: z.number().positive().max(0.1),
    /** Seed of the parameter initialisation. */
    seed: z.number().int().min(0).max(0xffffffff),
  })
  .superRefine((c, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (c.width % c.heads !== 0) issue("heads", `width ${c.width} is not divisible by heads ${c.heads}`);
    const p = frameFeatureCount(c.thumbnail, c.frameEncoding);
    if (c.frameFeatures !== p) {
      issue(
        "frameFeatures",
        `must be ${p} for a ${c.thumbnail.width}x${c.thumbnail.height} thumbnail, "${c.frameEncoding}"`,
      );
    }
    const px = c.thumbnail.width * c.thumbnail.height;
    if (px < MIN_PIXELS || px > MAX_PIXELS) {
      issue("thumbnail", `${px} pixels is outside SPEC §1.1's bounds [${MIN_PIXELS}, ${MAX_PIXELS}]`);
    }
  });

export type ModelConfig = z.output<typeof ModelConfigSchema>;

export class ModelConfigError extends Error {
  override name = "ModelConfigError";
}

/** Validates a config (e.g. read from config.json); the error names every bad field. */
export function parseModelConfig(input: unknown): ModelConfig {
  const r = ModelConfigSchema.safeParse(input);
  if (!r.success) {
    const what = r.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new ModelConfigError(`invalid model config: ${what}`);
  }
  return r.data;
}

export type ModelConfigOverrides = Partial<Omit<ModelConfig, "architecture" | "vocabSize" | "frameFeatures">>;

/**
 * The default nano config for a tokenizer: T = 2048 (every oracle trajectory of the default
 * suite fits, the longest main-agent one is ~1.8k tokens at K = 64, see README), C = 256,
 * L = 6, H = 8, 48x27 thumbnails.
 */
export function modelConfig(tok: Pick<Tokenizer, "size">, overrides: ModelConfigOverrides = {}): ModelConfig {
  const thumbnail = overrides.thumbnail ?? DEFAULT_THUMBNAIL;
  return parseModelConfig({
    architecture: MODEL_ARCHITECTURE,
    vocabSize: tok.size,
    contextLength: 2048,
    width: 256,
    layers: 6,
    heads: 8,
    layerNormEps: 1e-5,
    seed: 1,
    ...overrides,
    thumbnail: { ...thumbnail },
    frameFeatures: frameFeatureCount(thumbnail, overrides.frameEncoding ?? "rgb"),
  });
}

export interface ParamSpec {
  name: string;
  shape: number[];
  /** AdamW's decoupled weight decay applies (embeddings and matrices; never biases and norms). */
  weightDecay: boolean;
}

/**
 * Every parameter in its fixed order: exactly the compute core's layout (`kernels/README.md`
 * "Parameter layout", `createModel(...).layout`), because the core owns the one flat buffer;
 * model.safetensors stores these tensors, in this order, with these names. Linear weights are
 * [out, in]; per-layer tensors are stacked over the L layers in their first dimension:
 *   wte [V, C], wpe [T, C], frame_w [C, P], frame_b [C],
 *   ln1_w [L, C], ln1_b [L, C], qkv_w [L, 3C, C], qkv_b [L, 3C], attn_proj_w [L, C, C],
 *   attn_proj_b [L, C], ln2_w [L, C], ln2_b [L, C], fc_w [L, 4C, C], fc_b [L, 4C],
 *   fc_proj_w [L, C, 4C], fc_proj_b [L, C], lnf_w [C], lnf_b [C].
 */
export function parameterLayout(c: ModelConfig): ParamSpec[] {
  const C = c.width;
  const L = c.layers;
  const t = (name: string, shape: number[], weightDecay: boolean): ParamSpec => ({ name, shape, weightDecay });
  return [
    t("wte", [c.vocabSize, C], true),
    t("wpe", [c.contextLength, C], true),
    t("frame_w", [C, c.frameFeatures], true),
    t("frame_b", [C], false),
    t("ln1_w", [L, C], false),
    t("ln1_b", [L, C], false),
    t("qkv_w", [L, 3 * C, C], true),
    t("qkv_b", [L, 3 * C], false),
    t("attn_proj_w", [L, C, C], true),
    t("attn_proj_b", [L, C], false),
    t("ln2_w", [L, C], false),
    t("ln2_b", [L, C], false),
    t("fc_w", [L, 4 * C, C], true),
    t("fc_b", [L, 4 * C], false),
    t("fc_proj_w", [L, C, 4 * C], true),
    t("fc_proj_b", [L, C], false),
    t("lnf_w", [C], false),
    t("lnf_b", [C], false),
  ];
}

export const elementCount = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

export function parameterCount(c: ModelConfig): number {
  return parameterLayout(c).reduce((n, p) => n + elementCount(p.shape), 0);
}

/**
 * Thumbnail features of one RGB24 frame (row-major, 3 bytes per pixel, already resized to the
 * config's thumbnail): byte / 127.5 - 1, in [-1, 1]; for "rgb+foreground" followed by
 * (byte - median of its channel) / 127.5, in [-2, 2].
 */
export function thumbnailFeatures(
  rgb: Uint8Array,
  c: Pick<ModelConfig, "thumbnail" | "frameFeatures" | "frameEncoding">,
): Float32Array {
  const n = c.thumbnail.width * c.thumbnail.height * 3;
  if (rgb.length !== n) {
    throw new ModelConfigError(
      `thumbnail has ${rgb.length} bytes, expected ${c.thumbnail.width}x${c.thumbnail.height}x3 = ${n}`,
    );
  }
  const out = new Float32Array(c.frameFeatures);
  for (let i = 0; i < n; i++) out[i] = rgb[i]! / 127.5 - 1;
  if (c.frameEncoding === "rgb+foreground") {
    const median = channelMedians(rgb);
    for (let i = 0; i < n; i++) out[n + i] = (rgb[i]! - median[i % 3]!) / 127.5;
  }
  return out;
}

/** The median byte of each channel of an RGB24 image (the lower median for an even count). */
export function channelMedians(rgb: Uint8Array): [number, number, number] {
  const pixels = rgb.length / 3;
  const hist = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)] as const;
  for (let i = 0; i < rgb.length; i++) hist[i % 3]![rgb[i]!]!++;
  const median = (h: Uint32Array) => {
    const rank = Math.floor((pixels - 1) / 2); // 0-based rank of the lower median
    for (let v = 0, seen = 0; v < 256; v++) {
      seen += h[v]!;
      if (seen > rank) return v;
    }
    return 255;
  };
  return [median(hist[0]), median(hist[1]), median(hist[2])];
}
