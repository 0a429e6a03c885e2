import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryInUse, setMemoryLimit } from "@paravt/kernels";
import { writeSuite } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckpointError, loadCheckpoint } from "./checkpoint";
import { modelConfig, parameterLayout } from "./config";
import type { SftCurriculum, SftExtraLoss } from "./curriculum";
import { boxDownsample, videoFrameSource } from "./frames";
import { initParameters } from "./init";
import { epochOrder, learningRate, nextBatch, trainSft, TrainError, type TrainSftOptions } from "./train-sft";
import { defaultTokenizer } from "./vocabulary";

const tok = defaultTokenizer();
const config = modelConfig(tok, { contextLength: 640, width: 32, layers: 1, heads: 2, seed: 1 });
let root = "";
let suiteDir = "";
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "nano-train-"));
  suiteDir = (
    await writeSuite({ seed: 3, count: 1, out: join(root, "suite"), config: { minMinutes: 1, maxMinutes: 1 } })
  ).dir;
});
afterAll(async () => rm(root, { recursive: true, force: true }));

async function rejection(p: Promise<unknown>): Promise<Error> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(Error);
  return e as Error;
}

describe("data order and schedule", () => {
  it("visits every example once per epoch, in a seeded order, across batch boundaries", () => {
    const o0 = epochOrder(7, 5, 0);
    expect([...o0].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(epochOrder(7, 5, 0)).toEqual(o0);
    expect(epochOrder(7, 5, 1)).not.toEqual(o0);
    expect(epochOrder(7, 6, 0)).not.toEqual(o0);
    const b = nextBatch(7, 5, { epoch: 0, position: 5 }, 4);
    expect(b.indices).toEqual([o0[5], o0[6], ...epochOrder(7, 5, 1).slice(0, 2)]);
    expect([b.epoch, b.position]).toEqual([1, 2]);
  });

  it("warms up linearly, then follows the cosine to minLr, or stays constant", () => {
    const s = { kind: "cosine", lr: 1e-3, warmupSteps: 10, minLr: 1e-4 } as const;
    expect(learningRate(s, 1, 100)).toBeCloseTo(1e-4, 12);
    expect(learningRate(s, 10, 100)).toBeCloseTo(1e-3, 12);
    expect(learningRate(s, 55, 100)).toBeCloseTo(5.5e-4, 12);
    expect(learningRate(s, 100, 100)).toBeCloseTo(1e-4, 12);
    expect(learningRate({ kind: "constant", lr: 0.01 }, 77, 100)).toBe(0.01);
    expect(learningRate({ kind: "constant", lr: 0.01, warmupSteps: 4 }, 2, 100)).toBe(0.005);
  });
});

describe("frames", () => {
  it("block-averages 4x4 blocks and decodes each (video, t) once", async () => {
    const rgb = new Uint8Array(8 * 4 * 3).map((_, i) => (i % 3 === 0 ? (i % 24 < 12 ? 10 : 20) : 0));
    expect(Array.from(boxDownsample(rgb, 8, 4, { width: 2, height: 1 })!)).toEqual([10, 0, 0, 20, 0, 0]);
    expect(boxDownsample(rgb, 8, 4, { width: 3, height: 1 })).toBeNull();
    const src = videoFrameSource(suiteDir, config.thumbnail);
    const refs = [0, 16, 0].map((t) => ({ video: "videos/v0001.mp4", t }));
    const thumbs = await src.thumbnails(refs);
    expect(thumbs.map((t) => t.length)).toEqual([3888, 3888, 3888]);
    expect(thumbs[2]).toBe(thumbs[0]);
    expect(thumbs[1]).not.toEqual(thumbs[0]);
    expect(src.cached).toBe(2);
  });
});

describe("trainSft", () => {
  const overfit = (): TrainSftOptions => ({
    suiteDir,
    modelConfig: config,
    steps: 30,
    batchSize: 1,
    sft: { ks: [4], subAgents: false },
    filter: (_e, i) => i === 0,
    lr: { kind: "constant", lr: 1e-2 },
  });

  it("overfits a fixed batch: the loss falls and token accuracy rises", async () => {
    const seen: number[] = [];
    const r = await trainSft({ ...overfit(), onStep: (m) => void seen.push(m.step) });
    const m = r.metrics;
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(r.examples.map((e) => e.id)).toEqual(["v0001-q1-k4"]);
    expect(m[29]!.loss).toBeLessThan(0.1 * m[0]!.loss);
    expect(m[0]!.tokenAccuracy).toBeLessThan(0.3);
    expect(m[29]!.tokenAccuracy).toBeGreaterThan(0.95);
    const e = r.examples[0]!;
    expect(m[0]!.lossTokens).toBe(e.lossMask.reduce((a, b) => a + b, 0) - e.lossMask[0]!);
    expect(m[0]!.tokens).toBe(e.ids.length - 1);
    for (const x of m) {
      expect(x.lr).toBe(1e-2);
      expect(x.gradNorm).toBeGreaterThan(0);
      expect(x.tokensPerSecond).toBeGreaterThan(0);
      expect(x.stepTimeMs).toBeGreaterThan(0);
      expect(x.examples).toEqual(["v0001-q1-k4"]);
    }
  });

  it("resumes from a checkpoint on the same loss curve, bit for bit", async () => {
    const out = join(root, "resume");
    const base: TrainSftOptions = {
      suiteDir,
      modelConfig: config,
      steps: 8,
      batchSize: 2,
      sft: { ks: [8], subAgents: false },
      lr: { kind: "cosine", lr: 3e-3, warmupSteps: 2 },
      seed: 11,
    };
    const straight = await trainSft(base);
    const first = await trainSft({ ...base, outDir: join(out, "a"), checkpointEvery: 4 });
    expect(first.checkpoints).toEqual([join(out, "a", "step-000004"), join(out, "a", "step-000008")]);
    const resumed = await trainSft({ ...base, resumeFrom: first.checkpoints[0]!, outDir: join(out, "b") });
    const losses = (r: typeof straight) => r.metrics.map((m) => m.loss);
    expect(straight.examples.length).toBe(3); // 8 steps of 2 cross several epochs
    expect(resumed.metrics.map((m) => m.step)).toEqual([5, 6, 7, 8]);
    expect([...losses(first).slice(0, 4), ...losses(resumed)]).toEqual(losses(straight));
    expect(resumed.metrics.map((m) => m.examples)).toEqual(straight.metrics.slice(4).map((m) => m.examples));
    expect(resumed.model.getParameters()).toEqual(straight.model.getParameters());

    const ck = await loadCheckpoint(first.checkpoints[0]!, { tokenizer: tok });
    expect([...ck.params.keys()]).toEqual(parameterLayout(config).map((p) => p.name));
    expect(ck.training.step).toBe(4);
    expect(ck.training.dataCursor).toEqual({ epoch: 2, position: 2, datasetHash: straight.datasetHash });
    expect(ck.training.optimizer).toMatchObject({
      beta1: 0.9,
      beta2: 0.999,
      eps: 1e-8,
      weightDecay: 0.01,
      gradClip: 1,
    });
  });

  it("refuses a mismatched or corrupt checkpoint with a clear error", async () => {
    const out = join(root, "bad");
    const r = await trainSft({ ...overfit(), steps: 2, outDir: out });
    const dir = r.checkpoints[0]!;
    const wider = modelConfig(tok, { ...config, width: 16 });
    let e = await rejection(trainSft({ ...overfit(), steps: 4, modelConfig: wider, resumeFrom: dir }));
    expect(e).toBeInstanceOf(TrainError);
    expect((e as TrainError).code).toBe("RESUME_MISMATCH");
    expect(e.message).toMatch(/cannot resume from .*step-000002: model\.width 32 vs 16/);
    e = await rejection(trainSft({ ...overfit(), steps: 4, filter: (_x, i) => i === 1, resumeFrom: dir }));
    expect(e.message).toMatch(/dataset [0-9a-f]{12} vs [0-9a-f]{12} \(other suite, sft options or filter\)/);
    e = await rejection(trainSft({ ...overfit(), steps: 4, seed: 2, adamw: { beta2: 0.95 }, resumeFrom: dir }));
    expect(e.message).toMatch(/seed 1 vs 2; .*adamw\.beta2 0\.999 vs 0\.95/);
    const model = await readFile(join(dir, "model.safetensors"));
    await writeFile(join(dir, "model.safetensors"), model.subarray(0, model.length - 8));
    e = await rejection(trainSft({ ...overfit(), steps: 4, resumeFrom: dir }));
    expect(e).toBeInstanceOf(CheckpointError);
    expect((e as CheckpointError).code).toBe("CORRUPT_TENSORS");
    expect(e.message).toMatch(/model\.safetensors: tensor "lnf_b"/);
  });

  it("refuses a batch that cannot fit before the first step, with the estimate and what is available", async () => {
    // The process budget of the CPU core plays the device's free memory: just above what is in
    // use now, so the model's parameters fit and a training step's activations cannot.
    setMemoryLimit(memoryInUse() + 64 * 2 ** 20);
    try {
      const e = await rejection(trainSft({ ...overfit(), batchSize: 512 }));
      expect(e).toBeInstanceOf(TrainError);
      expect((e as TrainError).code).toBe("DOES_NOT_FIT");
      expect(e.message).toMatch(
        /^trainSft: a batch of 512 x \d+ tokens needs \d+\.\d\d GiB more on the cpu core, and 0\.\d\d GiB of 0\.\d\d GiB are available: lower batchSize or the context length$/,
      );
    } finally {
      setMemoryLimit(0);
    }
  });

  it("stops on a non-finite loss, naming the step and the tensor", async () => {
    const params = initParameters(config);
    params.get("lnf_b")!.data.fill(3e38); // finite parameters whose logits overflow
    params.get("wte")!.data.fill(1);
    const e = await rejection(trainSft({ ...overfit(), initialParameters: params }));
    expect(e).toBeInstanceOf(TrainError);
    expect((e as TrainError).code).toBe("NON_FINITE");
    expect((e as TrainError).details).toEqual({ step: 1, tensor: "wte" });
    expect(e.message).toMatch(
      /training stopped at step 1: the loss is (NaN|Infinity) \(batch v0001-q1-k4, lr 0\.01\); core: .*non-finite gradient wte\[\d+\].*; .*lnf_b/,
    );
    const bad = await rejection(trainSft({ ...overfit(), lr: { kind: "constant", lr: Infinity } }));
    expect((bad as TrainError).code).toBe("BAD_OPTIONS");
    expect(bad.message).toMatch(/lr must be finite/);
  });

  it("a tokenizer with time pieces (version 2) trains on the core; sft.spellSubAgentTimes needs one", async () => {
    const tok2 = tok.withTimePieces();
    const timed = await trainSft({
      ...overfit(),
      steps: 1,
      tokenizer: tok2,
      modelConfig: { ...config, vocabSize: tok2.size },
      sft: { ks: [4], subAgents: false, spellSubAgentTimes: true },
    });
    expect([...timed.examples[0]!.ids].filter((id) => id >= tok.size).length).toBeGreaterThan(2);
    expect(Number.isFinite(timed.metrics[0]!.loss)).toBe(true);
    const spelledV1 = await rejection(trainSft({ ...overfit(), steps: 1, sft: { ks: [4], spellSubAgentTimes: true } }));
    expect(spelledV1.message).toMatch(/spellSubAgentTimes needs a tokenizer with time pieces/);
  });
});

// The extension point (curriculum.ts) with a toy curriculum; the real ones and their bit-identity
// with the trainer's former options are tested in research/curricula.
describe("trainSft curricula", () => {
  const base = (): TrainSftOptions => ({
    suiteDir,
    modelConfig: config,
    steps: 2,
    batchSize: 1,
    sft: { ks: [4], subAgents: false },
    filter: (_e, i) => i === 0,
    lr: { kind: "constant", lr: 1e-2 },
  });
  /**
   * Relabels every row to train its last `keep` targets only (ids unchanged), puts a target at
   * position 0 (a prompt position) with weight 2, and reports what it saw; optionally an extra loss.
   */
  const toy = (keep: number, extra?: () => Promise<SftExtraLoss>): SftCurriculum => ({
    name: "toy",
    fingerprint: `toy\0${keep}`,
    start: (run) => {
      if (run.examples.length === 0) throw new Error("no examples");
      return {
        transform: ({ ids }) => ({
          relabel: ids.map((x) => ({ ids: x, trainFrom: x.length - keep })),
          packed: ({ targets, mask, trained }) => {
            targets[0] = 7;
            mask[0] = 2;
            return {
              metrics: { trained: trained.reduce((a, b) => a + b, 0) },
              extraTargets: [0],
              accuracy: (hits) => ({ toyAccuracy: hits([0]) }),
            };
          },
        }),
        ...(extra ? { extraLoss: extra } : {}),
      };
    },
  });

  it("chains fingerprints in list order, relabels, weighs, places extra targets, reports metrics", async () => {
    const plain = await trainSft(base());
    const out = join(root, "curricula");
    const r = await trainSft({ ...base(), curricula: [toy(5)], outDir: out, checkpointEvery: 1 });
    const sha = (s: string) => createHash("sha256").update(s).digest("hex");
    expect(plain.metrics[0]!.curricula).toBeUndefined();
    expect(r.datasetHash).toBe(sha(`${plain.datasetHash}\0toy\x005`));
    const two = await trainSft({ ...base(), steps: 1, curricula: [toy(5), toy(3)] });
    expect(two.datasetHash).toBe(sha(`${sha(`${plain.datasetHash}\0toy\x005`)}\0toy\x003`));
    // The latest trainFrom wins; only the assistant tokens from it on are trained and counted.
    expect(two.metrics[0]!.lossTokens).toBe(3);
    const m = r.metrics[0]!;
    expect(m.lossTokens).toBe(5);
    expect(m.curricula).toEqual({ trained: 5, toyAccuracy: expect.any(Number) });
    expect(m.loss).not.toBe(plain.metrics[0]!.loss);
    // Another list is another dataset.
    const err = await rejection(trainSft({ ...base(), steps: 3, curricula: [toy(4)], resumeFrom: r.checkpoints[0]! }));
    expect((err as TrainError).code).toBe("RESUME_MISMATCH");
    const resumed = await trainSft({ ...base(), curricula: [toy(5)], resumeFrom: r.checkpoints[0]! });
    expect(resumed.metrics[0]!.loss).toBe(r.metrics[1]!.loss);
  });

  it("refuses a curriculum whose start throws (BAD_OPTIONS) and stops on a non-finite extra loss (NON_FINITE)", async () => {
    const bad = await rejection(trainSft({ ...base(), filter: () => false, curricula: [toy(5)] }));
    expect((bad as TrainError).code).toBe("NO_DATA"); // the examples are checked first
    const refusing: SftCurriculum = {
      name: "refusing",
      fingerprint: "refusing",
      start: () => {
        throw new Error("needs something else");
      },
    };
    const e = await rejection(trainSft({ ...base(), curricula: [refusing] }));
    expect((e as TrainError).code).toBe("BAD_OPTIONS");
    expect(e.message).toBe("trainSft: refusing: needs something else");
    const nan = await rejection(trainSft({ ...base(), curricula: [toy(5, async () => ({ loss: NaN }))] }));
    expect((nan as TrainError).code).toBe("NON_FINITE");
    expect(nan.message).toBe("training stopped at step 1: the toy loss is NaN");
  });
});
