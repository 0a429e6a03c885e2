import { PARA_GRPO, VANILLA_GRPO } from "@paravt/protocol";
import { describe, expect, it } from "vitest";
import { parseRlConfig, presetConfig, RlConfigError } from "./config";
import { computeAdvantages } from "./advantages";
import { frameBudget, GATING_K } from "./gating";

describe("RlConfigSchema", () => {
  it("has the SPEC §3 defaults", () => {
    const c = parseRlConfig({ steps: 3 });
    expect(c).toMatchObject({
      groupSize: 8,
      temperature: 0.7,
      validationTemperature: 0.6,
      clip: 0.2,
      klCoef: 0.01,
      rewardBias: -0.2,
      rewardScale: 10,
      lr: 2e-6,
      beta1: 0.9,
      beta2: 0.999,
      adamEps: 1e-8,
      weightDecay: 0.01,
      gradClip: 1,
      behaviourCap: 5,
      includeSubAgents: false,
      batchNormalizeAdvantages: true,
    });
    expect(c.recipe).toEqual({
      thinkPrefix: true,
      answerSuffix: true,
      nframesGating: true,
      anchorWeight: 0.5,
      rewardMode: "f1",
      formatWeight: 1,
    });
  });

  it("presets follow the SPEC §2 recipes", () => {
    const para = presetConfig("para-grpo", { steps: 1 });
    const vanilla = presetConfig("vanilla-grpo", { steps: 1, recipe: { formatWeight: 0.5 } });
    expect(para.recipe).toMatchObject({ thinkPrefix: PARA_GRPO.thinkPrefix, anchorWeight: PARA_GRPO.anchorWeight });
    expect(vanilla.recipe).toEqual({
      thinkPrefix: VANILLA_GRPO.thinkPrefix,
      answerSuffix: false,
      nframesGating: false,
      anchorWeight: 0,
      rewardMode: "f1",
      formatWeight: 0.5,
    });
  });

  it("names every bad field", () => {
    let err: unknown;
    try {
      parseRlConfig({ steps: 0, groupSize: 1, clip: 1.5, recipe: { anchorWeight: -1 }, bogus: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RlConfigError);
    const msg = (err as Error).message;
    for (const f of ["steps", "groupSize", "clip", "recipe.anchorWeight", "bogus"]) expect(msg).toContain(f);
    expect(msg).toContain("at least 2 rollouts");
    expect(() => parseRlConfig({ steps: 1, validateEvery: 2 })).toThrow(/validationSize/);
  });
});

describe("frameBudget (SPEC §1.8)", () => {
  it("is deterministic per prompt, 64 when off, and roughly uniform over {4..64}", () => {
    expect(frameBudget(["videos/v0001.mp4"], true)).toBe(frameBudget(["videos/v0001.mp4"], true));
    expect(frameBudget(["videos/v0001.mp4"], false)).toBe(64);
    const counts = new Map<number, number>();
    for (let i = 0; i < 5000; i++) {
      const k = frameBudget([`videos/v${i}.mp4`], true);
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([...GATING_K]);
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(150); // ~5 sigma
    expect(() => frameBudget([], true)).toThrow(/at least one video/);
  });
});

describe("computeAdvantages (SPEC §3)", () => {
  it("shapes, group-normalizes, then batch-normalizes", () => {
    const o = { bias: -0.2, scale: 10, eps: 1e-6, batchNormalize: false };
    // Group [1, 0]: shaped [8, -2], mean 3, std 5 -> [1, -1] (up to eps).
    const [g] = computeAdvantages([[1, 0]], o);
    expect(g![0]).toBeCloseTo(5 / (5 + 1e-6), 9);
    expect(g![1]).toBeCloseTo(-5 / (5 + 1e-6), 9);
    // A flat group gets 0; a 3-rollout group [0, 0, 0.3]: shaped [-2, -2, 1], mean -1, std sqrt(2).
    const raw = computeAdvantages(
      [
        [0.5, 0.5],
        [0, 0, 0.3],
      ],
      o,
    );
    expect(raw[0]).toEqual([0, 0]);
    expect(raw[1]![2]).toBeCloseTo(2 / (Math.SQRT2 + 1e-6), 9);
    const bn = computeAdvantages(
      [
        [0.5, 0.5],
        [0, 0, 0.3],
      ],
      { ...o, batchNormalize: true },
    );
    const flat = raw.flat();
    const m = flat.reduce((a, b) => a + b, 0) / flat.length;
    const s = Math.sqrt(flat.reduce((a, b) => a + (b - m) ** 2, 0) / flat.length);
    expect(bn.flat()).toEqual(flat.map((a) => (a - m) / (s + 1e-6)));
    expect(bn.flat().reduce((a, b) => a + b, 0)).toBeCloseTo(0, 9);
  });
});
