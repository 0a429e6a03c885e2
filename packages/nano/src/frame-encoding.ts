// Moving a trained model to another frame encoding (config.ts `frameEncoding`) without changing
// what it computes.
//
// "rgb" → "rgb+foreground" appends P zero columns to `frame_w` [C, P] → [C, 2P]: the frame
// embedding frame_w · [rgb; foreground] + frame_b equals the old frame_w · rgb + frame_b exactly,
// so a warm start continues from the trained model, and training then grows the new columns from
// the foreground features' gradient. Every other tensor is copied unchanged.
//
// `resetFrameProjection` re-draws `frame_w` ~ N(0, 0.02²) and zeroes `frame_b`, keeping the rest:
// a trained frame projection does not learn to read the shapes any more (README "Quality bar",
// *perception*: with frame targets and the drill, the widened default stayed at chance after 600
// steps, the same transformer with a re-drawn projection read shape/color/position at the frame
// slots at 0.64/1.00/1.00 after 600).

import { frameFeatureCount, parseModelConfig, type FrameEncoding, type ModelConfig } from "./config";
import { Mulberry32 } from "./init";
import type { TensorMap } from "./safetensors";

export class FrameEncodingError extends Error {
  override name = "FrameEncodingError";
}

export function withFrameEncoding(
  config: ModelConfig,
  params: TensorMap,
  encoding: FrameEncoding,
): { config: ModelConfig; params: TensorMap } {
  if (encoding === config.frameEncoding) return { config, params };
  if (config.frameEncoding !== "rgb" || encoding !== "rgb+foreground") {
    // The other way would drop trained columns: the model would no longer compute the same thing.
    throw new FrameEncodingError(
      `cannot move a "${config.frameEncoding}" model to "${encoding}": only "rgb" → "rgb+foreground" keeps what the model computes`,
    );
  }
  const next = parseModelConfig({
    ...config,
    frameEncoding: encoding,
    frameFeatures: frameFeatureCount(config.thumbnail, encoding),
  });
  const old = params.get("frame_w");
  const C = config.width;
  const P = config.frameFeatures;
  if (!old || old.dtype !== "F32" || old.data.length !== C * P) {
    throw new FrameEncodingError(`frame_w must be an F32 tensor [${C}, ${P}]`);
  }
  const Q = next.frameFeatures;
  const widened = new Float32Array(C * Q); // new columns start at 0
  for (let r = 0; r < C; r++) widened.set(old.data.subarray(r * P, (r + 1) * P), r * Q);
  const out: TensorMap = new Map(params);
  out.set("frame_w", { dtype: "F32", shape: [C, Q], data: widened });
  return { config: next, params: out };
}

/**
 * `params` with `frame_w` re-drawn from N(0, 0.02²) (Mulberry32(seed), in order) and `frame_b` = 0.
 * With `keepRgb` (an "rgb+foreground" model only) the trained rgb columns are kept, multiplied by
 * `keepRgb.scale`, only the foreground columns are drawn (in order) and `frame_b` is kept: at
 * scale 1 the foreground columns stay at chance, at 0.1 they learn (README "Quality bar").
 */
export function resetFrameProjection(
  config: ModelConfig,
  params: TensorMap,
  seed: number,
  keepRgb?: { scale: number },
): TensorMap {
  const C = config.width;
  const P = config.frameFeatures;
  const rng = new Mulberry32(seed);
  const out: TensorMap = new Map(params);
  if (!keepRgb) {
    const w = new Float32Array(C * P);
    for (let i = 0; i < w.length; i++) w[i] = 0.02 * rng.normal();
    out.set("frame_w", { dtype: "F32", shape: [C, P], data: w });
    out.set("frame_b", { dtype: "F32", shape: [C], data: new Float32Array(C) });
    return out;
  }
  if (config.frameEncoding !== "rgb+foreground") {
    throw new FrameEncodingError(
      `keeping the rgb columns needs an "rgb+foreground" model (got "${config.frameEncoding}")`,
    );
  }
  if (!(Number.isFinite(keepRgb.scale) && keepRgb.scale >= 0)) {
    throw new FrameEncodingError(`the rgb columns' scale must be >= 0 (got ${keepRgb.scale})`);
  }
  const old = params.get("frame_w");
  if (!old || old.dtype !== "F32" || old.data.length !== C * P) {
    throw new FrameEncodingError(`frame_w must be an F32 tensor [${C}, ${P}]`);
  }
  const w = Float32Array.from(old.data);
  for (let i = 0; i < w.length; i++) w[i] = i % P >= P / 2 ? 0.02 * rng.normal() : keepRgb.scale * w[i]!;
  out.set("frame_w", { dtype: "F32", shape: [C, P], data: w });
  return out;
}
