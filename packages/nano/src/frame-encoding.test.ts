import { FRAME_TOKEN } from "@paravt/kernels";
import { describe, expect, it } from "vitest";
import { modelConfig, parseModelConfig, thumbnailFeatures, type ModelConfig } from "./config";
import { createCoreModel } from "./core";
import { FrameEncodingError, withFrameEncoding } from "./frame-encoding";
import { initParameters, Mulberry32 } from "./init";
import type { TensorMap } from "./safetensors";
import { defaultTokenizer } from "./vocabulary";

const tok = defaultTokenizer();
const thumbnail = { width: 28, height: 28 }; // 784 pixels: SPEC §1.1's smallest frame

/** Two frames of random bytes on a flat background, in a 12-token sequence with 2 frame slots. */
function batchFor(config: ModelConfig, rgb: Uint8Array[]) {
  const seqLen = 12;
  const tokens = Int32Array.from({ length: seqLen }, (_, i) => (i === 3 || i === 7 ? FRAME_TOKEN : 40 + i));
  const frames = new Float32Array(2 * config.frameFeatures); // the two slots' rows, in order
  frames.set(thumbnailFeatures(rgb[0]!, config), 0);
  frames.set(thumbnailFeatures(rgb[1]!, config), config.frameFeatures);
  const targets = Int32Array.from({ length: seqLen }, (_, i) => 50 + i);
  return { batchSize: 1, seqLen, tokens, frames, targets };
}

function randomFrames(): Uint8Array[] {
  const rng = new Mulberry32(5);
  return [0, 1].map(() => {
    const rgb = new Uint8Array(28 * 28 * 3).fill(60); // background
    for (let i = 0; i < 200; i++) rgb[Math.floor(rng.next() * rgb.length)] = Math.floor(rng.next() * 256);
    return rgb;
  });
}

describe("withFrameEncoding", () => {
  const rgbConfig = modelConfig(tok, { contextLength: 16, width: 16, layers: 2, heads: 2, thumbnail, seed: 3 });
  const params: TensorMap = initParameters(rgbConfig);

  it('widens frame_w with zero columns, so an "rgb+foreground" copy computes the same logits', async () => {
    const { config, params: widened } = withFrameEncoding(rgbConfig, params, "rgb+foreground");
    expect(config.frameEncoding).toBe("rgb+foreground");
    expect(config.frameFeatures).toBe(2 * 28 * 28 * 3);
    const w = widened.get("frame_w")!;
    expect(w.shape).toEqual([16, 2 * 2352]);
    expect(w.data.subarray(2352, 2 * 2352).every((v) => v === 0)).toBe(true); // row 0's new columns
    expect(w.data.subarray(2 * 2352, 3 * 2352)).toEqual(params.get("frame_w")!.data.subarray(2352, 2 * 2352)); // row 1
    for (const name of ["wte", "qkv_w", "frame_b"]) expect(widened.get(name)).toBe(params.get(name));

    const frames = randomFrames();
    const before = await createCoreModel(rgbConfig, params).forward(batchFor(rgbConfig, frames), { logits: true });
    const model = createCoreModel(config, widened);
    const after = await model.forward(batchFor(config, frames), { logits: true });
    const a = before.logits!;
    const b = after.logits!;
    let maxDiff = 0;
    for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i]! - b[i]!));
    expect(maxDiff).toBeLessThan(1e-5);
    expect(after.loss).toBeCloseTo(before.loss!, 5);

    // ...and the new columns get a gradient: the foreground half is trained from step 1.
    await model.backward();
    const grad = model.getGradients();
    const frameW = model.layout.find((p) => p.name === "frame_w")!;
    let newColumnsGrad = 0;
    for (let r = 0; r < 16; r++) {
      for (let c = 2352; c < 2 * 2352; c++) newColumnsGrad += Math.abs(grad[frameW.offset + r * 2 * 2352 + c]!);
    }
    expect(newColumnsGrad).toBeGreaterThan(0);
  });

  it("is the identity for the same encoding and refuses to drop trained columns", () => {
    expect(withFrameEncoding(rgbConfig, params, "rgb").params).toBe(params);
    const fg = withFrameEncoding(rgbConfig, params, "rgb+foreground");
    expect(() => withFrameEncoding(fg.config, fg.params, "rgb")).toThrow(FrameEncodingError);
    expect(() => withFrameEncoding(rgbConfig, new Map(), "rgb+foreground")).toThrow(
      /frame_w must be an F32 tensor \[16, 2352\]/,
    );
  });

  it("reads configs written before the option as rgb, and checks P against the encoding", () => {
    const { frameEncoding: _, ...old } = rgbConfig;
    expect(parseModelConfig(old).frameEncoding).toBe("rgb");
    expect(() => parseModelConfig({ ...rgbConfig, frameEncoding: "rgb+foreground" })).toThrow(
      /frameFeatures: must be 4704 for a 28x28 thumbnail, "rgb\+foreground"/,
    );
  });
});
