import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSuite, writeSuite } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckpointError, loadCheckpoint } from "./checkpoint";
import { modelConfig, parameterLayout } from "./config";
import { toCoreTokens, createCoreModel } from "./core";
import { emphasisWeights, lastTurnStart, paletteTokenIds, PALETTE_WORDS } from "./emphasis";
import { FrameTargetsError, parseFrameTargetOrder, suiteFrameTargets } from "./frame-targets";
import { boxDownsample, frameFeatures, videoFrameSource } from "./frames";
import { initParameters } from "./init";
import { digitIds, digitPermutable } from "./digit-permutation";
import { palettePieces, permutable } from "./palette-permutation";
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

/** The per-token losses of example `e` under the untrained parameters (what step 1 sees). */
async function initialLosses(r: Awaited<ReturnType<typeof trainSft>>, e: (typeof r.examples)[number]) {
  const n = e.ids.length - 1;
  const P = config.frameFeatures;
  const feats = await frameFeatures(r.frames, e.frames, config);
  const frames = new Float32Array(n * P);
  for (let i = 0; i < n; i++) if (e.frameIndex[i]! >= 0) frames.set(feats[e.frameIndex[i]!]!, i * P);
  const batch = {
    batchSize: 1,
    seqLen: n,
    tokens: toCoreTokens(e.ids.subarray(0, n), tok),
    targets: e.ids.slice(1),
    mask: Float32Array.from(e.lossMask.subarray(1)),
    frames,
  };
  return createCoreModel(config, initParameters(config)).forward(batch, { losses: true });
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

  it("emphasis weighs the palette words' loss, counts tokens as before, and is part of the resume check", async () => {
    const ids = paletteTokenIds(tok);
    // Every palette word, bare and with its leading space, is one piece of the default vocabulary.
    expect(ids).toHaveLength(2 * PALETTE_WORDS.length);
    expect(ids.map((id) => tok.decode([id]).trim()).sort()).toEqual([...PALETTE_WORDS, ...PALETTE_WORDS].sort());
    const emphasis = { tokenIds: ids, weight: 10 };
    const out = join(root, "emphasis");
    const plain = await trainSft({ ...overfit(), steps: 1 });
    const weighted = await trainSft({ ...overfit(), steps: 2, emphasis, outDir: out, checkpointEvery: 1 });

    // The step-1 loss (before any update) is the weighted mean of the per-token losses at init.
    const e = weighted.examples[0]!;
    const n = e.ids.length - 1;
    const fresh = await initialLosses(weighted, e);
    const w = emphasisWeights(emphasis, tok.size);
    let num = 0;
    let den = 0;
    let emphasised = 0;
    for (let i = 0; i < n; i++) {
      if (!e.lossMask[i + 1]) continue;
      const wi = w[e.ids[i + 1]!]!;
      num += wi * fresh.losses![i]!;
      den += wi;
      if (wi > 1) emphasised++;
    }
    expect(emphasised).toBeGreaterThan(0); // the example names palette words
    expect(weighted.metrics[0]!.loss).toBeCloseTo(num / den, 4);
    expect(plain.metrics[0]!.loss).toBeCloseTo(fresh.loss!, 4);
    expect(weighted.metrics[0]!.loss).not.toBeCloseTo(plain.metrics[0]!.loss, 3);
    // Token counts and accuracy are per token, not per weight.
    expect(weighted.metrics[0]!.lossTokens).toBe(plain.metrics[0]!.lossTokens);
    expect(weighted.metrics[0]!.tokenAccuracy).toBe(plain.metrics[0]!.tokenAccuracy);

    // Another emphasis (or none) is another dataset: resuming with it is refused.
    expect(weighted.datasetHash).not.toBe(plain.datasetHash);
    for (const other of [undefined, { tokenIds: ids, weight: 5 }]) {
      const err = await rejection(
        trainSft({ ...overfit(), steps: 3, emphasis: other, resumeFrom: weighted.checkpoints[0]! }),
      );
      expect((err as TrainError).code).toBe("RESUME_MISMATCH");
      expect(err.message).toMatch(/dataset [0-9a-f]{12} vs [0-9a-f]{12}/);
    }
    const resumed = await trainSft({ ...overfit(), steps: 2, emphasis, resumeFrom: weighted.checkpoints[0]! });
    expect(resumed.metrics.map((m) => m.loss)).toEqual([weighted.metrics[1]!.loss]);

    expect(() => emphasisWeights({ tokenIds: ids, weight: 0 }, tok.size)).toThrow(/weight must be > 0/);
    expect(() => emphasisWeights({ tokenIds: [tok.size], weight: 2 }, tok.size)).toThrow(/outside the vocabulary/);
    expect(() => paletteTokenIds({ idOf: () => undefined })).toThrow(/palette word "red" is not a piece/);
  });

  it("answer emphasis weighs only the main agent's last turn, and is part of the resume check", async () => {
    expect(lastTurnStart([0, 1, 1, 0, 0, 1, 1, 0])).toBe(5);
    expect(lastTurnStart([1, 1, 0])).toBe(0);
    expect(lastTurnStart([0, 0])).toBe(2);
    // A trajectory with a tool round, so the last turn is not all of its targets.
    const runs = (m: Uint8Array) => m.filter((x, i) => x > 0 && !(m[i - 1]! > 0)).length;
    const twoTurns: TrainSftOptions = {
      ...overfit(),
      sft: { ks: [4, 8, 16], subAgents: false },
      filter: (e) => runs(e.lossMask) >= 2,
    };
    const plain = await trainSft({ ...twoTurns, steps: 1 });
    const out = join(root, "answer-emphasis");
    const weighted = await trainSft({ ...twoTurns, steps: 2, answerEmphasis: 4, outDir: out, checkpointEvery: 1 });
    const first = weighted.examples.find((x) => x.id === weighted.metrics[0]!.examples[0])!;
    expect(first.kind).toBe("main");
    const from = lastTurnStart(first.lossMask);
    expect(from).toBeGreaterThan(first.lossMask.indexOf(1)); // earlier turns exist and weigh 1
    const fresh = await initialLosses(weighted, first);
    let num = 0;
    let den = 0;
    for (let i = 0; i < first.ids.length - 1; i++) {
      if (!first.lossMask[i + 1]) continue;
      const wi = i + 1 >= from ? 4 : 1;
      num += wi * fresh.losses![i]!;
      den += wi;
    }
    expect(weighted.metrics[0]!.loss).toBeCloseTo(num / den, 4);
    expect(weighted.metrics[0]!.loss).not.toBeCloseTo(fresh.loss!, 3);
    expect(weighted.metrics[0]!.lossTokens).toBe(plain.metrics[0]!.lossTokens);
    expect(weighted.datasetHash).not.toBe(plain.datasetHash);
    const err = await rejection(trainSft({ ...twoTurns, steps: 3, resumeFrom: weighted.checkpoints[0]! }));
    expect((err as TrainError).code).toBe("RESUME_MISMATCH");
    const bad = await rejection(trainSft({ ...twoTurns, steps: 1, answerEmphasis: 0 }));
    expect(bad.message).toMatch(/answerEmphasis must be > 0/);
  });

  it("palette permutation trains a permuted example's answer turn only, reproducibly, and is part of the resume check", async () => {
    const pieces = palettePieces(tok);
    const runs = (m: Uint8Array) => m.filter((x, i) => x > 0 && !(m[i - 1]! > 0)).length;
    const twoTurns: TrainSftOptions = {
      ...overfit(),
      sft: { ks: [4, 8, 16], subAgents: false },
      filter: (e) => runs(e.lossMask) >= 2 && permutable(e, lastTurnStart(e.lossMask), pieces),
      steps: 2,
    };
    const plain = await trainSft({ ...twoTurns, steps: 1 });
    const out = join(root, "permute-palette");
    const a = await trainSft({ ...twoTurns, permutePalette: 1, outDir: out, checkpointEvery: 1 });
    const e = a.examples.find((x) => x.id === a.metrics[0]!.examples[0])!;
    const from = lastTurnStart(e.lossMask);
    const answer = [...e.ids.subarray(from)];
    expect(a.metrics[0]!.permuted).toBe(1);
    // Only the answer turn is trained, and its palette words are the ones scored as copies.
    expect(a.metrics[0]!.lossTokens).toBe(e.lossMask.subarray(from).reduce((s, x) => s + x, 0));
    expect(a.metrics[0]!.lossTokens).toBeLessThan(plain.metrics[0]!.lossTokens);
    expect(a.metrics[0]!.permutedPaletteCount).toBe(answer.filter((id) => pieces.group[id]! >= 0).length);
    expect(a.metrics[0]!.permutedPaletteAccuracy).toBeGreaterThanOrEqual(0);
    expect(a.datasetHash).not.toBe(plain.datasetHash);
    // The permutation is drawn from the seed and the step: a second run repeats the losses.
    const again = await trainSft({ ...twoTurns, permutePalette: 1 });
    expect(again.metrics.map((m) => m.loss)).toEqual(a.metrics.map((m) => m.loss));
    const resumed = await trainSft({ ...twoTurns, permutePalette: 1, resumeFrom: a.checkpoints[0]! });
    expect(resumed.metrics[0]!.loss).toBe(a.metrics[1]!.loss);
    const err = await rejection(trainSft({ ...twoTurns, resumeFrom: a.checkpoints[0]! }));
    expect((err as TrainError).code).toBe("RESUME_MISMATCH");
    const bad = await rejection(trainSft({ ...twoTurns, permutePalette: 1.5 }));
    expect(bad.message).toMatch(/permutePalette must be in \(0, 1\] \(got 1.5\)/);
  });

  it("digit permutation trains a permuted example's answer turn only, reproducibly, and is part of the resume check", async () => {
    const digits = digitIds(tok);
    // A one-video suite with a `when` question, answered in MM:SS: copies of the summaries' times.
    const mmssDir = (
      await writeSuite({
        seed: 4,
        count: 1,
        out: join(root, "suite-mmss"),
        config: { minMinutes: 1, maxMinutes: 1, whenAnswer: "mmss" },
      })
    ).dir;
    const mmss = await readSuite(mmssDir);
    const when = new Set(mmss.oracle.filter((r) => r.questionType === "tvg").map((r) => r.id));
    const opts: TrainSftOptions = {
      ...overfit(),
      suiteDir: mmssDir,
      sft: { ks: [4, 8, 16], subAgents: false },
      filter: (e) => when.has(e.rowId) && digitPermutable(e, lastTurnStart(e.lossMask), digits),
      steps: 2,
    };
    const plain = await trainSft({ ...opts, steps: 1 });
    expect(plain.examples.length).toBeGreaterThan(0);
    const out = join(root, "permute-digits");
    const a = await trainSft({ ...opts, permuteDigits: 1, outDir: out, checkpointEvery: 1 });
    const e = a.examples.find((x) => x.id === a.metrics[0]!.examples[0])!;
    const from = lastTurnStart(e.lossMask);
    expect(tok.decode([...e.ids.subarray(from)])).toMatch(/<answer>\d\d:\d\d - \d\d:\d\d<\/answer>/);
    expect(a.metrics[0]!.digitPermuted).toBe(1);
    expect(a.metrics[0]!.permuted).toBeUndefined(); // no palette permutation asked for
    // Only the answer turn is trained, and its digits are the ones scored as copies.
    expect(a.metrics[0]!.lossTokens).toBe(e.lossMask.subarray(from).reduce((s, x) => s + x, 0));
    expect(a.metrics[0]!.lossTokens).toBeLessThan(plain.metrics[0]!.lossTokens);
    const answerDigits = [...e.ids.subarray(from)].filter((id, j) => digits.includes(id) && e.lossMask[from + j]! > 0);
    expect(a.metrics[0]!.permutedDigitCount).toBe(answerDigits.length);
    expect(a.metrics[0]!.permutedDigitAccuracy).toBeGreaterThanOrEqual(0);
    expect(a.datasetHash).not.toBe(plain.datasetHash);
    const again = await trainSft({ ...opts, permuteDigits: 1 });
    expect(again.metrics.map((m) => m.loss)).toEqual(a.metrics.map((m) => m.loss));
    const resumed = await trainSft({ ...opts, permuteDigits: 1, resumeFrom: a.checkpoints[0]! });
    expect(resumed.metrics[0]!.loss).toBe(a.metrics[1]!.loss);
    const err = await rejection(trainSft({ ...opts, resumeFrom: a.checkpoints[0]! }));
    expect((err as TrainError).code).toBe("RESUME_MISMATCH");
    const bad = await rejection(trainSft({ ...opts, permuteDigits: 0 }));
    expect(bad.message).toMatch(/permuteDigits must be in \(0, 1\] \(got 0\)/);
    // Tokenizer version 2 (one token per MM:SS): the core trains on it, a digit permutation is refused.
    const tok2 = tok.withTimePieces();
    const timed = {
      ...opts,
      tokenizer: tok2,
      modelConfig: { ...opts.modelConfig, vocabSize: tok2.size },
      filter: (e: { rowId: string }) => when.has(e.rowId),
    };
    const e2 = (await trainSft({ ...timed, steps: 1 })).examples[0]!;
    expect(tok2.decode([...e2.ids.subarray(lastTurnStart(e2.lossMask))])).toMatch(/<answer>\d\d:\d\d - \d\d:\d\d</);
    expect([...e2.ids].filter((id) => id >= tok.size).length).toBeGreaterThan(2);
    const refused = await rejection(trainSft({ ...timed, permuteDigits: 1 }));
    expect(refused.message).toMatch(/permuteDigits needs a tokenizer without time pieces/);
    const spelledV1 = await rejection(trainSft({ ...opts, steps: 1, sft: { ...opts.sft, spellSubAgentTimes: true } }));
    expect(spelledV1.message).toMatch(/spellSubAgentTimes needs a tokenizer with time pieces/);
  });

  it("frame targets add a weighted perception loss at prompt positions only, and are part of the resume check", async () => {
    const videos = (await readSuite(suiteDir)).videos;
    const frameTargets = suiteFrameTargets(videos, tok, 2);
    const sub = (): TrainSftOptions => ({ ...overfit(), sft: { ks: [4], mainAgent: false }, steps: 1 });
    const plain = await trainSft(sub());
    const out = join(root, "frame-targets");
    const aux = await trainSft({ ...sub(), steps: 2, frameTargets, outDir: out, checkpointEvery: 1 });

    // Rebuild the step-1 batch by hand: each slot and the two positions after it, where no loss is.
    const e = aux.examples[0]!;
    const n = e.ids.length - 1;
    const P = config.frameFeatures;
    const feats = await frameFeatures(aux.frames, e.frames, config);
    const frames = new Float32Array(n * P);
    const targets = e.ids.slice(1);
    const weights = Float32Array.from(e.lossMask.subarray(1));
    let placed = 0;
    for (let i = 0; i < n; i++) {
      const f = e.frameIndex[i]!;
      if (f < 0) continue;
      frames.set(feats[f]!, i * P);
      const ids = frameTargets.tokensOf(e.frames[f]!);
      expect(ids.length === 3 || ids.length === 1).toBe(true);
      ids.forEach((id, j) => {
        if (i + j < n && !e.lossMask[i + j + 1] && (j === 0 || e.frameIndex[i + j]! < 0)) {
          targets[i + j] = id;
          weights[i + j] = 2;
          placed++;
        }
      });
    }
    const batch = { batchSize: 1, seqLen: n, tokens: toCoreTokens(e.ids.subarray(0, n), tok), targets, frames };
    const fresh = await createCoreModel(config, initParameters(config)).forward(
      { ...batch, mask: weights },
      { losses: true },
    );
    expect(placed).toBeGreaterThan(e.frames.length); // most frames show a shape: 3 targets each
    expect(aux.metrics[0]!.frameTargetCount).toBe(placed);
    expect(aux.metrics[0]!.loss).toBeCloseTo(fresh.loss!, 4);
    expect(aux.metrics[0]!.loss).not.toBeCloseTo(plain.metrics[0]!.loss, 3);
    // Assistant-token counts and accuracy are those of the plain run; the frame targets have their own.
    expect(aux.metrics[0]!.lossTokens).toBe(plain.metrics[0]!.lossTokens);
    expect(aux.metrics[0]!.tokenAccuracy).toBe(plain.metrics[0]!.tokenAccuracy);
    expect(aux.metrics[0]!.frameTargetAccuracy).toBeGreaterThanOrEqual(0);
    expect(plain.metrics[0]!.frameTargetAccuracy).toBeUndefined();

    // Another weight, or none, is another dataset: resuming with it is refused.
    expect(aux.datasetHash).not.toBe(plain.datasetHash);
    for (const other of [undefined, suiteFrameTargets(videos, tok, 3)]) {
      const err = await rejection(
        trainSft({ ...sub(), steps: 3, frameTargets: other, resumeFrom: aux.checkpoints[0]! }),
      );
      expect((err as TrainError).code).toBe("RESUME_MISMATCH");
    }
    const resumed = await trainSft({ ...sub(), steps: 2, frameTargets, resumeFrom: aux.checkpoints[0]! });
    expect(resumed.metrics.map((m) => m.loss)).toEqual([aux.metrics[1]!.loss]);
  });

  it("the frame drill adds random-frame sequences to each step, reproducibly, and is part of the resume check", async () => {
    const videos = (await readSuite(suiteDir)).videos;
    const frameTargets = suiteFrameTargets(videos, tok, 1);
    const frameDrill = { sequences: 2, framesPerSequence: 4 };
    const sub = (): TrainSftOptions => ({ ...overfit(), sft: { ks: [4], mainAgent: false }, frameTargets, steps: 2 });
    const out = join(root, "frame-drill");
    const a = await trainSft({ ...sub(), frameDrill, outDir: out, checkpointEvery: 1 });
    const plain = await trainSft(sub());
    for (const m of a.metrics) {
      expect(m.drillLoss).toBeGreaterThan(0);
      expect(m.drillAccuracy).toBeGreaterThanOrEqual(0);
    }
    expect(plain.metrics[0]!.drillLoss).toBeUndefined();
    // The drill's gradient is part of the step: step 1's update, hence step 2's loss, differs.
    expect(a.metrics[0]!.loss).toBe(plain.metrics[0]!.loss);
    expect(a.metrics[1]!.loss).not.toBe(plain.metrics[1]!.loss);
    // The draw depends on the seed and the step only: a resumed run repeats step 2 exactly.
    const resumed = await trainSft({ ...sub(), frameDrill, resumeFrom: a.checkpoints[0]! });
    expect(resumed.metrics.map((m) => [m.loss, m.drillLoss])).toEqual([[a.metrics[1]!.loss, a.metrics[1]!.drillLoss]]);
    const other = await rejection(
      trainSft({ ...sub(), frameDrill: { sequences: 1, framesPerSequence: 4 }, resumeFrom: a.checkpoints[0]! }),
    );
    expect((other as TrainError).code).toBe("RESUME_MISMATCH");
    const noLabels = await rejection(trainSft({ ...sub(), frameTargets: undefined, frameDrill }));
    expect(noLabels.message).toMatch(/frameDrill needs frameTargets/);
    const bad = await rejection(trainSft({ ...sub(), frameDrill: { sequences: 0, framesPerSequence: 4 } }));
    expect(bad.message).toMatch(/frameDrill\.sequences must be a positive integer \(got 0\)/);
  });

  it("suite frame targets name what the renderer drew", async () => {
    const video = (await readSuite(suiteDir)).videos[0]!;
    const ft = suiteFrameTargets([video], tok, 1);
    const ev = video.annotation.events[0]!;
    const id = (w: string) => tok.idOf(` ${w}`);
    expect(ft.tokensOf({ video: video.file, t: ev.start + 0.5 })).toEqual([
      id(ev.shape),
      id(ev.color),
      id(ev.position),
    ]);
    const empty = [...Array(video.annotation.durationS).keys()].find(
      (t) => !video.annotation.events.some((x) => t >= x.start && t < x.end),
    )!;
    const scene = video.annotation.scenes.find((x) => empty >= x.start && empty < x.end)!;
    expect(ft.tokensOf({ video: video.file, t: empty })).toEqual([id(scene.color)]);
    expect(ft.tokensOf({ video: "videos/elsewhere.mp4", t: 1 })).toEqual([]);
    // Another order: the same labels at other positions, under another fingerprint name.
    const reordered = suiteFrameTargets([video], tok, 1, parseFrameTargetOrder("position,shape,color"));
    expect(reordered.tokensOf({ video: video.file, t: ev.start + 0.5 })).toEqual([
      id(ev.position),
      id(ev.shape),
      id(ev.color),
    ]);
    expect(reordered.tokensOf({ video: video.file, t: empty })).toEqual([id(scene.color)]);
    expect(reordered.name).not.toBe(ft.name);
    expect(ft.name).toBe("suite-observation-v1"); // unchanged: runs started before the option resume
    expect(() => parseFrameTargetOrder("shape,shape,color")).toThrow(/permutation of shape,color,position/);
    expect(() => parseFrameTargetOrder("shape,color")).toThrow(FrameTargetsError);
    expect(() => suiteFrameTargets([video], tok, 0)).toThrow(FrameTargetsError);
    expect(() =>
      suiteFrameTargets([video], { idOf: () => undefined }, 1).tokensOf({ video: video.file, t: 0 }),
    ).toThrow(/is not a piece of the tokenizer/);
  });
});
