import { createModel, FRAME_TOKEN } from "@paravt/kernels";
import { describe, expect, it } from "vitest";
import { modelConfig, parameterCount, parameterLayout } from "./config";
import {
  coreConfig,
  coreLayoutMismatch,
  createCoreModel,
  flattenParameters,
  toCoreTokens,
  unflattenParameters,
} from "./core";
import { initParameters } from "./init";
import { defaultTokenizer } from "./vocabulary";

const tok = defaultTokenizer();

describe("one parameter layout: nano = compute core", () => {
  it("parameterLayout equals createModel(...).layout (names, order, shapes, decay, offsets)", () => {
    for (const c of [
      modelConfig(tok, { contextLength: 64, width: 16, layers: 2, heads: 4 }),
      modelConfig(tok, { contextLength: 48, width: 32, layers: 3, heads: 2, thumbnail: { width: 32, height: 32 } }),
    ]) {
      const model = createModel(coreConfig(c), { seed: 1 });
      expect(parameterLayout(c).map((p) => [p.name, p.shape, p.weightDecay])).toEqual(
        model.layout.map((p) => [p.name, p.shape, p.weightDecay]),
      );
      expect(model.numParams).toBe(parameterCount(c));
      expect(coreLayoutMismatch(c, model.layout)).toEqual([]);
    }
  });

  it("reports a drift readably", () => {
    const c = modelConfig(tok, { contextLength: 16, width: 8, layers: 1, heads: 2 });
    const layout = createModel(coreConfig(c)).layout.map((p) => ({ ...p }));
    layout[5] = { ...layout[5]!, name: "ln1_bias" };
    expect(coreLayoutMismatch(c, layout)).toEqual(["#5: nano ln1_b [1, 8] vs core ln1_bias [1, 8]"]);
    expect(coreLayoutMismatch({ ...c, layers: 2 }, createModel(coreConfig(c)).layout)[0]).toMatch(
      /#4: nano ln1_w \[2, 8\] vs core ln1_w \[1, 8\]/,
    );
  });

  it("moves initParameters into the core's buffer and back exactly", () => {
    const c = modelConfig(tok, { contextLength: 16, width: 8, layers: 2, heads: 2, seed: 7 });
    const params = initParameters(c);
    const model = createCoreModel(c, params);
    expect(model.getTensor("ln2_b").every((v) => v === 0)).toBe(true);
    expect(model.getTensor("lnf_w").every((v) => v === 1)).toBe(true);
    expect(model.getTensor("qkv_w")).toEqual(params.get("qkv_w")!.data);
    const back = unflattenParameters(c, model.getParameters());
    for (const [name, t] of params) expect(back.get(name)).toEqual(t);
    expect(flattenParameters(c, back)).toEqual(model.getParameters());
    expect(() => unflattenParameters(c, new Float32Array(3))).toThrow(/3 floats, expected/);
  });

  it("maps the tokenizer's frame id to FRAME_TOKEN and nothing else", () => {
    expect(FRAME_TOKEN).toBe(-1);
    const ids = [tok.bos, 100, tok.frame, 300, tok.frame, tok.pad];
    expect(Array.from(toCoreTokens(ids, tok))).toEqual([tok.bos, 100, -1, 300, -1, tok.pad]);
  });
});
