// The policy-gradient ops through the TypeScript API (SPEC §3): per-token log-probabilities and
// entropy, the decoupled PPO loss's gradients (finite differences, and the properties a trainer
// relies on: zero advantages, on-policy ratio 1, masking, clipping, the behaviour weight cap,
// micro-batch accumulation), learning with policyStep, and argument validation.
import { describe, expect, it } from "vitest";

import { createModel, type KernelModel, type ModelConfig, type PolicyLossOptions, type ScoredBatch } from "./index";
import { firstMismatch, framesAt, makeBatch } from "./test-helpers";

const cfg: ModelConfig = { vocabSize: 40, context: 12, width: 16, layers: 2, heads: 2, frameDim: 6 };
const B = 3;
const T = 10;
const N = B * T;

/** A model with wider-than-init parameters so that log-probabilities differ visibly between tokens. */
function wideModel(seed: number): KernelModel {
  const model = createModel(cfg, { seed });
  model.setParameters(model.getParameters().map((x) => x * 8));
  return model;
}

// Gradient comparisons allow 1e-6 of the largest element absolutely: sums of large terms of both
// signs round differently when the per-token weights are formed differently (observed <= 5e-7).
const filled = (n: number, f: (i: number) => number) => Float32Array.from({ length: n }, (_, i) => f(i));
const scaled = (a: Float32Array, k: number) => a.map((x) => x * k);
const maxAbs = (a: Float32Array) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);

async function currentLogprobs(model: KernelModel, batch: ScoredBatch): Promise<Float32Array> {
  return (await model.logprobs(batch)).logprobs;
}

describe("logprobs", () => {
  it("equals log softmax of the forward's logits at the targets, with entropy, 0 where masked out", async () => {
    const model = wideModel(1);
    const batch = makeBatch(cfg, B, T, 3);
    const { logprobs, entropy } = await model.logprobs(batch, { entropy: true });
    const { logits } = await model.forward({ ...batch, targets: undefined, mask: undefined }, { logits: true });
    const V = cfg.vocabSize;
    let checked = 0;
    for (let i = 0; i < N; i++) {
      if (batch.mask[i] === 0) {
        expect(logprobs[i]).toBe(0);
        expect(entropy![i]).toBe(0);
        continue;
      }
      const row = Array.from(logits!.subarray(i * V, (i + 1) * V));
      const max = Math.max(...row);
      const lse = max + Math.log(row.reduce((s, x) => s + Math.exp(x - max), 0));
      const h = -row.reduce((s, x) => s + Math.exp(x - lse) * (x - lse), 0);
      expect(Math.abs(logprobs[i]! - (row[batch.targets[i]!]! - lse))).toBeLessThan(1e-5);
      expect(Math.abs(entropy![i]! - h)).toBeLessThan(1e-5);
      checked++;
    }
    expect(checked).toBeGreaterThan(15);
    // Targets at masked-out positions are ignored (they may be anything, e.g. -1).
    const targets = batch.targets.map((t, i) => (batch.mask[i] === 0 ? -1 : t));
    expect((await model.logprobs({ ...batch, targets })).logprobs).toEqual(logprobs);
  });
});

describe("policyLoss", () => {
  it("has zero gradient (replacing the old one) and zero loss with advantages 0 and klCoef 0", async () => {
    const model = wideModel(2);
    const batch = makeBatch(cfg, B, T, 4);
    await model.forward(batch);
    await model.backward(); // leaves a non-zero gradient that policyLoss must replace
    expect(maxAbs(model.getGradients())).toBeGreaterThan(0);
    const old = (await currentLogprobs(model, batch)).map((x, i) => x - 0.3 * Math.sin(i));
    const r = await model.policyLoss(batch, { advantages: new Float32Array(B), oldLogprobs: old, klCoef: 0 });
    expect(r.loss).toBe(0);
    expect(maxAbs(model.getGradients())).toBe(0);
    expect(r.tokens).toBe(batch.mask.reduce((a, b) => a + b, 0));
  });

  it("with ratio 1 and no clipping is advantage x grad logp (= a scaled SFT gradient)", async () => {
    const model = wideModel(3);
    const batch = makeBatch(cfg, B, T, 5);
    const old = await currentLogprobs(model, batch);
    const adv = filled(N, (i) => 0.5 + (i % 7) * 0.25);
    // SFT with mask weights A: loss = -sum(A logp)/sum(A), so -sum(A grad logp)/n = sum(A)/n * grad SFT.
    const sftMask = adv.map((a, i) => (batch.mask[i] === 0 ? 0 : a));
    await model.forward({ ...batch, mask: sftMask });
    await model.backward();
    const sft = model.getGradients();
    const n = batch.mask.reduce((a, b) => a + b, 0);
    const k = sftMask.reduce((a, b) => a + b, 0) / n;
    for (const sign of [1, -1]) {
      const r = await model.policyLoss(batch, { advantages: scaled(adv, sign), oldLogprobs: old, klCoef: 0 });
      expect(r.meanRatio).toBe(1);
      expect(r.clipFraction).toBe(0);
      expect(r.approxKl).toBe(0);
      expect(r.behaviourWeight).toBe(1);
      const ref = scaled(sft, sign * k);
      expect(firstMismatch(model.getGradients(), ref, 1e-6 * maxAbs(ref), 1e-4)).toBe(-1);
    }
  });

  it("ignores everything at masked-out positions", async () => {
    const model = wideModel(4);
    const batch = makeBatch(cfg, B, T, 6);
    const lp = await currentLogprobs(model, batch);
    const opts: PolicyLossOptions = {
      advantages: filled(N, (i) => Math.cos(i)),
      oldLogprobs: lp.map((x, i) => x - 0.2 * Math.sin(3 * i)),
      refLogprobs: lp.map((x, i) => x + 0.3 * Math.cos(5 * i)),
      klCoef: 0.1,
    };
    const r1 = await model.policyLoss(batch, opts);
    const g1 = model.getGradients();
    const out = (i: number) => batch.mask[i] === 0;
    const junk = (a: Float32Array) => a.map((x, i) => (out(i) ? Number.NaN : x));
    const r2 = await model.policyLoss(
      { ...batch, targets: batch.targets.map((t, i) => (out(i) ? -1 : t)) },
      {
        ...opts,
        advantages: opts.advantages.map((x, i) => (out(i) ? 1e6 : x)),
        oldLogprobs: junk(opts.oldLogprobs),
        refLogprobs: junk(opts.refLogprobs!),
      },
    );
    expect(r2).toEqual(r1);
    expect(model.getGradients()).toEqual(g1);
    // An all-zero mask: nothing to learn from.
    const r3 = await model.policyLoss({ ...batch, mask: new Float32Array(N) }, opts);
    expect(r3.loss).toBe(0);
    expect(r3.tokens).toBe(0);
    expect(maxAbs(model.getGradients())).toBe(0);
  });

  it("clips: a positive advantage with ratio above 1 + clipHigh gives no gradient", async () => {
    const model = wideModel(5);
    const batch = makeBatch(cfg, B, T, 7);
    const lp = await currentLogprobs(model, batch);
    const oldLogprobs = lp.map((x) => x - Math.log(1.5));
    const r = await model.policyLoss(batch, { advantages: filled(B, () => 1), oldLogprobs, klCoef: 0 });
    expect(r.clipFraction).toBe(1);
    expect(Math.abs(r.meanRatio - 1.5)).toBeLessThan(1e-5);
    expect(Math.abs(r.pgLoss + 1.2)).toBeLessThan(1e-5); // -A * (1 + 0.2)
    expect(maxAbs(model.getGradients())).toBe(0);
    // clipHigh 0.6 (clip-higher) lets the same tokens through.
    const r2 = await model.policyLoss(batch, { advantages: filled(B, () => 1), oldLogprobs, klCoef: 0, clipHigh: 0.6 });
    expect(r2.clipFraction).toBe(0);
    expect(maxAbs(model.getGradients())).toBeGreaterThan(0);
  });

  it("caps the behaviour importance weight: truncate scales by the cap, mask drops the token", async () => {
    const model = wideModel(6);
    const batch = makeBatch(cfg, B, T, 8);
    const prox = await currentLogprobs(model, batch);
    const advantages = filled(B, (b) => b - 0.7);
    // w = 1 reference: behaviour = proximal policy.
    await model.policyLoss(batch, { advantages, oldLogprobs: prox, proxLogprobs: prox, klCoef: 0 });
    const g1 = model.getGradients();
    const oldLogprobs = prox.map((x) => x - Math.log(10)); // w = 10 > cap 5
    const r = await model.policyLoss(batch, { advantages, oldLogprobs, proxLogprobs: prox, klCoef: 0 });
    expect(r.cappedFraction).toBe(1);
    expect(Math.abs(r.behaviourWeight - 5)).toBeLessThan(1e-6);
    expect(r.meanRatio).toBe(1); // the ratio is against the proximal policy
    expect(firstMismatch(model.getGradients(), scaled(g1, 5), 5e-6 * maxAbs(g1), 1e-4)).toBe(-1);
    const masked = await model.policyLoss(batch, {
      advantages,
      oldLogprobs,
      proxLogprobs: prox,
      klCoef: 0,
      capMode: "mask",
    });
    expect(masked.behaviourWeight).toBe(0);
    expect(masked.loss).toBe(0);
    expect(maxAbs(model.getGradients())).toBe(0);
    // Below the cap the weight is exp(prox - old) as is.
    const r3 = await model.policyLoss(batch, {
      advantages,
      oldLogprobs: prox.map((x) => x - Math.log(2)),
      proxLogprobs: prox,
      klCoef: 0,
    });
    expect(r3.cappedFraction).toBe(0);
    expect(Math.abs(r3.behaviourWeight - 2)).toBeLessThan(1e-5);
    expect(firstMismatch(model.getGradients(), scaled(g1, 2), 2e-6 * maxAbs(g1), 1e-4)).toBe(-1);
  });

  it("accumulates micro-batches to the whole batch's gradient with a shared denominator", async () => {
    const model = wideModel(7);
    const batch = makeBatch(cfg, 4, T, 9);
    const lp = await currentLogprobs(model, batch);
    const opts = {
      oldLogprobs: lp.map((x, i) => x - 0.1 * Math.sin(i)),
      refLogprobs: lp.map((x, i) => x + 0.2 * Math.cos(i)),
    };
    const advantages = Float32Array.of(1, -0.5, 0.25, -1.5);
    const full = await model.policyLoss(batch, { ...opts, advantages });
    const gFull = model.getGradients();
    const half = <A extends Float32Array | Int32Array>(a: A, h: number, per = T): A =>
      a.slice(h * 2 * per, (h + 1) * 2 * per) as A;
    const part = (h: number): ScoredBatch => ({
      batchSize: 2,
      seqLen: T,
      tokens: half(batch.tokens, h),
      targets: half(batch.targets, h),
      mask: half(batch.mask, h),
      frames: framesAt(
        batch,
        cfg.frameDim,
        Array.from({ length: 2 * T }, (_, i) => h * 2 * T + i),
      ),
    });
    let loss = 0;
    for (const h of [0, 1]) {
      const r = await model.policyLoss(part(h), {
        oldLogprobs: half(opts.oldLogprobs, h),
        refLogprobs: half(opts.refLogprobs, h),
        advantages: advantages.slice(2 * h, 2 * h + 2),
        denominator: full.tokens,
        accumulate: h === 1,
      });
      loss += r.loss;
    }
    expect(Math.abs(loss - full.loss)).toBeLessThan(1e-6);
    expect(firstMismatch(model.getGradients(), gFull, 1e-6 * maxAbs(gFull), 1e-4)).toBe(-1);
  });

  it("has parameter gradients that match finite differences of its loss", async () => {
    const model = wideModel(8);
    const batch = makeBatch(cfg, 2, 8, 10);
    const lp = await currentLogprobs(model, batch);
    const logRatios = [-0.6, -0.35, 0, 0.07, 0.45, -0.08]; // >= 5% away from the clip edges
    const prox = lp.map((x, i) => x - logRatios[i % 6]!);
    const opts: PolicyLossOptions = {
      advantages: Float32Array.of(1.2, -0.8),
      oldLogprobs: prox.map((x, i) => x - (i % 4 === 1 ? 2 : 0.3 * Math.sin(i))),
      proxLogprobs: prox,
      refLogprobs: lp.map((x, i) => x + 0.4 * Math.cos(i)),
      klCoef: 0.1,
      aggregation: "seq-mean-token-mean",
    };
    const r = await model.policyLoss(batch, opts);
    expect(r.clipFraction).toBeGreaterThan(0);
    expect(r.cappedFraction).toBeGreaterThan(0);
    const grads = model.getGradients();
    const params = model.getParameters();
    const h = 3e-3;
    let checked = 0;
    for (const t of model.layout) {
      for (const k of [0, Math.floor(t.size / 2), t.size - 1]) {
        const i = t.offset + k;
        const p = params.slice();
        p[i] = params[i]! + h;
        const up = p[i]!;
        model.setParameters(p);
        const lossUp = (await model.policyLoss(batch, opts)).loss;
        p[i] = params[i]! - h;
        const down = p[i]!;
        model.setParameters(p);
        const lossDown = (await model.policyLoss(batch, opts)).loss;
        const numeric = (lossUp - lossDown) / (up - down);
        expect(Math.abs(grads[i]! - numeric), `${t.name}[${k}]`).toBeLessThanOrEqual(2e-4 + 1e-2 * Math.abs(numeric));
        checked++;
      }
    }
    expect(checked).toBe(54);
  });

  it("learns: policyStep raises the log-probability of positively advantaged tokens and lowers the others", async () => {
    const model = wideModel(9);
    const batch = makeBatch(cfg, 2, T, 11);
    const advantages = Float32Array.of(1, -1);
    const before = await currentLogprobs(model, batch);
    let last;
    for (let s = 0; s < 4; s++) {
      const oldLogprobs = await currentLogprobs(model, batch);
      const refLogprobs = before;
      last = await model.policyStep(batch, { advantages, oldLogprobs, refLogprobs }, { lr: 3e-3, maxGradNorm: 1 });
    }
    expect(last!.step).toBe(4);
    const after = await currentLogprobs(model, batch);
    const meanOf = (a: Float32Array, b: number) => {
      let s = 0;
      let n = 0;
      for (let i = b * T; i < (b + 1) * T; i++) {
        if (batch.mask[i]! === 0) continue;
        s += a[i]!;
        n++;
      }
      return s / n;
    };
    expect(meanOf(after, 0)).toBeGreaterThan(meanOf(before, 0));
    expect(meanOf(after, 1)).toBeLessThan(meanOf(before, 1));
    expect(last!.kl).toBeGreaterThan(0); // the policy moved away from the reference
  });

  it("rejects bad arguments naming the tensor and index", async () => {
    const model = wideModel(10);
    const batch = makeBatch(cfg, B, T, 12);
    const old = await currentLogprobs(model, batch);
    const ok: PolicyLossOptions = { advantages: new Float32Array(B), oldLogprobs: old, klCoef: 0 };
    const masked = batch.mask.findIndex((m) => m > 0);
    const bad = old.slice();
    bad[masked] = Number.NaN;
    await expect(model.policyLoss(batch, { ...ok, oldLogprobs: bad })).rejects.toThrow(
      `policyLoss: options.oldLogprobs[${masked}] (sequence 0, position ${masked}) is NaN at a masked-in position`,
    );
    await expect(model.policyLoss(batch, { ...ok, advantages: new Float32Array(7) })).rejects.toThrow(
      "policyLoss: options.advantages has 7 elements, expected batchSize = 3 (one per sequence) or batchSize*seqLen = 30",
    );
    const advNaN = Float32Array.of(0, Number.POSITIVE_INFINITY, 0);
    await expect(model.policyLoss(batch, { ...ok, advantages: advNaN })).rejects.toThrow(
      "policyLoss: options.advantages[1] (sequence 1) is Infinity",
    );
    await expect(model.policyLoss(batch, { ...ok, klCoef: 0.01 })).rejects.toThrow(
      "policyLoss: options.refLogprobs is required when klCoef > 0",
    );
    await expect(model.policyLoss(batch, { ...ok, refLogprobs: new Float32Array(5) })).rejects.toThrow(
      "policyLoss: options.refLogprobs has 5 elements, expected batchSize*seqLen = 3*10 = 30",
    );
    await expect(
      model.policyLoss(batch, { ...ok, aggregation: "mean" as unknown as PolicyLossOptions["aggregation"] }),
    ).rejects.toThrow('policyLoss: options.aggregation must be one of "token-mean", "seq-mean-token-mean"');
    await expect(model.policyLoss(batch, { ...ok, clipLow: 1 })).rejects.toThrow(
      "policyLoss: options.clipLow must be in",
    );
    await expect(model.policyLoss(batch, { ...ok, behaviourCap: 0.5 })).rejects.toThrow(
      "policyLoss: options.behaviourCap must be in [1,",
    );
    const { targets: _targets, mask: _mask, ...noTargets } = batch;
    await expect(model.logprobs(noTargets as ScoredBatch)).rejects.toThrow(
      "logprobs: batch.targets is required (Int32Array)",
    );
    // The model is still usable, and backward after a rejected call has nothing stale to use.
    const r = await model.policyLoss(batch, ok);
    expect(r.loss).toBe(0);
  });
});
