// Moving a trained model to another frame encoding (config.ts `frameEncoding`) without changing
// what it computes.
//
// "rgb" → "rgb+foreground" appends P zero columns to `frame_w` [C, P] → [C, 2P]: the frame
// embedding frame_w · [rgb; foreground] + frame_b equals the old frame_w · rgb + frame_b exactly,
// so a warm start continues from the trained model, and training then grows the new columns from
// the foreground features' gradient. Every other tensor is copied unchanged.

import { frameFeatureCount, parseModelConfig, type FrameEncoding, type ModelConfig } from "./config";
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
