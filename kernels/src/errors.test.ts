// Crash isolation: every bad call becomes a JS error naming the argument, tensor and index, a
// failure inside the core (memory limit, non-finite gradient) rejects that call only, and the
// process goes on to run good calls. If any of these aborted the process, vitest's worker would
// die and the file would fail.
import { afterEach, describe, expect, it } from "vitest";

import { createModel, FRAME_TOKEN, memoryInUse, setMemoryLimit, type ModelConfig } from "./index";
import { makeBatch } from "./test-helpers";

const cfg: ModelConfig = { vocabSize: 20, context: 8, width: 8, layers: 1, heads: 2, frameDim: 3 };

afterEach(() => setMemoryLimit(0));

describe("bad calls throw JS errors and leave the process and the model usable", () => {
  it("rejects invalid configs", () => {
    expect(() => createModel({ ...cfg, width: 10, heads: 3 })).toThrow(
      "config: width (10) must be divisible by heads (3)",
    );
    expect(() => createModel({ ...cfg, layers: 0 })).toThrow(/config: layers must be an integer in \[1, 1024\], got 0/);
    expect(() => createModel({ ...cfg, context: 2.5 })).toThrow(/config.context must be an integer, got 2.5/);
    expect(() => createModel({ ...cfg, frameDim: undefined } as unknown as ModelConfig)).toThrow(TypeError);
    expect(() => createModel(cfg, { seed: -1 })).toThrow(RangeError);
  });

  it("names the tensor, index, sequence and position of bad batch values", async () => {
    const model = createModel(cfg, { seed: 1 });
    const good = makeBatch(cfg, 2, 6);
    const tokens = good.tokens.slice();
    tokens[9] = 20;
    await expect(model.forward({ ...good, tokens })).rejects.toThrow(
      "forward: batch.tokens[9] (sequence 1, position 3) = 20 is out of range: token ids are 0..19, or -1 (FRAME_TOKEN) for a frame slot",
    );
    await expect(model.forward({ ...good, tokens: good.tokens.subarray(1) })).rejects.toThrow(
      "forward: batch.tokens has 11 elements, expected batchSize*seqLen = 2*6 = 12",
    );
    await expect(model.forward({ ...good, tokens: Array.from(good.tokens) as unknown as Int32Array })).rejects.toThrow(
      "forward: batch.tokens must be an Int32Array",
    );
    await expect(model.forward({ ...good, seqLen: 9, batchSize: 1 })).rejects.toThrow(
      "forward: batch.seqLen must be in [1, 8], got 9",
    );
    const frames = good.frames.slice();
    frames[0 * cfg.frameDim + 2] = NaN; // slot 0: sequence 0, position 1
    await expect(model.forward({ ...good, frames })).rejects.toThrow(
      "forward: batch.frames[2] (frame slot 0: sequence 0, position 1, feature 2) is NaN",
    );
    await expect(model.forward({ ...good, frames: good.frames.subarray(cfg.frameDim) })).rejects.toThrow(
      `forward: batch.frames has ${cfg.frameDim} elements, expected frame slots*frameDim = 2*${cfg.frameDim} (one row per FRAME_TOKEN of batch.tokens) = ${2 * cfg.frameDim}`,
    );
    const { frames: _omit, ...noFrames } = good;
    await expect(model.forward(noFrames)).rejects.toThrow(
      "forward: batch.frames is required: batch.tokens has 2 frame slot(s), the first at index 1",
    );
    const mask = good.mask.slice();
    mask[4] = -1;
    await expect(model.forward({ ...good, mask })).rejects.toThrow(
      "forward: batch.mask[4] (sequence 0, position 4) = -1: mask weights must be finite and >= 0",
    );
    const targets = good.targets.slice();
    targets[3] = -5; // masked in
    await expect(model.forward({ ...good, targets })).rejects.toThrow(
      "forward: batch.targets[3] (sequence 0, position 3) = -5 is out of range 0..19 at a masked-in position",
    );
    targets[3] = good.targets[3]!;
    targets[0] = -5; // masked out: ignored
    await expect(model.forward({ ...good, targets })).resolves.toMatchObject({ tokens: 8 });
  });

  it("checks parameters, optimizer settings and call order", async () => {
    const model = createModel(cfg, { seed: 1 });
    const p = model.getParameters();
    p[model.layout.find((t) => t.name === "qkv_w")!.offset + 7] = Infinity;
    expect(() => model.setParameters(p)).toThrow(/setParameters: parameters\[\d+\] \(qkv_w\[7\]\) is Infinity/);
    expect(() => model.setParameters(p.subarray(1))).toThrow(RangeError);
    await expect(model.backward()).rejects.toThrow(/backward: no forward with targets/);
    await model.forward(makeBatch(cfg, 1, 8));
    await expect(model.step({} as never)).rejects.toThrow("step: options.lr is required");
    await expect(model.step({ lr: 1e-3, beta2: 1 })).rejects.toThrow(/step: options.beta2 must be in/);
    await model.backward();
    await expect(model.step({ lr: NaN })).rejects.toThrow("step: options.lr must be finite, got NaN");
    expect(() => model.createDecoder(0)).toThrow("createDecoder: batchSize must be in [1, 65536], got 0");
  });

  it("refuses overlapping native calls with a clear message (the wrapper queues them)", async () => {
    const model = createModel({ ...cfg, context: 64, width: 64, heads: 4, layers: 2 }, { seed: 1 });
    const batch = makeBatch(model.config, 8, 64);
    const pending = model.forward(batch);
    await Promise.resolve(); // let the queued call start
    await Promise.resolve();
    expect(() => model.getParameters()).toThrow(
      "getParameters: the model is busy with forward(); await it first (calls on one model and its decoders do not overlap)",
    );
    await pending;
    expect(model.getParameters()).toHaveLength(model.numParams);
  });

  it("turns a memory-limit failure inside the core into an error with file and line", async () => {
    const base = memoryInUse();
    setMemoryLimit(base + 64 * 1024);
    expect(() => createModel({ ...cfg, vocabSize: 5000, width: 64, heads: 4 })).toThrow(
      /model\.cc:\d+: allocation of \d+ bytes exceeds the memory limit/,
    );
    expect(memoryInUse()).toBe(base); // nothing leaked by the failed constructor
    setMemoryLimit(0);
    const model = createModel(cfg, { seed: 1 });
    setMemoryLimit(memoryInUse() + 1024); // parameters fit, activations do not
    await expect(model.forward(makeBatch(cfg, 4, 8))).rejects.toThrow(/model\.cc:\d+: allocation .* memory limit/);
    setMemoryLimit(0);
    await expect(model.forward(makeBatch(cfg, 4, 8))).resolves.toMatchObject({ tokens: expect.any(Number) });
  });

  it("reports a non-finite loss and rejects the step, naming the tensor, with parameters unchanged", async () => {
    const model = createModel(cfg, { seed: 1 });
    const lnf = model.layout.find((t) => t.name === "lnf_b")!;
    const wte = model.layout.find((t) => t.name === "wte")!;
    const params = model.getParameters();
    params.fill(3e38, lnf.offset, lnf.offset + lnf.size); // finite values whose logits overflow
    params.fill(1, wte.offset, wte.offset + wte.size);
    model.setParameters(params);
    const r = await model.forward(makeBatch(cfg, 1, 8));
    expect(Number.isFinite(r.loss)).toBe(false);
    await model.backward();
    await expect(model.step({ lr: 1e-3 })).rejects.toThrow(
      /model\.cc:\d+: non-finite gradient wte\[\d+\] = (NaN|-?Infinity) \(step 1\); parameters not updated/,
    );
    expect(model.getParameters()).toEqual(params);
    expect(model.optimizerStep).toBe(0);
  });

  it("checks decoder inputs and the context bound", async () => {
    const model = createModel(cfg, { seed: 1 });
    const dec = model.createDecoder(2);
    await expect(dec.step({ tokens: new Int32Array(3) })).rejects.toThrow(
      "decoder.step: batch.tokens has 3 elements: expected a positive multiple of the decoder batch size 2",
    );
    await expect(dec.step({ tokens: new Int32Array([FRAME_TOKEN, 1]) })).rejects.toThrow(
      "decoder.step: batch.frames is required: batch.tokens has 1 frame slot(s), the first at index 0",
    );
    await dec.step({ tokens: new Int32Array(2 * 6) });
    await expect(dec.step({ tokens: new Int32Array(2 * 3) })).rejects.toThrow(
      "decoder.step: 3 positions per sequence exceed the 2 positions left in the context of 8",
    );
    expect(dec.position).toBe(6);
    await expect(dec.step({ tokens: new Int32Array(2 * 2) })).resolves.toHaveLength(2 * cfg.vocabSize);
  });
});
