// The curricula as plug-ins train exactly what the trainer's former options trained: the same
// dataset fingerprint (so checkpoints of the default's lineage still resume), the same per-step
// losses, accuracies, counts and gradient norms, and the same final parameters, bit for bit.
// parity.baseline.json was recorded by trainSft before the extension point existed (commit
// 367b6d8: `emphasis`, `answerEmphasis`, `frameTargets`, `frameDrill`, `permutePalette`,
// `permuteDigits` options) on these runs; the core is deterministic for any thread count
// (kernels/README.md), so they must agree exactly.
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultTokenizer, modelConfig, trainSft, type TrainSftOptions } from "@paravt/nano";
import { readSuite, writeSuite } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  answerEmphasis,
  digitIds,
  digitPermutable,
  frameDrill,
  frameTargets,
  lastTurnStart,
  paletteEmphasis,
  permuteDigits,
  permutePalette,
  suiteFrameTargets,
} from "./index";
import baseline from "./parity.baseline.json";

const tok = defaultTokenizer();
const config = modelConfig(tok, { contextLength: 640, width: 32, layers: 1, heads: 2, seed: 1 });
let root = "";
let suiteDir = "";
let mmssDir = "";
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "curricula-parity-"));
  const oneMinute = { minMinutes: 1, maxMinutes: 1 };
  suiteDir = (await writeSuite({ seed: 3, count: 1, out: join(root, "suite"), config: oneMinute })).dir;
  mmssDir = (
    await writeSuite({
      seed: 4,
      count: 1,
      out: join(root, "suite-mmss"),
      config: { ...oneMinute, oracleStyle: { whenAnswer: "mmss" } },
    })
  ).dir;
}, 120_000);
afterAll(async () => rm(root, { recursive: true, force: true }));

/** A run as the baseline recorded it: curriculum metrics where the former fields were, no timings. */
async function summary(o: TrainSftOptions) {
  const r = await trainSft(o);
  return {
    datasetHash: r.datasetHash,
    examples: r.examples.length,
    params: createHash("sha256").update(r.model.getParameters()).digest("hex"),
    steps: r.metrics.map(
      ({ stepTimeMs: _t, frameTimeMs: _f, tokensPerSecond: _s, curricula, ...m }): Record<string, unknown> => ({
        ...m,
        ...curricula,
      }),
    ),
  };
}

describe("the curricula reproduce the trainer's former options", () => {
  it("the permmix stage's curricula (emphasis 2, answer 3, frame targets 3, drill, palette 0.5), main agent and sub-agents", async () => {
    const videos = (await readSuite(suiteDir)).videos;
    const labels = suiteFrameTargets(videos, tok, 3);
    const got = await summary({
      suiteDir,
      modelConfig: config,
      sft: { ks: [4, 8, 16], thinkPrefix: true },
      curricula: [
        paletteEmphasis(tok, 2),
        answerEmphasis(3),
        frameTargets(labels),
        frameDrill(labels, { sequences: 2, framesPerSequence: 4 }),
        permutePalette(0.5),
      ],
      steps: 6,
      batchSize: 2,
      lr: { kind: "cosine", lr: 3e-3, warmupSteps: 1 },
      seed: 9,
    });
    expect(got).toEqual(baseline.mix);
  });

  it("palette and digit permutation together (MM:SS answers), with weights that are not powers of two and another target order", async () => {
    const digits = digitIds(tok);
    const videos = (await readSuite(mmssDir)).videos;
    const got = await summary({
      suiteDir: mmssDir,
      modelConfig: config,
      sft: { ks: [4, 8, 16], subAgents: false },
      filter: (e) =>
        e.kind === "main" && (e.id.length % 2 === 0 || digitPermutable(e, lastTurnStart(e.lossMask), digits)),
      curricula: [
        paletteEmphasis(tok, 1.7),
        answerEmphasis(1.3),
        frameTargets(suiteFrameTargets(videos, tok, 0.7, ["position", "shape", "color"])),
        permutePalette(0.8),
        permuteDigits(0.6),
      ],
      steps: 6,
      batchSize: 3,
      lr: { kind: "cosine", lr: 3e-3, warmupSteps: 1 },
      seed: 21,
    });
    expect(got.steps.some((s) => Number(s.permuted) > 0 && Number(s.digitPermuted) > 0)).toBe(true);
    expect(got).toEqual(baseline.digits);
  });

  it("no curriculum: the examples' hash alone, and no curriculum metrics", async () => {
    const got = await summary({
      suiteDir,
      modelConfig: config,
      sft: { ks: [4], thinkPrefix: true },
      steps: 2,
      batchSize: 2,
      lr: { kind: "constant", lr: 1e-3 },
      seed: 5,
    });
    expect(got).toEqual(baseline.plain);
  });
});
