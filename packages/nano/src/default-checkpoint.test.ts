// The committed default checkpoint (checkpoints/default) must keep loading with the current
// code: same tokenizer (hash), same parameter layout as the compute core. If this fails after a
// tokenizer or model change, retrain it with the command in the README.
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadCheckpoint } from "./checkpoint";
import { createCoreModel } from "./core";
import { TIME_PIECE_COUNT } from "./tokenizer";
import { defaultTokenizer } from "./vocabulary";

const DIR = fileURLToPath(new URL("../checkpoints/default", import.meta.url));

describe("default checkpoint", () => {
  it("loads, matches the current tokenizer and the core's layout, and holds finite trained weights", async () => {
    const ckpt = await loadCheckpoint(DIR);
    // Tokenizer version 2: the default vocabulary plus one token per MM:SS (README "Tokenizer").
    expect(ckpt.tokenizer.vocabJson().hash).toBe(defaultTokenizer().withTimePieces().vocabJson().hash);
    expect(ckpt.config).toMatchObject({
      vocabSize: defaultTokenizer().size + TIME_PIECE_COUNT,
      width: 128,
      layers: 4,
      heads: 4,
      contextLength: 2048,
      frameEncoding: "rgb+foreground",
    });
    // The last stage of README "Default checkpoint" (`o1`: 3,343 steps of gpu/train_sft.py on the CPU, seed 501).
    expect(ckpt.training).toMatchObject({ step: 3343, seed: 501 });
    // Committed for inference only: the AdamW moments (13 MB) are left out.
    expect(ckpt.training.optimizer).toBeNull();
    const wte = ckpt.params.get("wte")!;
    expect([...wte.data].every(Number.isFinite)).toBe(true);
    const model = createCoreModel(ckpt.config, ckpt.params);
    expect(model.layout.map((p) => p.name)).toEqual([...ckpt.params.keys()]);
  });
});

describe("tiny checkpoint", () => {
  it("(the earlier default, kept as the demo's second model) loads with the current tokenizer and layout", async () => {
    const ckpt = await loadCheckpoint(fileURLToPath(new URL("../checkpoints/tiny", import.meta.url)));
    expect(ckpt.tokenizer.vocabJson().hash).toBe(defaultTokenizer().vocabJson().hash);
    expect(ckpt.config).toMatchObject({ width: 64, layers: 2, heads: 2, contextLength: 2048 });
    expect(ckpt.training).toMatchObject({ step: 1500, optimizer: null });
    const model = createCoreModel(ckpt.config, ckpt.params);
    expect(model.layout.map((p) => p.name)).toEqual([...ckpt.params.keys()]);
  });
});

describe("perception checkpoint", () => {
  it('(research/LOG.md, nano, "Perception from step 1") loads as an rgb+foreground model with the current tokenizer and layout', async () => {
    const ckpt = await loadCheckpoint(fileURLToPath(new URL("../checkpoints/perception", import.meta.url)));
    expect(ckpt.tokenizer.vocabJson().hash).toBe(defaultTokenizer().vocabJson().hash);
    expect(ckpt.config).toMatchObject({ width: 128, layers: 4, heads: 4, frameEncoding: "rgb+foreground" });
    expect(ckpt.training).toMatchObject({ step: 2000, optimizer: null });
    const model = createCoreModel(ckpt.config, ckpt.params);
    expect(model.layout.map((p) => p.name)).toEqual([...ckpt.params.keys()]);
  });
});
