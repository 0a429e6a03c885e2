// The curricula that trained the shipped default, on the product trainer's extension point
// (packages/nano/src/curriculum.ts): what each one weighs, relabels or adds, that it is part of
// the dataset fingerprint (a resume must keep it), and that its randomness repeats on a resume.
// (That they train bit for bit what the trainer's former options trained: parity.test.ts.)
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  coreFrames,
  createCoreModel,
  defaultTokenizer,
  frameFeatures,
  initParameters,
  modelConfig,
  toCoreTokens,
  trainSft,
  TrainError,
  type TrainSftOptions,
} from "@paravt/nano";
import { readSuite, writeSuite } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerEmphasis,
  digitIds,
  digitPermutable,
  emphasisWeights,
  frameDrill,
  frameTargets,
  FrameTargetsError,
  lastTurnStart,
  PALETTE_WORDS,
  paletteEmphasis,
  palettePieces,
  paletteTokenIds,
  parseFrameTargetOrder,
  permutable,
  permuteDigits,
  permutePalette,
  suiteFrameTargets,
  tokenEmphasis,
} from "./index";

const tok = defaultTokenizer();
const config = modelConfig(tok, { contextLength: 640, width: 32, layers: 1, heads: 2, seed: 1 });
let root = "";
let suiteDir = "";
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "curricula-"));
  suiteDir = (
    await writeSuite({ seed: 3, count: 1, out: join(root, "suite"), config: { minMinutes: 1, maxMinutes: 1 } })
  ).dir;
}, 120_000);
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
  const frames = coreFrames([{ frameIndex: e.frameIndex, length: n, features: feats }], P);
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

describe("curricula", () => {
  const overfit = (): TrainSftOptions => ({
    suiteDir,
    modelConfig: config,
    steps: 30,
    batchSize: 1,
    sft: { ks: [4], subAgents: false },
    filter: (_e, i) => i === 0,
    lr: { kind: "constant", lr: 1e-2 },
  });

  it("emphasis weighs the palette words' loss, counts tokens as before, and is part of the resume check", async () => {
    const ids = paletteTokenIds(tok);
    // Every palette word, bare and with its leading space, is one piece of the default vocabulary.
    expect(ids).toHaveLength(2 * PALETTE_WORDS.length);
    expect(ids.map((id) => tok.decode([id]).trim()).sort()).toEqual([...PALETTE_WORDS, ...PALETTE_WORDS].sort());
    const emphasis = { tokenIds: ids, weight: 10 };
    const out = join(root, "emphasis");
    const plain = await trainSft({ ...overfit(), steps: 1 });
    const weighted = await trainSft({
      ...overfit(),
      steps: 2,
      curricula: [tokenEmphasis(emphasis)],
      outDir: out,
      checkpointEvery: 1,
    });

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
    for (const other of [[], [tokenEmphasis({ tokenIds: ids, weight: 5 })]]) {
      const err = await rejection(
        trainSft({ ...overfit(), steps: 3, curricula: other, resumeFrom: weighted.checkpoints[0]! }),
      );
      expect((err as TrainError).code).toBe("RESUME_MISMATCH");
      expect(err.message).toMatch(/dataset [0-9a-f]{12} vs [0-9a-f]{12}/);
    }
    const resumed = await trainSft({
      ...overfit(),
      steps: 2,
      curricula: [paletteEmphasis(tok, 10)],
      resumeFrom: weighted.checkpoints[0]!,
    });
    expect(resumed.metrics.map((m) => m.loss)).toEqual([weighted.metrics[1]!.loss]);

    expect(() => emphasisWeights({ tokenIds: ids, weight: 0 }, tok.size)).toThrow(/weight must be > 0/);
    expect(() => emphasisWeights({ tokenIds: [tok.size], weight: 2 }, tok.size)).toThrow(/outside the vocabulary/);
    expect(() => paletteTokenIds({ idOf: () => undefined })).toThrow(/palette word "red" is not a piece/);
    const bad = await rejection(trainSft({ ...overfit(), curricula: [tokenEmphasis({ tokenIds: ids, weight: 0 })] }));
    expect((bad as TrainError).code).toBe("BAD_OPTIONS");
    expect(bad.message).toMatch(/trainSft: emphasis: emphasis weight must be > 0/);
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
    const weighted = await trainSft({
      ...twoTurns,
      steps: 2,
      curricula: [answerEmphasis(4)],
      outDir: out,
      checkpointEvery: 1,
    });
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
    expect(() => answerEmphasis(0)).toThrow(/answer emphasis must be > 0 \(got 0\)/);
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
    const a = await trainSft({ ...twoTurns, curricula: [permutePalette(1)], outDir: out, checkpointEvery: 1 });
    const e = a.examples.find((x) => x.id === a.metrics[0]!.examples[0])!;
    const from = lastTurnStart(e.lossMask);
    const answer = [...e.ids.subarray(from)];
    const m = a.metrics[0]!.curricula!;
    expect(m.permuted).toBe(1);
    // Only the answer turn is trained, and its palette words are the ones scored as copies.
    expect(a.metrics[0]!.lossTokens).toBe(e.lossMask.subarray(from).reduce((s, x) => s + x, 0));
    expect(a.metrics[0]!.lossTokens).toBeLessThan(plain.metrics[0]!.lossTokens);
    expect(m.permutedPaletteCount).toBe(answer.filter((id) => pieces.group[id]! >= 0).length);
    expect(m.permutedPaletteAccuracy).toBeGreaterThanOrEqual(0);
    expect(a.datasetHash).not.toBe(plain.datasetHash);
    // The permutation is drawn from the seed and the step: a second run repeats the losses.
    const again = await trainSft({ ...twoTurns, curricula: [permutePalette(1)] });
    expect(again.metrics.map((m) => m.loss)).toEqual(a.metrics.map((m) => m.loss));
    const resumed = await trainSft({ ...twoTurns, curricula: [permutePalette(1)], resumeFrom: a.checkpoints[0]! });
    expect(resumed.metrics[0]!.loss).toBe(a.metrics[1]!.loss);
    const err = await rejection(trainSft({ ...twoTurns, resumeFrom: a.checkpoints[0]! }));
    expect((err as TrainError).code).toBe("RESUME_MISMATCH");
    expect(() => permutePalette(1.5)).toThrow(/palette permutation must be a probability in \(0, 1\] \(got 1.5\)/);
  });

  it("digit permutation trains a permuted example's answer turn only, reproducibly, and is part of the resume check", async () => {
    const digits = digitIds(tok);
    // A one-video suite with a `when` question, answered in MM:SS: copies of the summaries' times.
    const mmssDir = (
      await writeSuite({
        seed: 4,
        count: 1,
        out: join(root, "suite-mmss"),
        config: { minMinutes: 1, maxMinutes: 1, oracleStyle: { whenAnswer: "mmss" } },
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
    const a = await trainSft({ ...opts, curricula: [permuteDigits(1)], outDir: out, checkpointEvery: 1 });
    const e = a.examples.find((x) => x.id === a.metrics[0]!.examples[0])!;
    const from = lastTurnStart(e.lossMask);
    expect(tok.decode([...e.ids.subarray(from)])).toMatch(/<answer>\d\d:\d\d - \d\d:\d\d<\/answer>/);
    const m = a.metrics[0]!.curricula!;
    expect(m.digitPermuted).toBe(1);
    expect(m.permuted).toBeUndefined(); // no palette permutation asked for
    // Only the answer turn is trained, and its digits are the ones scored as copies.
    expect(a.metrics[0]!.lossTokens).toBe(e.lossMask.subarray(from).reduce((s, x) => s + x, 0));
    expect(a.metrics[0]!.lossTokens).toBeLessThan(plain.metrics[0]!.lossTokens);
    const answerDigits = [...e.ids.subarray(from)].filter((id, j) => digits.includes(id) && e.lossMask[from + j]! > 0);
    expect(m.permutedDigitCount).toBe(answerDigits.length);
    expect(m.permutedDigitAccuracy).toBeGreaterThanOrEqual(0);
    expect(a.datasetHash).not.toBe(plain.datasetHash);
    const again = await trainSft({ ...opts, curricula: [permuteDigits(1)] });
    expect(again.metrics.map((m) => m.loss)).toEqual(a.metrics.map((m) => m.loss));
    const resumed = await trainSft({ ...opts, curricula: [permuteDigits(1)], resumeFrom: a.checkpoints[0]! });
    expect(resumed.metrics[0]!.loss).toBe(a.metrics[1]!.loss);
    const err = await rejection(trainSft({ ...opts, resumeFrom: a.checkpoints[0]! }));
    expect((err as TrainError).code).toBe("RESUME_MISMATCH");
    expect(() => permuteDigits(0)).toThrow(/digit permutation must be a probability in \(0, 1\] \(got 0\)/);
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
    const refused = await rejection(trainSft({ ...timed, curricula: [permuteDigits(1)] }));
    expect((refused as TrainError).code).toBe("BAD_OPTIONS");
    expect(refused.message).toMatch(/digit-permutation: needs a tokenizer without time pieces/);
  });

  it("frame targets add a weighted perception loss at prompt positions only, and are part of the resume check", async () => {
    const videos = (await readSuite(suiteDir)).videos;
    const labels = suiteFrameTargets(videos, tok, 2);
    const sub = (): TrainSftOptions => ({ ...overfit(), sft: { ks: [4], mainAgent: false }, steps: 1 });
    const plain = await trainSft(sub());
    const out = join(root, "frame-targets");
    const aux = await trainSft({
      ...sub(),
      steps: 2,
      curricula: [frameTargets(labels)],
      outDir: out,
      checkpointEvery: 1,
    });

    // Rebuild the step-1 batch by hand: each slot and the two positions after it, where no loss is.
    const e = aux.examples[0]!;
    const n = e.ids.length - 1;
    const P = config.frameFeatures;
    const feats = await frameFeatures(aux.frames, e.frames, config);
    const frames = coreFrames([{ frameIndex: e.frameIndex, length: n, features: feats }], P);
    const targets = e.ids.slice(1);
    const weights = Float32Array.from(e.lossMask.subarray(1));
    let placed = 0;
    for (let i = 0; i < n; i++) {
      const f = e.frameIndex[i]!;
      if (f < 0) continue;
      const ids = labels.tokensOf(e.frames[f]!);
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
    expect(aux.metrics[0]!.curricula!.frameTargetCount).toBe(placed);
    expect(aux.metrics[0]!.loss).toBeCloseTo(fresh.loss!, 4);
    expect(aux.metrics[0]!.loss).not.toBeCloseTo(plain.metrics[0]!.loss, 3);
    // Assistant-token counts and accuracy are those of the plain run; the frame targets have their own.
    expect(aux.metrics[0]!.lossTokens).toBe(plain.metrics[0]!.lossTokens);
    expect(aux.metrics[0]!.tokenAccuracy).toBe(plain.metrics[0]!.tokenAccuracy);
    expect(aux.metrics[0]!.curricula!.frameTargetAccuracy).toBeGreaterThanOrEqual(0);
    expect(plain.metrics[0]!.curricula).toBeUndefined();

    // Another weight, or none, is another dataset: resuming with it is refused.
    expect(aux.datasetHash).not.toBe(plain.datasetHash);
    for (const other of [[], [frameTargets(suiteFrameTargets(videos, tok, 3))]]) {
      const err = await rejection(trainSft({ ...sub(), steps: 3, curricula: other, resumeFrom: aux.checkpoints[0]! }));
      expect((err as TrainError).code).toBe("RESUME_MISMATCH");
    }
    const resumed = await trainSft({
      ...sub(),
      steps: 2,
      curricula: [frameTargets(labels)],
      resumeFrom: aux.checkpoints[0]!,
    });
    expect(resumed.metrics.map((m) => m.loss)).toEqual([aux.metrics[1]!.loss]);
  });

  it("the frame drill adds random-frame sequences to each step, reproducibly, and is part of the resume check", async () => {
    const videos = (await readSuite(suiteDir)).videos;
    const labels = suiteFrameTargets(videos, tok, 1);
    const drill = (s: number) => [frameTargets(labels), frameDrill(labels, { sequences: s, framesPerSequence: 4 })];
    const sub = (): TrainSftOptions => ({
      ...overfit(),
      sft: { ks: [4], mainAgent: false },
      curricula: [frameTargets(labels)],
      steps: 2,
    });
    const out = join(root, "frame-drill");
    const a = await trainSft({ ...sub(), curricula: drill(2), outDir: out, checkpointEvery: 1 });
    const plain = await trainSft(sub());
    for (const m of a.metrics) {
      expect(m.curricula!.drillLoss).toBeGreaterThan(0);
      expect(m.curricula!.drillAccuracy).toBeGreaterThanOrEqual(0);
    }
    expect(plain.metrics[0]!.curricula!.drillLoss).toBeUndefined();
    // The drill's gradient is part of the step: step 1's update, hence step 2's loss, differs.
    expect(a.metrics[0]!.loss).toBe(plain.metrics[0]!.loss);
    expect(a.metrics[1]!.loss).not.toBe(plain.metrics[1]!.loss);
    // The draw depends on the seed and the step only: a resumed run repeats step 2 exactly.
    const resumed = await trainSft({ ...sub(), curricula: drill(2), resumeFrom: a.checkpoints[0]! });
    expect(resumed.metrics.map((m) => [m.loss, m.curricula!.drillLoss])).toEqual([
      [a.metrics[1]!.loss, a.metrics[1]!.curricula!.drillLoss],
    ]);
    const other = await rejection(trainSft({ ...sub(), curricula: drill(1), resumeFrom: a.checkpoints[0]! }));
    expect((other as TrainError).code).toBe("RESUME_MISMATCH");
    expect(() => drill(0)).toThrow(/frame drill sequences must be a positive integer \(got 0\)/);
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
