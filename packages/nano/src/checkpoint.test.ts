import { createHash } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  CheckpointError,
  lineageParent,
  loadCheckpoint,
  modelFileHash,
  saveCheckpoint,
  withStage,
  type Checkpoint,
  type CheckpointErrorCode,
  type CheckpointQuality,
  type LineageStage,
  type Moments,
  type NewStage,
  type TrainingState,
} from "./checkpoint";
import { modelConfig, parameterLayout, type ModelConfig } from "./config";
import { initParameters, Mulberry32 } from "./init";
import { f32, type TensorMap } from "./safetensors";
import { Tokenizer } from "./tokenizer";
import { defaultTokenizer } from "./vocabulary";

const tok = defaultTokenizer();
const config = modelConfig(tok, { contextLength: 32, width: 8, layers: 2, heads: 2, seed: 5 });
const root = mkdtemp(join(tmpdir(), "nano-ckpt-"));
afterAll(async () => rm(await root, { recursive: true, force: true }));
let n = 0;
const fresh = async () => join(await root, `c${n++}`);

const HYPER = {
  kind: "adamw",
  lr: 0.05,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0.01,
  gradClip: null,
} as const;

const zeros = (c: ModelConfig): TensorMap => new Map(parameterLayout(c).map((p) => [p.name, f32(p.shape)]));

function training(step: number, optimizer: TrainingState["optimizer"] = HYPER): TrainingState {
  return {
    step,
    seed: 9,
    rng: { algorithm: Mulberry32.algorithm, state: [123] },
    dataCursor: { epoch: 0, position: step, datasetHash: null },
    optimizer,
  };
}

function checkpoint(step = 0): Checkpoint {
  return {
    config,
    tokenizer: tok,
    params: initParameters(config),
    training: training(step),
    moments: { m: zeros(config), v: zeros(config) },
  };
}

async function expectCode(p: Promise<unknown>, code: CheckpointErrorCode, message: RegExp) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CheckpointError);
  expect((e as CheckpointError).code).toBe(code);
  expect((e as CheckpointError).message).toMatch(message);
}

async function editJson(path: string, edit: (j: Record<string, unknown>) => void) {
  const j = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  edit(j);
  await writeFile(path, JSON.stringify(j));
}

describe("checkpoint: save and load", () => {
  it("round-trips parameters, moments, tokenizer and training state exactly", async () => {
    const dir = await fresh();
    const c = checkpoint(7);
    c.moments!.m.get("wte")!.data[3] = 0.25;
    c.moments!.v.get("fc_b")!.data[0] = 1e-30;
    await saveCheckpoint(dir, c);
    expect((await readdir(dir)).sort()).toEqual([
      "config.json",
      "model.safetensors",
      "optimizer.safetensors",
      "tokenizer.json",
    ]);
    const back = await loadCheckpoint(dir, { tokenizer: tok });
    expect(back.config).toEqual(config);
    expect(back.tokenizer.hash).toBe(tok.hash);
    expect(back.training).toEqual(c.training);
    expect([...back.params.keys()]).toEqual(parameterLayout(config).map((p) => p.name));
    for (const [name, t] of c.params) expect(back.params.get(name)!.data).toEqual(t.data);
    expect(back.moments!.m.get("wte")!.data[3]).toBe(0.25);
    expect(back.moments!.v.get("fc_b")!.data[0]).toBe(Math.fround(1e-30));
    const json = JSON.parse(await readFile(join(dir, "config.json"), "utf8"));
    expect(json.tokenizer).toEqual({ version: tok.version, hash: tok.hash, size: tok.size });
    expect((await loadCheckpoint(dir, { moments: false })).moments).toBeNull();
  });

  it("writes no optimizer file without an optimizer", async () => {
    const dir = await fresh();
    await saveCheckpoint(dir, { ...checkpoint(), training: training(0, null), moments: null });
    expect(await readdir(dir)).not.toContain("optimizer.safetensors");
    expect((await loadCheckpoint(dir)).moments).toBeNull();
  });

  it("refuses to replace a checkpoint unless asked, and leaves no temporary directory", async () => {
    const dir = await fresh();
    await saveCheckpoint(dir, checkpoint(1));
    await expectCode(saveCheckpoint(dir, checkpoint(2)), "EXISTS", /already exists/);
    await saveCheckpoint(dir, checkpoint(2), { overwrite: true });
    expect((await loadCheckpoint(dir)).training.step).toBe(2);
    expect((await readdir(await root)).filter((f) => f.includes(".tmp-") || f.includes(".old-"))).toEqual([]);
  });

  it("refuses to save an inconsistent checkpoint", async () => {
    const dir = await fresh();
    const bad = checkpoint();
    bad.params.set("wpe", f32([16, 8]));
    await expectCode(
      saveCheckpoint(dir, bad),
      "SHAPE_MISMATCH",
      /tensor wpe has shape \[16, 8\] but the config .* needs \[32, 8\]/,
    );
    await expectCode(
      saveCheckpoint(dir, { ...checkpoint(), config: { ...config, vocabSize: 10 } }),
      "CONFIG_MISMATCH",
      /vocabSize 10/,
    );
    await expectCode(
      saveCheckpoint(dir, { ...checkpoint(), training: training(0, null) }),
      "CONFIG_MISMATCH",
      /moments given/,
    );
    await expectCode(saveCheckpoint(dir, { ...checkpoint(), moments: null }), "CONFIG_MISMATCH", /no moments/);
    const extra = checkpoint();
    extra.params.set("ln3_w", f32([8]));
    await expectCode(saveCheckpoint(dir, extra), "UNEXPECTED_TENSOR", /ln3_w/);
    const missing = checkpoint();
    missing.params.delete("lnf_b");
    await expectCode(saveCheckpoint(dir, missing), "MISSING_TENSOR", /tensor lnf_b \[8\] is missing/);
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
  });
});

describe("checkpoint: mismatches on load", () => {
  let saved: Promise<string> | undefined;
  /** A fresh copy of one saved checkpoint, to damage. */
  async function copy(): Promise<string> {
    saved ??= (async () => {
      const d = await fresh();
      await saveCheckpoint(d, checkpoint(3));
      return d;
    })();
    const dir = await fresh();
    await cp(await saved, dir, { recursive: true });
    return dir;
  }

  it("names the tokenizer difference", async () => {
    const dir = await copy();
    const other = new Tokenizer([...tok.pieces, " zebra"]);
    await expectCode(
      loadCheckpoint(dir, { tokenizer: other }),
      "TOKENIZER_MISMATCH",
      new RegExp(
        `trained with tokenizer ${tok.hash.slice(0, 12)} \\(${tok.size} tokens\\), not the given .* 1 piece ids differ, the first at piece ${tok.pieces.length}: null vs " zebra"`,
      ),
    );
    await writeFile(join(dir, "tokenizer.json"), JSON.stringify(other.vocabJson()));
    await expectCode(loadCheckpoint(dir), "TOKENIZER_MISMATCH", /tokenizer\.json has hash .* but config\.json records/);
    await editJson(join(dir, "tokenizer.json"), (j) => (j.pieces = [...(j.pieces as string[])].reverse()));
    await expectCode(loadCheckpoint(dir), "BAD_TOKENIZER", /does not match its pieces/);
  });

  it("checks tensor shapes against the config", async () => {
    const dir = await copy();
    await editJson(join(dir, "config.json"), (j) => ((j.model as ModelConfig).contextLength = 64));
    await expectCode(
      loadCheckpoint(dir),
      "SHAPE_MISMATCH",
      /model\.safetensors: tensor wpe has shape \[32, 8\] but the config \(.*T=64.*\) needs \[64, 8\]/,
    );
    const fewer = await copy();
    await editJson(join(fewer, "config.json"), (j) => ((j.model as ModelConfig).layers = 1));
    await expectCode(
      loadCheckpoint(fewer),
      "SHAPE_MISMATCH",
      /tensor ln1_w has shape \[2, 8\] but the config \(.*L=1.*\) needs \[1, 8\]/,
    );
    const more = await copy();
    await editJson(join(more, "config.json"), (j) => ((j.model as ModelConfig).layers = 3));
    await expectCode(loadCheckpoint(more), "SHAPE_MISMATCH", /tensor ln1_w has shape \[2, 8\] .* needs \[3, 8\]/);
    const vocab = await copy();
    await editJson(join(vocab, "config.json"), (j) => ((j.model as ModelConfig).vocabSize = tok.size + 1));
    await expectCode(loadCheckpoint(vocab), "CONFIG_MISMATCH", /vocabulary sizes disagree/);
  });

  it("reports invalid or missing files", async () => {
    await expectCode(loadCheckpoint(join(await root, "nope")), "MISSING_FILE", /config\.json: missing/);
    const dir = await copy();
    await editJson(join(dir, "config.json"), (j) => ((j.model as ModelConfig).heads = 3));
    await expectCode(loadCheckpoint(dir), "BAD_CONFIG", /model\.heads: width 8 is not divisible by heads 3/);
    await writeFile(join(dir, "config.json"), "{");
    await expectCode(loadCheckpoint(dir), "BAD_CONFIG", /not valid JSON/);
    const noStep = await copy();
    await editJson(join(noStep, "config.json"), (j) => delete (j.training as Record<string, unknown>).step);
    await expectCode(loadCheckpoint(noStep), "BAD_CONFIG", /training\.step/);
    const noOpt = await copy();
    await rm(join(noOpt, "optimizer.safetensors"));
    await expectCode(loadCheckpoint(noOpt), "MISSING_FILE", /optimizer\.safetensors: missing/);
    expect((await loadCheckpoint(noOpt, { moments: false })).training.step).toBe(3);
  });

  it("detects corrupt tensors and files of another checkpoint", async () => {
    const dir = await copy();
    const model = await readFile(join(dir, "model.safetensors"));
    await writeFile(join(dir, "model.safetensors"), model.subarray(0, model.length - 4));
    await expectCode(loadCheckpoint(dir), "CORRUPT_TENSORS", /model\.safetensors: tensor "lnf_b" spans bytes/);
    const other = await fresh();
    await saveCheckpoint(other, checkpoint(4));
    const mixed = await copy();
    await cp(join(other, "optimizer.safetensors"), join(mixed, "optimizer.safetensors"));
    await expectCode(
      loadCheckpoint(mixed),
      "CONFIG_MISMATCH",
      /optimizer\.safetensors: written for tokenizer .* at step 4, but config\.json records .* at step 3/,
    );
  });
});

const STAGE: NewStage = {
  name: "toy",
  trainer: "paravt nano train",
  arguments: ["--suite", "var/suites/toy", "--steps", "7"],
  data: { description: "a toy suite", suite: { name: "toy", seed: 1, count: 2, options: "" }, dataHash: null },
  steps: 7,
  batch: 2,
  seed: 9,
  hardware: "2-core VM CPU",
  minutes: 0.5,
  ks: [8, 4],
};
const QUALITY: CheckpointQuality = {
  date: "2026-11-27",
  method: "the episode runner at temperature 0",
  suites: [{ name: "heldout", seed: 101, count: 2, options: "--option-style text-first" }],
  measurements: [{ suite: "heldout", k: 8, tools: true, questions: 6, formatCompliance: 1, score: 0.5 }],
};

describe("checkpoint: lineage, trained Ks and quality", () => {
  it("are written after `training` when given and read back", async () => {
    const dir = await fresh();
    const provenance = { ...withStage(null, STAGE), quality: QUALITY };
    await saveCheckpoint(dir, { ...checkpoint(7), ...provenance });
    const back = await loadCheckpoint(dir);
    expect(back).toMatchObject(provenance);
    expect(back.trainedKs).toEqual([4, 8]);
    const json = JSON.parse(await readFile(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([
      "format",
      "formatVersion",
      "model",
      "tokenizer",
      "training",
      "trainedKs",
      "quality",
      "lineage",
    ]);
  });

  it("are absent from older checkpoints, which load as before", async () => {
    const dir = await fresh();
    await saveCheckpoint(dir, checkpoint(2));
    const json = JSON.parse(await readFile(join(dir, "config.json"), "utf8")) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(["format", "formatVersion", "model", "tokenizer", "training"]);
    const back = await loadCheckpoint(dir);
    expect([back.lineage, back.trainedKs, back.quality]).toEqual([undefined, undefined, undefined]);
    expect(await lineageParent(dir)).toEqual({ lineage: [], trainedKs: null, modelHash: await modelFileHash(dir) });
  });

  it("are checked like the rest of config.json", async () => {
    const dir = await fresh();
    await saveCheckpoint(dir, { ...checkpoint(1), ...withStage(null, STAGE), quality: QUALITY });
    await editJson(join(dir, "config.json"), (j) => (j.trainedKs = [8, 4]));
    await expectCode(loadCheckpoint(dir), "BAD_CONFIG", /trainedKs: ascending, each K once/);
    await editJson(join(dir, "config.json"), (j) => {
      j.trainedKs = [4, 8];
      (j.quality as CheckpointQuality).measurements[0]!.suite = "elsewhere";
    });
    await expectCode(
      loadCheckpoint(dir),
      "BAD_CONFIG",
      /quality\.measurements: every measurement names one of `suites`/,
    );
    await editJson(join(dir, "config.json"), (j) => {
      j.quality = QUALITY;
      (j.lineage as LineageStage[])[0]!.parentHash = "not a hash";
    });
    await expectCode(loadCheckpoint(dir), "BAD_CONFIG", /lineage\.0\.parentHash: a sha256 hex digest/);
    await expectCode(
      saveCheckpoint(await fresh(), { ...checkpoint(1), trainedKs: [] }),
      "BAD_CONFIG",
      /trainedKs: Too small/,
    );
  });

  it("withStage appends a stage to its parent's lineage, naming the parent's model.safetensors", async () => {
    const parentDir = await fresh();
    await saveCheckpoint(parentDir, { ...checkpoint(7), ...withStage(null, STAGE), quality: QUALITY });
    const parent = await lineageParent(parentDir);
    const sha = createHash("sha256")
      .update(await readFile(join(parentDir, "model.safetensors")))
      .digest("hex");
    expect(parent.modelHash).toBe(sha);
    const child = withStage(parent, { ...STAGE, name: "toy-2", ks: [16, 4] });
    expect(child.lineage!.map((s) => [s.name, s.parentHash])).toEqual([
      ["toy", null],
      ["toy-2", sha],
    ]);
    // The union of the Ks trained on; quality is not inherited (new weights, not measured yet).
    expect(child).toEqual({ lineage: child.lineage, trainedKs: [4, 8, 16] });
    const childDir = await fresh();
    await saveCheckpoint(childDir, { ...checkpoint(3), ...child });
    expect((await loadCheckpoint(childDir)).lineage).toEqual(child.lineage);
    // A parent that does not say which Ks it was trained on: the child cannot say either.
    expect(withStage({ lineage: [], trainedKs: null, modelHash: sha }, STAGE)).toEqual({
      lineage: [{ ...child.lineage![0], parentHash: sha }],
    });
  });
});

describe("the committed checkpoints' provenance", () => {
  const committed = (name: string) => fileURLToPath(new URL(`../checkpoints/${name}`, import.meta.url));

  it("ends with the stage that made the weights, and each known parent hash is a committed checkpoint's", async () => {
    const perception = await loadCheckpoint(committed("perception"), { moments: false });
    const defaults = await loadCheckpoint(committed("default"), { moments: false });
    for (const c of [perception, defaults, await loadCheckpoint(committed("tiny"), { moments: false })]) {
      const last = c.lineage!.at(-1)!;
      expect([last.steps, last.seed, last.data.dataHash]).toEqual([
        c.training.step,
        c.training.seed,
        c.training.dataCursor.datasetHash,
      ]);
      expect(c.trainedKs!.length).toBeGreaterThan(0);
      expect(c.quality!.measurements.length).toBeGreaterThan(0);
    }
    // The default's first stages are the perception checkpoint's; the next starts from its file.
    expect(defaults.lineage!.slice(0, 2)).toEqual(perception.lineage);
    expect(defaults.lineage![2]!.parentHash).toBe(await modelFileHash(committed("perception")));
    // 18,800 steps on the core, then 29,840 of the PyTorch mirror (README "Default checkpoint").
    const steps = (trainer: string) =>
      defaults.lineage!.filter((s) => s.trainer === trainer).reduce((a, s) => a + s.steps, 0);
    expect([steps("paravt nano train"), steps("research/torch/train_sft.py")]).toEqual([18800, 29840]);
  });
});

// A deterministic toy trainer: AdamW on a least-squares objective over two parameter tensors,
// data order shuffled per epoch, one RNG draw of noise per step. Resuming must reproduce it.
describe("checkpoint: resuming continues the same loss curve", () => {
  const TARGETS = Array.from({ length: 5 }, (_, j) => j / 5 - 0.4);
  const TRAINED = ["frame_b", "lnf_w"];

  interface Run {
    params: TensorMap;
    moments: Moments;
    rng: Mulberry32;
    step: number;
    epoch: number;
    position: number;
  }

  const order = (epoch: number) => {
    const r = new Mulberry32(1000 + epoch);
    const o = TARGETS.map((_, i) => i);
    for (let i = o.length - 1; i > 0; i--) {
      const j = Math.floor(r.next() * (i + 1));
      [o[i], o[j]] = [o[j]!, o[i]!];
    }
    return o;
  };

  function step(s: Run): number {
    const y = TARGETS[order(s.epoch)[s.position]!]! + 0.01 * s.rng.normal();
    if (++s.position === TARGETS.length) [s.epoch, s.position] = [s.epoch + 1, 0];
    s.step++;
    let loss = 0;
    let count = 0;
    for (const name of TRAINED) {
      const p = s.params.get(name)!.data;
      const m = s.moments.m.get(name)!.data;
      const v = s.moments.v.get(name)!.data;
      for (let i = 0; i < p.length; i++) {
        const d = p[i]! - y;
        loss += d * d;
        count++;
        const g = 2 * d;
        m[i] = HYPER.beta1 * m[i]! + (1 - HYPER.beta1) * g;
        v[i] = HYPER.beta2 * v[i]! + (1 - HYPER.beta2) * g * g;
        const mh = m[i]! / (1 - HYPER.beta1 ** s.step);
        const vh = v[i]! / (1 - HYPER.beta2 ** s.step);
        p[i] = p[i]! - HYPER.lr * (mh / (Math.sqrt(vh) + HYPER.eps) + HYPER.weightDecay * p[i]!);
      }
    }
    return loss / count;
  }

  const start = (): Run => ({
    params: initParameters(config),
    moments: { m: zeros(config), v: zeros(config) },
    rng: new Mulberry32(77),
    step: 0,
    epoch: 0,
    position: 0,
  });

  const toCheckpoint = (s: Run): Checkpoint => ({
    config,
    tokenizer: tok,
    params: s.params,
    moments: s.moments,
    training: {
      step: s.step,
      seed: 77,
      rng: { algorithm: Mulberry32.algorithm, state: s.rng.state },
      dataCursor: { epoch: s.epoch, position: s.position, datasetHash: null },
      optimizer: HYPER,
    },
  });

  const fromCheckpoint = (c: Checkpoint): Run => ({
    params: c.params,
    moments: c.moments!,
    rng: Mulberry32.fromState(c.training.rng.state),
    step: c.training.step,
    epoch: c.training.dataCursor.epoch,
    position: c.training.dataCursor.position,
  });

  it("matches an uninterrupted run bit for bit, and would not without the moments or the RNG state", async () => {
    const straight = start();
    const curve = Array.from({ length: 14 }, () => step(straight));
    expect(curve[13]).toBeLessThan(curve[0]!);

    const first = start();
    for (let i = 0; i < 7; i++) step(first);
    const dir = await fresh();
    await saveCheckpoint(dir, toCheckpoint(first));

    const resumed = fromCheckpoint(await loadCheckpoint(dir, { tokenizer: tok }));
    expect(Array.from({ length: 7 }, () => step(resumed))).toEqual(curve.slice(7));
    for (const name of TRAINED) expect(resumed.params.get(name)!.data).toEqual(straight.params.get(name)!.data);

    const noMoments = fromCheckpoint(await loadCheckpoint(dir));
    noMoments.moments = { m: zeros(config), v: zeros(config) };
    expect(Array.from({ length: 7 }, () => step(noMoments))).not.toEqual(curve.slice(7));
    const freshRng = fromCheckpoint(await loadCheckpoint(dir));
    freshRng.rng = new Mulberry32(77);
    expect(Array.from({ length: 7 }, () => step(freshRng))).not.toEqual(curve.slice(7));
  });
});
