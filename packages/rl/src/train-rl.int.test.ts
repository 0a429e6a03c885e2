// The trainer end to end on a real tiny suite video, a tiny nano model on the compute core and
// real rollouts through the episode runner (no scripted policy).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { videoFrameSampler } from "@paravt/agent";
import { memoryInUse, setMemoryLimit } from "@paravt/kernels";
import { createCoreModel, defaultTokenizer, initParameters, modelConfig, THINK_PREFIX } from "@paravt/nano";
import { writeSuite } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeAdvantages } from "./advantages";
import { parseRlConfig } from "./config";
import { trainSequence } from "./sequences";
import { policyUpdate, RlTrainError, trainRl, type TrainRlOptions } from "./train-rl";

const tok = defaultTokenizer();
const mc = modelConfig(tok, { contextLength: 1024, width: 32, layers: 1, heads: 2, seed: 5 });
const init = initParameters(mc);
let root: string;
let suiteDir: string;
const sampler = videoFrameSampler({ maxErrorS: 0 });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "paravt-rl-"));
  suiteDir = (
    await writeSuite({ seed: 3, count: 1, config: { minMinutes: 1, maxMinutes: 1 }, out: join(root, "suite") })
  ).dir;
}, 120_000);
afterAll(async () => root && rm(root, { recursive: true, force: true }));

const base = (over: Partial<TrainRlOptions["config"]> = {}): TrainRlOptions => ({
  suiteDir,
  modelConfig: mc,
  initialParameters: init,
  sampler,
  config: {
    steps: 2,
    groupSize: 2,
    promptsPerStep: 1,
    maxNewTokens: 24,
    maxTurns: 1,
    lr: 1e-3, // large enough that one step visibly moves a tiny model
    seed: 11,
    ...over,
  },
});

describe("trainRl", () => {
  it("one step: finite loss, weights change, metrics filled, masks only on generated tokens", async () => {
    let seenRollouts: Parameters<NonNullable<TrainRlOptions["onStep"]>>[1] = [];
    let seenPlaces: Parameters<NonNullable<TrainRlOptions["onStep"]>>[2] = [];
    const r = await trainRl({
      ...base({ steps: 1 }),
      onStep: (_m, rs, places) => {
        seenRollouts = rs;
        seenPlaces = places;
      },
    });
    const m = r.metrics[0]!;
    expect(Number.isFinite(m.loss)).toBe(true);
    expect(Number.isFinite(m.gradNorm)).toBe(true);
    expect(m.lossTokens).toBeGreaterThan(0);
    expect(m.rollouts).toBe(2);
    expect(Object.values(m.byK).reduce((n, k) => n + k.rollouts, 0)).toBe(2);
    expect(m.rolloutMs).toBeGreaterThan(0);
    // truncated_turn_rate: the share of main-agent turns cut at maxNewTokens (an untrained model
    // rarely ends a turn within 24 tokens).
    const turns = seenRollouts.flatMap((r) => r.trajectory.turns);
    expect(m.truncatedTurnRate).toBe(turns.filter((t) => t.finish === "length").length / turns.length);
    expect(turns.filter((t) => t.finish === "length").every((t) => t.completionTokens >= 24 || t.forcedFinal)).toBe(
      true,
    );
    expect(m.truncatedTurnRate).toBeGreaterThan(0.1);
    // Each rollout's place in its GRPO group and the SPEC §3 advantage it was trained with (the
    // group inspector stores them): one prompt's group of 2, advantages from the rewards.
    const expected = computeAdvantages([seenRollouts.map((x) => x.reward.reward)], {
      bias: r.config.rewardBias,
      scale: r.config.rewardScale,
      eps: r.config.normEps,
      batchNormalize: r.config.batchNormalizeAdvantages,
    })[0]!;
    expect(seenPlaces).toEqual(expected.map((advantage, index) => ({ group: 0, index, groupSize: 2, advantage })));
    const before = Float32Array.from(mc ? [...init.values()].flatMap((t) => Array.from(t.data)) : []);
    const after = r.model.getParameters();
    expect(after.length).toBe(before.length);
    expect(after.some((v, i) => v !== before[i])).toBe(true);

    // Masks: 1 exactly on the sampled ids (the forced `<think>\n` and every prompt token are 0).
    const rollout = seenRollouts[0]!;
    expect(rollout.k).toBe(rollout.trajectory.k);
    for (const rec of rollout.main) {
      const s = trainSequence(tok, mc, rec, 1);
      const ones = s.lossMask.reduce((a, b) => a + b, 0);
      expect(ones).toBe(rec.generation.ids.length);
      const firstGen = s.lossMask.indexOf(1);
      expect(Array.from(s.ids.slice(firstGen))).toEqual(rec.generation.ids);
      expect(rec.item.forcedPrefix).toBe(THINK_PREFIX);
      const prefixIds = tok.encode(THINK_PREFIX);
      expect(Array.from(s.ids.slice(firstGen - prefixIds.length, firstGen))).toEqual(prefixIds);
      expect(Array.from(s.behaviour.slice(firstGen))).toEqual(Array.from(Float32Array.from(rec.generation.logprobs)));
      // Frame slots and prompt text are masked.
      s.frameIndex.forEach((f, i) => f >= 0 && expect(s.lossMask[i]).toBe(0));
    }
    // A tool-response turn inside a later prompt is masked 0 too (user turns of buildPrompt).
    const later = seenRollouts
      .flatMap((x) => x.main)
      .find((g) => g.item.turns.some((t) => t.role === "user" && t !== g.item.turns[0]));
    if (later) {
      const s = trainSequence(tok, mc, later, 1);
      const gen = later.generation.ids.length;
      expect(s.lossMask.slice(0, s.ids.length - gen).every((x) => x === 0)).toBe(true);
    }

    // The update itself, with non-zero advantages (a random model's group usually ties at one
    // reward, so its advantages are 0): +1 for one rollout, -1 for the other.
    const model = createCoreModel(mc, init);
    const ref = createCoreModel(mc, init);
    const cfg = parseRlConfig(base().config);
    const seqs = seenRollouts.flatMap((ro, i) => ro.main.map((g) => trainSequence(tok, mc, g, i === 0 ? 1 : -1)));
    const p0 = model.getParameters();
    const u = await policyUpdate(model, ref, tok, mc, { ...cfg, weightDecay: 0, microBatchSize: 1 }, seqs);
    expect(Number.isFinite(u.result.loss)).toBe(true);
    expect(u.result.gradNorm).toBeGreaterThan(0);
    expect(u.result.kl).toBeCloseTo(0, 6); // the policy is the reference before the step
    expect(u.result.entropy).toBeGreaterThan(0);
    const p1 = model.getParameters();
    expect(p1.some((v, i) => v !== p0[i])).toBe(true);
    // Micro-batching accumulates the same gradient as one batch (same step, same parameters after).
    const whole = createCoreModel(mc, init);
    const u2 = await policyUpdate(whole, ref, tok, mc, { ...cfg, weightDecay: 0, microBatchSize: 64 }, seqs);
    expect(u2.result.loss).toBeCloseTo(u.result.loss, 5);
    expect(u2.result.gradNorm).toBeCloseTo(u.result.gradNorm, 4);
  }, 120_000);

  it("refuses an update that cannot fit before the first rollout, with the estimate and what is available", async () => {
    // The CPU core's process budget plays the device's free memory: room for both models'
    // parameters, not for a micro-batch of context-length sequences.
    setMemoryLimit(memoryInUse() + 64 * 2 ** 20);
    try {
      let rolledOut = false;
      const e = await trainRl({
        ...base({ steps: 1, microBatchSize: 64 }),
        onStep: () => void (rolledOut = true),
      }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(RlTrainError);
      expect((e as RlTrainError).code).toBe("DOES_NOT_FIT");
      expect((e as Error).message).toMatch(
        /^trainRl: a policy update of 64 x 1024 tokens needs \d+\.\d\d GiB more on the cpu core \(with the reference model's forward\), and 0\.\d\d GiB of \d+\.\d\d GiB are available: lower microBatchSize or the context length$/,
      );
      expect(rolledOut).toBe(false);
    } finally {
      setMemoryLimit(0);
    }
  });

  it("an interrupted run resumed from its checkpoint equals the uninterrupted run", async () => {
    const out1 = join(root, "full");
    const full = await trainRl({ ...base({ steps: 3, checkpointEvery: 1 }), outDir: out1 });
    const out2 = join(root, "part");
    const part = await trainRl({ ...base({ steps: 1, checkpointEvery: 1 }), outDir: out2 });
    const resumed = await trainRl({
      ...base({ steps: 3, checkpointEvery: 1 }),
      outDir: out2,
      resumeFrom: part.checkpoints[0]!,
    });
    const strip = (m: (typeof full.metrics)[number]) => {
      const {
        rolloutMs: _a,
        updateMs: _b,
        stepMs: _c,
        rolloutTokensPerSecond: _d,
        updateTokensPerSecond: _e,
        ...rest
      } = m;
      return rest;
    };
    expect(resumed.metrics.map((m) => m.step)).toEqual([2, 3]);
    expect([...part.metrics, ...resumed.metrics].map(strip)).toEqual(full.metrics.map(strip));
    expect(Array.from(resumed.model.getParameters())).toEqual(Array.from(full.model.getParameters()));
    expect(resumed.model.getOptimizerState().step).toBe(3);
    // A different config is refused.
    await expect(
      trainRl({ ...base({ steps: 3, klCoef: 0.5 }), outDir: out2, resumeFrom: part.checkpoints[0]! }),
    ).rejects.toThrow(/RL config differs/);
  }, 300_000);
});
