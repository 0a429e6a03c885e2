import { describe, expect, it } from "vitest";
import {
  DEFAULT_THUMBNAIL,
  elementCount,
  modelConfig,
  ModelConfigError,
  parameterCount,
  parameterLayout,
  parseModelConfig,
  thumbnailFeatures,
  channelMedians,
} from "./config";
import { initParameters, Mulberry32 } from "./init";
import { defaultTokenizer } from "./vocabulary";

const tok = defaultTokenizer();

describe("model config", () => {
  it("takes V from the tokenizer and P from the thumbnail", () => {
    const c = modelConfig(tok);
    expect(c.vocabSize).toBe(tok.size);
    expect(c.thumbnail).toEqual(DEFAULT_THUMBNAIL);
    expect(c.frameFeatures).toBe(48 * 27 * 3);
    expect(modelConfig(tok, { thumbnail: { width: 32, height: 32 } }).frameFeatures).toBe(3072);
    expect(parseModelConfig(JSON.parse(JSON.stringify(c)))).toEqual(c);
  });

  it("names every invalid field", () => {
    const c = modelConfig(tok);
    expect(() => modelConfig(tok, { heads: 7 })).toThrow(/heads: width 256 is not divisible by heads 7/);
    expect(() => parseModelConfig({ ...c, frameFeatures: 100 })).toThrow(
      /frameFeatures: must be 3888 for a 48x27 thumbnail, "rgb"/,
    );
    // 16x9 = 144 pixels is below SPEC §1.1's 784.
    expect(() => modelConfig(tok, { thumbnail: { width: 16, height: 9 } })).toThrow(/thumbnail: 144 pixels/);
    expect(() => parseModelConfig({ ...c, layers: 0 })).toThrow(ModelConfigError);
    expect(() => parseModelConfig({ ...c, extra: 1 })).toThrow(/extra/);
    expect(() => parseModelConfig({ ...c, architecture: "gpt2" })).toThrow(/architecture/);
  });
});

describe("parameter layout", () => {
  const c = modelConfig(tok, { contextLength: 64, width: 16, layers: 2, heads: 4 });

  it("lists the compute core's tensors, in its order, stacked over layers, [out, in] shapes", () => {
    const V = c.vocabSize;
    const P = c.frameFeatures;
    expect(parameterLayout(c).map((p) => [p.name, p.shape, p.weightDecay])).toEqual([
      ["wte", [V, 16], true],
      ["wpe", [64, 16], true],
      ["frame_w", [16, P], true],
      ["frame_b", [16], false],
      ["ln1_w", [2, 16], false],
      ["ln1_b", [2, 16], false],
      ["qkv_w", [2, 48, 16], true],
      ["qkv_b", [2, 48], false],
      ["attn_proj_w", [2, 16, 16], true],
      ["attn_proj_b", [2, 16], false],
      ["ln2_w", [2, 16], false],
      ["ln2_b", [2, 16], false],
      ["fc_w", [2, 64, 16], true],
      ["fc_b", [2, 64], false],
      ["fc_proj_w", [2, 16, 64], true],
      ["fc_proj_b", [2, 16], false],
      ["lnf_w", [16], false],
      ["lnf_b", [16], false],
    ]);
  });

  it("counts parameters by the closed form", () => {
    for (const cfg of [c, modelConfig(tok)]) {
      const { vocabSize: V, contextLength: T, width: C, layers: L, frameFeatures: P } = cfg;
      expect(parameterCount(cfg)).toBe(V * C + T * C + C * P + C + L * (12 * C * C + 13 * C) + 2 * C);
    }
  });
});

describe("initialisation", () => {
  const c = modelConfig(tok, { contextLength: 64, width: 32, layers: 2, heads: 4, seed: 3 });

  it("is deterministic in the seed", () => {
    const a = initParameters(c);
    const b = initParameters(c);
    const d = initParameters({ ...c, seed: 4 });
    expect([...a.keys()]).toEqual(parameterLayout(c).map((p) => p.name));
    for (const [name, t] of a) {
      expect(t.data).toEqual(b.get(name)!.data);
      expect(t.data.length).toBe(elementCount(t.shape));
    }
    expect(a.get("wte")!.data).not.toEqual(d.get("wte")!.data);
  });

  it("follows GPT-2: N(0, 0.02), scaled residual projections, zero biases, unit gains", () => {
    const p = initParameters(c);
    const std = (x: ArrayLike<number>) => Math.sqrt(Array.from(x).reduce((s, v) => s + v * v, 0) / x.length);
    expect(std(p.get("wte")!.data)).toBeCloseTo(0.02, 3);
    expect(std(p.get("fc_w")!.data)).toBeCloseTo(0.02, 3);
    expect(std(p.get("fc_proj_w")!.data)).toBeCloseTo(0.02 / Math.sqrt(4), 3);
    expect(std(p.get("attn_proj_w")!.data)).toBeCloseTo(0.01, 3);
    for (const name of ["frame_b", "qkv_b", "attn_proj_b", "fc_b", "fc_proj_b", "ln1_b", "ln2_b", "lnf_b"]) {
      expect(p.get(name)!.data.every((v) => v === 0)).toBe(true);
    }
    for (const name of ["ln1_w", "ln2_w", "lnf_w"]) expect(p.get(name)!.data.every((v) => v === 1)).toBe(true);
  });

  it("has an RNG whose state restores the stream", () => {
    const r = new Mulberry32(42);
    for (let i = 0; i < 10; i++) r.next();
    const copy = Mulberry32.fromState(r.state);
    expect(Array.from({ length: 5 }, () => copy.next())).toEqual(Array.from({ length: 5 }, () => r.next()));
    expect(() => new Mulberry32(-1)).toThrow(RangeError);
    expect(() => Mulberry32.fromState([1, 2])).toThrow(RangeError);
  });
});

describe("thumbnail features", () => {
  it("scales RGB24 bytes to [-1, 1] in HWC order", () => {
    const c = modelConfig(tok);
    const rgb = new Uint8Array(c.frameFeatures);
    rgb[0] = 255;
    rgb[1] = 0;
    rgb[5] = 51;
    const f = thumbnailFeatures(rgb, c);
    expect(f[0]).toBe(1);
    expect(f[1]).toBe(-1);
    expect(f[5]).toBeCloseTo(-0.6, 6);
    expect(() => thumbnailFeatures(new Uint8Array(10), c)).toThrow(/expected 48x27x3 = 3888/);
  });

  it('"rgb+foreground" appends each byte minus its channel\'s median, / 127.5', () => {
    const c = modelConfig(tok, { frameEncoding: "rgb+foreground" });
    expect(c.frameFeatures).toBe(2 * 3888);
    const rgb = new Uint8Array(3888);
    for (let i = 0; i < rgb.length; i += 3) rgb.set([200, 100, 30], i); // background
    rgb.set([0, 100, 255], 30); // one "shape" pixel
    const f = thumbnailFeatures(rgb, c);
    expect(f.length).toBe(7776);
    expect(f[30]).toBe(-1); // the rgb half is unchanged
    expect(f[3888]).toBe(0); // background pixels are 0 in the foreground half
    expect(f[3888 + 30]).toBeCloseTo(-200 / 127.5, 6);
    expect(f[3888 + 31]).toBe(0);
    expect(f[3888 + 32]).toBeCloseTo(225 / 127.5, 6);
    expect(() => thumbnailFeatures(new Uint8Array(7776), c)).toThrow(/has 7776 bytes, expected 48x27x3 = 3888/);
  });

  it("finds each channel's (lower) median", () => {
    expect(channelMedians(Uint8Array.from([1, 9, 5, 3, 8, 5, 2, 7, 5, 4, 6, 200]))).toEqual([2, 7, 5]);
    expect(channelMedians(Uint8Array.from([0, 255, 7]))).toEqual([0, 255, 7]);
  });
});
