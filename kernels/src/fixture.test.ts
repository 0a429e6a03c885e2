// One full training step through the addon against the versioned fixture written by the C++
// reference (test/fixtures/step-v1.bin, format in test/fixture.h and README "Fixture format"):
// logits, per-token losses, loss, every gradient tensor, gradient norm, clipping factor and the
// parameters after one AdamW step.
import fs from "node:fs";
import { fileURLToPath } from "node:url";

import { describe, expect, it } from "vitest";

import { createModel, type ModelConfig } from "./index";
import { firstMismatch, slotRows } from "./test-helpers";

const FIXTURE = fileURLToPath(new URL("../test/fixtures/step-v1.bin", import.meta.url));
const MAGIC = 0x4b545650; // "PVTK"

function readFixture(path: string) {
  const buf = fs.readFileSync(path);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const i32 = (k: number) => view.getInt32(4 * k, true);
  const f32 = (k: number) => view.getFloat32(128 + 4 * k, true);
  if (i32(0) !== MAGIC) throw new Error(`${path}: bad magic 0x${(i32(0) >>> 0).toString(16)}`);
  if (i32(1) !== 1) throw new Error(`${path}: version ${i32(1)}, expected 1`);
  const config: ModelConfig = {
    vocabSize: i32(2),
    context: i32(3),
    width: i32(4),
    layers: i32(5),
    heads: i32(6),
    frameDim: i32(7),
  };
  const [B, T, numParams] = [i32(8), i32(9), i32(10)];
  const N = B * T;
  let offset = 256;
  const take = <A extends Int32Array | Float32Array>(Ctor: new (b: ArrayBuffer) => A, n: number): A => {
    const bytes = buf.subarray(offset, offset + 4 * n);
    if (bytes.length !== 4 * n) throw new Error(`${path}: truncated at byte ${offset}`);
    offset += 4 * n;
    return new Ctor(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer);
  };
  const data = {
    config,
    B,
    T,
    numParams,
    opt: { lr: f32(0), beta1: f32(1), beta2: f32(2), eps: f32(3), weightDecay: f32(4), maxGradNorm: f32(5) },
    loss: f32(6),
    gradNorm: f32(7),
    clipScale: f32(8),
    maskSum: f32(9),
    tokens: take(Int32Array, N),
    targets: take(Int32Array, N),
    mask: take(Float32Array, N),
    frames: take(Float32Array, N * config.frameDim),
    params: take(Float32Array, numParams),
    logits: take(Float32Array, N * config.vocabSize),
    losses: take(Float32Array, N),
    grads: take(Float32Array, numParams),
    after: take(Float32Array, numParams),
  };
  if (offset !== buf.length) throw new Error(`${path}: ${buf.length - offset} trailing bytes`);
  return data;
}

describe("fixture step-v1", () => {
  const fx = readFixture(FIXTURE);

  it("is small and exercises frames, a partial mask and clipping", () => {
    expect(fs.statSync(FIXTURE).size).toBeLessThan(1 << 20);
    expect(fx.tokens.includes(-1)).toBe(true);
    expect(fx.maskSum).toBeGreaterThan(0);
    expect(fx.maskSum).toBeLessThan(fx.B * fx.T);
    expect(fx.clipScale).toBeLessThan(1);
  });

  it("reproduces loss, logits, gradients and the AdamW step of the C++ reference", async () => {
    const model = createModel(fx.config);
    expect(model.numParams).toBe(fx.numParams);
    model.setParameters(fx.params);
    const batch = {
      batchSize: fx.B,
      seqLen: fx.T,
      tokens: fx.tokens,
      frames: slotRows(fx.tokens, fx.frames, fx.config.frameDim),
      targets: fx.targets,
      mask: fx.mask,
    };
    const r = await model.forward(batch, { logits: true, losses: true });
    expect(Math.abs(r.loss! - fx.loss)).toBeLessThan(1e-5 + 1e-5 * fx.loss);
    expect(r.tokens).toBe(fx.maskSum);
    expect(firstMismatch(r.logits!, fx.logits, 1e-5, 1e-4)).toBe(-1);
    expect(firstMismatch(r.losses!, fx.losses, 1e-5, 1e-4)).toBe(-1);
    await model.backward();
    const grads = model.getGradients();
    for (const t of model.layout) {
      const got = grads.subarray(t.offset, t.offset + t.size);
      const ref = fx.grads.subarray(t.offset, t.offset + t.size);
      expect({ tensor: t.name, firstMismatch: firstMismatch(got, ref, 1e-6, 1e-3) }).toEqual({
        tensor: t.name,
        firstMismatch: -1,
      });
    }
    const s = await model.step(fx.opt);
    expect(Math.abs(s.gradNorm - fx.gradNorm)).toBeLessThan(1e-6 + 1e-4 * fx.gradNorm);
    expect(Math.abs(s.clipScale - fx.clipScale)).toBeLessThan(1e-6 + 1e-4 * fx.clipScale);
    expect(firstMismatch(model.getParameters(), fx.after, 1e-6, 1e-4)).toBe(-1);
  });
});
