// The exported graph against the compute core (the specification): logits of the committed
// default checkpoint on real suite prompts with frames, a left-padded batch, and a second shape of
// model (random init) so that per-layer slicing and head reshapes are not tuned to one config, and
// an "rgb+foreground" model (twice the frame features).
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { KernelModel } from "@paravt/kernels";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCheckpoint, type Checkpoint } from "../checkpoint";
import { modelConfig, type ModelConfig } from "../config";
import { createCoreModel, toCoreTokens } from "../core";
import { frameFeatures, type FrameSource } from "../frames";
import { withFrameEncoding } from "../frame-encoding";
import { initParameters, Mulberry32 } from "../init";
import { buildPrompt, type ModelSequence } from "../sequence";
import type { Tensor, TensorMap } from "../safetensors";
import type { Tokenizer } from "../tokenizer";
import { OnnxError } from "./errors";
import { exportOnnx, ONNX_FILE, parametersSha256, readOnnxMetadata, writeOnnxFile } from "./export-onnx";
import { OrtNano } from "./ort-nano";
import { renderSuite, suitePrompts, type SuitePrompt } from "./suite-prompts";

const DEFAULT_DIR = fileURLToPath(new URL("../../checkpoints/default", import.meta.url));
let root = "";
let ckpt: Checkpoint;
let prompts: SuitePrompt[] = [];
let frames: FrameSource;
const runners: OrtNano[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "nano-onnx-"));
  ckpt = await loadCheckpoint(DEFAULT_DIR, { moments: false });
  const suite = await renderSuite(join(root, "suite"), ckpt.config.thumbnail);
  prompts = suitePrompts(suite.oracle);
  frames = suite.frames;
});
afterAll(async () => {
  await Promise.all(runners.map((r) => r.close()));
  await rm(root, { recursive: true, force: true });
});

async function load(...args: Parameters<typeof OrtNano.load>) {
  const r = await OrtNano.load(...args);
  runners.push(r);
  return r;
}

/** Prompt ids and the features of its frame slots, in slot order. */
async function encode(tok: Tokenizer, config: ModelConfig, p: SuitePrompt) {
  const seq = buildPrompt(tok, p.turns, { forcedPrefix: p.forcedPrefix });
  const feats = await frameFeatures(frames, seq.frames, config);
  const slotFeats = Array.from(seq.frameIndex)
    .filter((f) => f >= 0)
    .map((f) => feats[f]!);
  return { seq, slotFeats };
}

async function coreLogits(
  model: KernelModel,
  config: ModelConfig,
  tok: Tokenizer,
  seq: ModelSequence,
  feats: Float32Array[],
) {
  const n = seq.ids.length;
  const rows = new Float32Array(feats.length * config.frameFeatures); // the slots' rows, in order
  feats.forEach((f, k) => rows.set(f, k * config.frameFeatures));
  const r = await model.forward(
    { batchSize: 1, seqLen: n, tokens: toCoreTokens(seq.ids, tok), frames: rows },
    { logits: true },
  );
  return r.logits!;
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

// Both engines compute in float32, so how far apart they are scales with the logits (up to ~26
// here). Issue 6 asks for 1e-4. The default since the fourteenth session (`o1`) agrees within
// 1.3e-5-6.6e-5 on these six prompts (`m2r`, thirteenth, 1.3e-5-5.6e-5); `sc-cm` (twelfth session) differed by 2.01e-4 on the turn
// after tool responses (-k4-t3) and `mix-b` by 1.07e-4, where a float64 forward of the same
// weights (gpu/train_sft.py's model in double) put the core 4.3e-5 and onnxruntime 8.1e-5 from
// exact: float32 rounding, not the graph (nano README, "ONNX export"). So both bounds hold: the
// issue's absolute 1e-4 and 1e-5 of the prompt's largest |logit| (which a retrained default
// that only rounds differently may need instead; mix-b's worst case was 4e-6 of it).
const TRAINED_LOGITS_TOLERANCE = 1e-4;
const TRAINED_LOGITS_RELATIVE_TOLERANCE = 1e-5;

describe("exportOnnx vs the compute core", () => {
  it("gives the default checkpoint's logits within 1e-4 (and 1e-5 of the largest logit) on suite prompts with frames", async () => {
    const ort = await load({ config: ckpt.config, tokenizer: ckpt.tokenizer, params: ckpt.params });
    const model = createCoreModel(ckpt.config, ckpt.params);
    // first turns at K = 4 / 16 / 64, a turn after tool responses, two sub-agents
    const pick = ["-k4-t1", "-k16-t1", "-k64-t1", "-k4-t3", "c1"];
    const chosen = pick.map((s) => prompts.find((p) => p.id.includes("q1") && p.id.endsWith(s))!);
    chosen.push(prompts.find((p) => p.id.includes("q2") && /r\dc\d$/.test(p.id))!);
    for (const p of chosen) {
      const { seq, slotFeats } = await encode(ckpt.tokenizer, ckpt.config, p);
      expect(slotFeats.length, p.id).toBeGreaterThan(0);
      const got = await ort.logits({ tokens: [seq.ids], frames: slotFeats });
      expect(got.dims).toEqual([1, seq.ids.length, ckpt.config.vocabSize]);
      const want = await coreLogits(model, ckpt.config, ckpt.tokenizer, seq, slotFeats);
      const scale = want.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
      expect(scale, p.id).toBeGreaterThan(1);
      expect(maxAbsDiff(got.logits, want), p.id).toBeLessThan(TRAINED_LOGITS_TOLERANCE);
      expect(maxAbsDiff(got.logits, want) / scale, p.id).toBeLessThan(TRAINED_LOGITS_RELATIVE_TOLERANCE);
    }
  });

  it("gives each row of a left-padded batch the logits it has alone", async () => {
    const ort = await load({ config: ckpt.config, tokenizer: ckpt.tokenizer, params: ckpt.params });
    const V = ckpt.config.vocabSize;
    const rows = await Promise.all(prompts.slice(0, 3).map((p) => encode(ckpt.tokenizer, ckpt.config, p)));
    const S = Math.max(...rows.map((r) => r.seq.ids.length));
    expect(new Set(rows.map((r) => r.seq.ids.length)).size).toBe(3);
    const pad = (r: (typeof rows)[number], fill: (i: number) => number) =>
      Array.from({ length: S }, (_, i) => (i < S - r.seq.ids.length ? fill(-1) : fill(i - (S - r.seq.ids.length))));
    const batch = await ort.logits({
      tokens: rows.map((r) => pad(r, (i) => (i < 0 ? ckpt.tokenizer.pad : r.seq.ids[i]!))),
      frames: rows.flatMap((r) => r.slotFeats),
      attentionMask: rows.map((r) => pad(r, (i) => (i < 0 ? 0 : 1))),
      positionIds: rows.map((r) => pad(r, (i) => Math.max(i, 0))),
    });
    for (const [b, r] of rows.entries()) {
      const n = r.seq.ids.length;
      const alone = await ort.logits({ tokens: [r.seq.ids], frames: r.slotFeats });
      const rowLogits = batch.logits.subarray((b * S + S - n) * V, (b + 1) * S * V);
      // Same tolerance as the core parity above (issue 6: within 1e-4). A batch of 3 runs other
      // GEMM shapes than a batch of 1, so float32 sums are added in another order: the `ans2`
      // default differed by 1.12e-5 once (CI under load), against 1e-5 here before.
      expect(maxAbsDiff(rowLogits, alone.logits)).toBeLessThan(1e-4);
    }
  });

  it("matches the core on another shape of model (C 48, L 3, H 4, T 512, random init)", async () => {
    const config = modelConfig(ckpt.tokenizer, { width: 48, layers: 3, heads: 4, contextLength: 512, seed: 7 });
    const params = initParameters(config);
    const ort = await load({ config, tokenizer: ckpt.tokenizer, params });
    const model = createCoreModel(config, params);
    const p = prompts.find((x) => x.id.endsWith("-k16-t1"))!;
    const { seq, slotFeats } = await encode(ckpt.tokenizer, config, p);
    const got = await ort.logits({ tokens: [seq.ids], frames: slotFeats });
    expect(maxAbsDiff(got.logits, await coreLogits(model, config, ckpt.tokenizer, seq, slotFeats))).toBeLessThan(1e-4);
    // a text-only prompt (no frame slot: frames [0, P]) too
    const text = Array.from(ckpt.tokenizer.encode("Video path: videos/v0001.mp4"));
    const plain = await ort.logits({ tokens: [text] });
    const core = await model.forward(
      { batchSize: 1, seqLen: text.length, tokens: Int32Array.from(text) },
      { logits: true },
    );
    expect(maxAbsDiff(plain.logits, core.logits!)).toBeLessThan(1e-4);
  });

  it('matches the core on an "rgb+foreground" model (P = 7776)', async () => {
    // On a copy: an "rgb+foreground" checkpoint comes back as is, and its frame_w is overwritten below.
    const copy: TensorMap = new Map(
      [...ckpt.params].map(([name, t]) => [name, (t.dtype === "F32" ? { ...t, data: t.data.slice() } : t) as Tensor]),
    );
    const widened = withFrameEncoding(ckpt.config, copy, "rgb+foreground");
    const { config } = widened;
    // Random foreground columns, so the second half of each frame's features counts.
    const frameW = widened.params.get("frame_w")!.data as Float32Array;
    const rng = new Mulberry32(11);
    const P = config.frameFeatures;
    for (let i = 0; i < frameW.length; i++) if (i % P >= P / 2) frameW[i] = 0.02 * rng.normal();
    const ort = await load({ config, tokenizer: ckpt.tokenizer, params: widened.params });
    const model = createCoreModel(config, widened.params);
    const p = prompts.find((x) => x.id.endsWith("-k16-t1"))!;
    const { seq, slotFeats } = await encode(ckpt.tokenizer, config, p);
    expect(slotFeats[0]!.length).toBe(7776);
    const got = await ort.logits({ tokens: [seq.ids], frames: slotFeats });
    expect(maxAbsDiff(got.logits, await coreLogits(model, config, ckpt.tokenizer, seq, slotFeats))).toBeLessThan(1e-4);
  });
});

describe("the exported file", () => {
  it("records its config, tokenizer and parameters; writeOnnxFile puts it next to the checkpoint", async () => {
    const dir = join(root, "ckpt");
    await cp(DEFAULT_DIR, dir, { recursive: true });
    const path = await writeOnnxFile(dir);
    expect(path).toBe(join(dir, ONNX_FILE));
    const bytes = await readFile(path);
    expect(Buffer.compare(bytes, Buffer.from(exportOnnx(ckpt)))).toBe(0); // deterministic
    const meta = readOnnxMetadata(bytes);
    expect(meta.config).toEqual(ckpt.config);
    expect(meta.tokenizerHash).toBe(ckpt.tokenizer.hash);
    expect(meta.parametersSha256).toBe(parametersSha256(ckpt.config, ckpt.params));
    expect(meta.frameToken).toBe(ckpt.tokenizer.frame);
    // and the runner uses it (it checks the file against the checkpoint first)
    const ort = await load(dir);
    const ids = [ckpt.tokenizer.bos, ...ckpt.tokenizer.encode("<think>")];
    const fromFile = await ort.logits({ tokens: [ids] });
    const model = createCoreModel(ckpt.config, ckpt.params);
    const core = await model.forward(
      { batchSize: 1, seqLen: ids.length, tokens: Int32Array.from(ids) },
      { logits: true },
    );
    expect(maxAbsDiff(fromFile.logits, core.logits!)).toBeLessThan(1e-4);
  });

  it("refuses an invalid config or parameters that do not fit it, naming the tensor", () => {
    const params = new Map(ckpt.params);
    params.set("qkv_b", { dtype: "F32", shape: [2, 10], data: new Float32Array(20) });
    expect(() => exportOnnx({ config: ckpt.config, params })).toThrow(OnnxError);
    expect(() => exportOnnx({ config: ckpt.config, params })).toThrow(/qkv_b has shape \[2, 10\]/);
    expect(() => exportOnnx({ config: { ...ckpt.config, heads: 3 }, params: ckpt.params })).toThrow(
      `heads: width ${ckpt.config.width} is not divisible by heads 3`,
    );
  });
});
