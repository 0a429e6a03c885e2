// The direction of a PARA-GRPO update (SPEC §2-3): in a group whose rollouts earn different
// rewards, the better rollout gets the positive advantage, and one policy update on the compute
// core makes the policy more likely to produce it and less likely to produce the worse one.
// Text-only rollouts (no frames) on a tiny nano keep this a unit test; the completions differ in
// one token (the answer letter), so the two log-probabilities compete at the same position.
import { createCoreModel, defaultTokenizer, initParameters, modelConfig, type EpisodeTurn } from "@paravt/nano";
import { computeReward } from "@paravt/protocol";
import { describe, expect, it } from "vitest";
import { computeAdvantages } from "./advantages";
import { presetConfig } from "./config";
import type { RecordedGeneration } from "./rollout";
import { policyBatch, trainSequence, type TrainSequence } from "./sequences";
import { policyUpdate } from "./train-rl";

const tok = defaultTokenizer();
const mc = modelConfig(tok, { contextLength: 256, width: 32, layers: 1, heads: 2, seed: 5 });
const init = initParameters(mc);
// A larger lr than SPEC §3's 2e-6 so one step on a tiny random model moves log-probabilities well
// above float noise; no weight decay, so only the policy-gradient and KL terms move the weights.
const config = presetConfig("para-grpo", { steps: 1, groupSize: 2, promptsPerStep: 1, lr: 1e-3, weightDecay: 0 });

const turns: EpisodeTurn[] = [
  { role: "system", content: "Answer with the letter of the right option." },
  { role: "user", content: "What colour is the needle?\nA. red\nB. blue" },
];
const ANSWER = "A";

/** A recorded main-agent generation of `text` (behaviour log-probabilities filled in later). */
function generation(text: string): RecordedGeneration {
  const ids = tok.encode(text);
  return {
    item: {
      frames: {
        thumbnails: async (refs) => {
          if (refs.length) throw new Error("this prompt has no frames");
          return [];
        },
      },
      turns,
      maxTokens: 16,
      temperature: config.temperature,
    },
    generation: { text, ids, logprobs: ids.map(() => 0), stop: "max_tokens", promptTokens: 0 },
  };
}

/** Per sequence, the sum of log p(generated token) under `model` (positions with loss mask 1). */
async function sequenceLogprobs(model: ReturnType<typeof createCoreModel>, seqs: TrainSequence[]): Promise<number[]> {
  const pb = await policyBatch(tok, mc, seqs);
  const { logprobs } = await model.logprobs(pb.batch);
  const T = pb.batch.seqLen;
  return seqs.map((_, b) => {
    let sum = 0;
    for (let i = 0; i < T; i++) if (pb.batch.mask[b * T + i]) sum += logprobs[b * T + i]!;
    return sum;
  });
}

/**
 * One group of two rollouts, the right and the wrong letter, scored by the SPEC §2 reward; the
 * given rewards override (to flip which rollout is "better"). Behaviour log-probabilities are the
 * model's own (on-policy), as they are right after sampling.
 */
async function group(rewards?: [number, number]) {
  const completions = [`<answer>${ANSWER}</answer>`, "<answer>B</answer>"];
  const scored = completions.map(
    (completion) => computeReward({ completion, answer: ANSWER, questionType: "mcq" }, config.recipe).reward,
  );
  const r = rewards ?? (scored as [number, number]);
  const [adv] = computeAdvantages([r], {
    bias: config.rewardBias,
    scale: config.rewardScale,
    eps: config.normEps,
    batchNormalize: config.batchNormalizeAdvantages,
  });
  const model = createCoreModel(mc, init);
  const seqs = completions.map((c, i) => trainSequence(tok, mc, generation(c), adv![i]!));
  const pb = await policyBatch(tok, mc, seqs);
  const { logprobs } = await model.logprobs(pb.batch);
  const T = pb.batch.seqLen;
  seqs.forEach((s, b) => {
    // Position i of the batch predicts ids[i + 1] (policyBatch), the behaviour array's index.
    for (let i = 0; i < T; i++) if (pb.batch.mask[b * T + i]) s.behaviour[i + 1] = logprobs[b * T + i]!;
  });
  return { model, seqs, scored, adv: adv! };
}

describe("a PARA-GRPO update on a group with different rewards", () => {
  it("gives the right answer the higher reward and the positive advantage", async () => {
    const { scored, adv } = await group();
    // SPEC §2: the same format reward for both, R_acc = 1 for the right letter only.
    expect(scored[0]! - scored[1]!).toBeCloseTo(1, 12);
    // Group-normalized then batch-normalized: +1 / -1 (up to eps) for a group of two.
    expect(adv[0]).toBeCloseTo(1, 4);
    expect(adv[1]).toBeCloseTo(-1, 4);
  });

  it("raises the log-probability of the higher-reward rollout and lowers the other's", async () => {
    const { model, seqs } = await group();
    const ref = createCoreModel(mc, init);
    const [right0, wrong0] = await sequenceLogprobs(model, seqs);
    const u = await policyUpdate(model, ref, tok, mc, config, seqs);
    expect(u.result.gradNorm).toBeGreaterThan(0);
    // On-policy: every importance ratio is 1, so nothing is clipped on the first step.
    expect(u.result.clipFraction).toBe(0);
    const [right1, wrong1] = await sequenceLogprobs(model, seqs);
    expect(right1! - right0!).toBeGreaterThan(0.05);
    expect(wrong1! - wrong0!).toBeLessThan(-0.05);
  });

  it("moves the other way when the rewards are swapped", async () => {
    // The same two completions, the wrong letter now rewarded: the update follows the reward,
    // not something fixed about the sequences (their length, order or the shared prompt).
    const { model, seqs, adv } = await group([0.2, 1.2]);
    expect(adv[0]).toBeLessThan(0);
    const ref = createCoreModel(mc, init);
    const [first0, second0] = await sequenceLogprobs(model, seqs);
    await policyUpdate(model, ref, tok, mc, config, seqs);
    const [first1, second1] = await sequenceLogprobs(model, seqs);
    expect(first1! - first0!).toBeLessThan(-0.05);
    expect(second1! - second0!).toBeGreaterThan(0.05);
  });
});
