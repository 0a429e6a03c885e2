// The TypeScript API end to end: layout, parameters, forward/backward/step, training progress,
// optimizer state round trip, KV-cache decoding against full forwards.
import { describe, expect, it } from "vitest";

import {
  createModel,
  FRAME_TOKEN,
  getThreads,
  memoryInUse,
  setMemoryLimit,
  setThreads,
  type ModelConfig,
} from "./index";
import { firstMismatch, framesAt, makeBatch } from "./test-helpers";

const cfg: ModelConfig = { vocabSize: 40, context: 12, width: 16, layers: 2, heads: 2, frameDim: 6 };

describe("model", () => {
  it("lays out every tensor contiguously with its shape", () => {
    const model = createModel(cfg, { seed: 3 });
    const { vocabSize: V, context: T, width: C, layers: L, frameDim: P } = cfg;
    const expected: Record<string, number[]> = {
      wte: [V, C],
      wpe: [T, C],
      frame_w: [C, P],
      frame_b: [C],
      ln1_w: [L, C],
      qkv_w: [L, 3 * C, C],
      fc_proj_w: [L, C, 4 * C],
      lnf_b: [C],
    };
    let offset = 0;
    for (const t of model.layout) {
      expect(t.offset).toBe(offset);
      expect(t.size).toBe(t.shape.reduce((a, b) => a * b, 1));
      if (expected[t.name]) expect(t.shape).toEqual(expected[t.name]);
      expect(t.weightDecay).toBe(
        ["wte", "wpe", "frame_w", "qkv_w", "attn_proj_w", "fc_w", "fc_proj_w"].includes(t.name),
      );
      offset += t.size;
    }
    expect(model.layout).toHaveLength(18);
    expect(offset).toBe(model.numParams);
    expect(model.getTensor("lnf_w").every((x) => x === 1)).toBe(true);
  });

  it("initialises deterministically from the seed and round-trips parameters", () => {
    const a = createModel(cfg, { seed: 5 });
    const b = createModel(cfg, { seed: 5 });
    const c = createModel(cfg, { seed: 6 });
    expect(a.getParameters()).toEqual(b.getParameters());
    expect(a.getParameters()).not.toEqual(c.getParameters());
    const p = c.getParameters().map((x, i) => x + (i % 7) * 1e-3);
    a.setParameters(p);
    expect(a.getParameters()).toEqual(p);
  });

  it("computes the mask-weighted loss, logits and token accuracy", async () => {
    const model = createModel(cfg, { seed: 1 });
    const batch = makeBatch(cfg, 3, 10);
    const r = await model.forward(batch, { logits: true, losses: true });
    const tokens = batch.mask.reduce((a, b) => a + b, 0);
    expect(r.tokens).toBe(tokens);
    expect(r.logits).toHaveLength(3 * 10 * cfg.vocabSize);
    let sum = 0;
    let correct = 0;
    for (let i = 0; i < 30; i++) {
      if (batch.mask[i] === 0) {
        expect(r.losses![i]).toBe(0);
        continue;
      }
      const row = r.logits!.subarray(i * cfg.vocabSize, (i + 1) * cfg.vocabSize);
      const max = Math.max(...row);
      const lse = max + Math.log(row.reduce((a, x) => a + Math.exp(x - max), 0));
      expect(r.losses![i]).toBeCloseTo(lse - row[batch.targets[i]!]!, 5);
      sum += r.losses![i]!;
      if (row.indexOf(max) === batch.targets[i]) correct++;
    }
    expect(r.loss).toBeCloseTo(sum / tokens, 6);
    expect(r.correct).toBe(correct);
    // Near ln(V) at initialisation.
    expect(Math.abs(r.loss! - Math.log(cfg.vocabSize))).toBeLessThan(0.2);
    const inference = await model.forward({ batchSize: 3, seqLen: 10, tokens: batch.tokens, frames: batch.frames });
    expect(inference.loss).toBeNull();
  });

  it("learns: repeated steps on one batch drive its loss down", async () => {
    const model = createModel(cfg, { seed: 2 });
    const batch = makeBatch(cfg, 2, 12, 9);
    const first = await model.trainStep(batch, { lr: 1e-2, weightDecay: 0.01, maxGradNorm: 1 });
    let last = first;
    for (let i = 0; i < 30; i++) last = await model.trainStep(batch, { lr: 1e-2, weightDecay: 0.01, maxGradNorm: 1 });
    expect(last.step).toBe(31);
    expect(last.loss!).toBeLessThan(first.loss! * 0.5);
    expect(last.correct).toBeGreaterThan(first.correct);
  });

  it("says what a training step would still allocate, and how much the budget leaves", async () => {
    const model = createModel(cfg, { seed: 2 });
    const before = model.trainingMemory(2, 12);
    expect(before.backend).toBe("cpu");
    expect(before.availableBytes).toBeNull(); // no limit set
    // Moments (2 x params) plus activations: at least the moments' bytes.
    expect(before.needBytes).toBeGreaterThan(2 * model.numParams * 4);
    const used = memoryInUse();
    await model.trainStep(makeBatch(cfg, 2, 12, 9), { lr: 1e-3 });
    // The estimate is what the step then took (every buffer it allocated, nothing else).
    expect(memoryInUse() - used).toBe(before.needBytes);
    expect(model.trainingMemory(2, 12).needBytes).toBe(0);
    expect(model.trainingMemory(1, 6).needBytes).toBe(0); // smaller batches reuse the buffers
    expect(model.trainingMemory(4, 12).needBytes).toBeGreaterThan(0);
    setMemoryLimit(memoryInUse() + 1000);
    try {
      const m = model.trainingMemory(4, 12);
      expect(m.availableBytes).toBe(1000);
      expect(m.totalBytes).toBe(memoryInUse() + 1000);
    } finally {
      setMemoryLimit(0);
    }
  });

  it("says what a forward alone would allocate (a frozen reference model's log-probabilities)", async () => {
    const model = createModel(cfg, { seed: 3 });
    const forward = model.trainingMemory(2, 12, { forwardOnly: true });
    // No activation gradients, attention scratch or moments: less than a training step's estimate.
    expect(forward.needBytes).toBeGreaterThan(0);
    expect(forward.needBytes).toBeLessThan(model.trainingMemory(2, 12).needBytes);
    const used = memoryInUse();
    await model.forward(makeBatch(cfg, 2, 12, 5));
    expect(memoryInUse() - used).toBe(forward.needBytes);
    expect(model.trainingMemory(2, 12, { forwardOnly: true }).needBytes).toBe(0);
  });

  it("resumes from parameters + optimizer state exactly (checkpoint semantics)", async () => {
    const a = createModel(cfg, { seed: 4 });
    const batch = makeBatch(cfg, 2, 8, 3);
    const opt = { lr: 5e-3, weightDecay: 0.1, maxGradNorm: 0.5 };
    await a.trainStep(batch, opt);
    await a.trainStep(batch, opt);
    const b = createModel(cfg, { seed: 99 });
    b.setParameters(a.getParameters());
    b.setOptimizerState(a.getOptimizerState());
    expect(b.optimizerStep).toBe(2);
    const ra = await a.trainStep(batch, opt);
    const rb = await b.trainStep(batch, opt);
    expect(rb).toEqual(ra);
    expect(b.getParameters()).toEqual(a.getParameters());
  });

  it("accumulates gradients when asked", async () => {
    const model = createModel(cfg, { seed: 8 });
    const batch = makeBatch(cfg, 2, 6);
    await model.forward(batch);
    await model.backward();
    const once = model.getGradients();
    await model.backward({ accumulate: true });
    const twice = model.getGradients();
    expect(
      firstMismatch(
        twice,
        once.map((x) => 2 * x),
        1e-7,
        1e-6,
      ),
    ).toBe(-1);
    expect(once.some((x) => x !== 0)).toBe(true);
  });

  it("decodes with a KV cache to the same logits as full forwards", async () => {
    const model = createModel(cfg, { seed: 12 });
    const B = 2;
    const T = 9;
    const batch = makeBatch(cfg, B, T, 5);
    const full = (
      await model.forward({ batchSize: B, seqLen: T, tokens: batch.tokens, frames: batch.frames }, { logits: true })
    ).logits!;
    const dec = model.createDecoder(B);
    const V = cfg.vocabSize;
    const P = cfg.frameDim;
    let pos = 0;
    for (const n of [3, 1, 1, 4]) {
      const tokens = new Int32Array(B * n);
      const at: number[] = [];
      for (let b = 0; b < B; b++) {
        tokens.set(batch.tokens.subarray(b * T + pos, b * T + pos + n), b * n);
        for (let i = 0; i < n; i++) at.push(b * T + pos + i);
      }
      const frames = framesAt(batch, P, at);
      const logits = await dec.step({ tokens, frames });
      pos += n;
      expect(dec.position).toBe(pos);
      for (let b = 0; b < B; b++) {
        const ref = full.subarray((b * T + pos - 1) * V, (b * T + pos) * V);
        expect(firstMismatch(logits.subarray(b * V, (b + 1) * V), ref, 1e-5, 1e-5)).toBe(-1);
      }
    }
    expect(batch.tokens.includes(FRAME_TOKEN)).toBe(true);
    await dec.reset();
    expect(dec.position).toBe(0);
  });

  it("gives the same numbers with 1 and 2 threads", async () => {
    const before = getThreads();
    const batch = makeBatch(cfg, 2, 12, 21);
    const results = [];
    for (const threads of [1, 2]) {
      setThreads(threads);
      expect(getThreads()).toBe(threads);
      const model = createModel(cfg, { seed: 30 });
      const r = await model.trainStep(batch, { lr: 1e-3 });
      results.push({ r, params: model.getParameters() });
    }
    setThreads(before);
    expect(results[1]!.r).toEqual(results[0]!.r);
    expect(results[1]!.params).toEqual(results[0]!.params);
  });
});
