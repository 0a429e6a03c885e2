import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseTrainingToolCalls } from "@paravt/protocol";
import { readSuite, writeSuite, type OracleRow } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelConfig } from "./config";
import { generate, GenerateError, sampleToken } from "./generate";
import { Mulberry32 } from "./init";
import { mainAgentTurns, THINK_PREFIX } from "./sequence";
import { trainSft, type TrainSftResult } from "./train-sft";
import { defaultTokenizer } from "./vocabulary";

const tok = defaultTokenizer();
const config = modelConfig(tok, { contextLength: 640, width: 32, layers: 1, heads: 2, seed: 1 });
let root = "";
let trained: TrainSftResult;
let row: OracleRow;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "nano-gen-"));
  const { dir } = await writeSuite({
    seed: 3,
    count: 1,
    out: join(root, "suite"),
    config: { minMinutes: 1, maxMinutes: 1 },
  });
  row = (await readSuite(dir)).oracle.find((r) => r.id === "v0001-q1-k4")!;
  trained = await trainSft({
    suiteDir: dir,
    modelConfig: config,
    steps: 40,
    batchSize: 1,
    sft: { ks: [4], subAgents: false },
    filter: (e) => e.id === row.id,
    lr: { kind: "constant", lr: 1e-2 },
  });
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe("sampleToken", () => {
  const logits = Float32Array.from([9, 9, 9, 9, 1, 3, 2, 3]);
  const rng = () => new Mulberry32(1);

  it("is greedy at temperature 0, never emits control tokens, and returns log p", () => {
    const g = sampleToken(logits, { temperature: 0, topP: 1, rng: rng(), banned: 4 });
    expect(g.id).toBe(5); // first of the tied maxima, control ids 0-3 excluded
    const z = [1, 3, 2, 3].reduce((s, x) => s + Math.exp(x - 3), 0);
    expect(g.logprob).toBeCloseTo(-Math.log(z), 12);
  });

  it("samples within the top-p nucleus, reproducibly from the seed", () => {
    const draw = (topP: number, seed: number) => {
      const r = new Mulberry32(seed);
      return Array.from({ length: 200 }, () => sampleToken(logits, { temperature: 1, topP, rng: r, banned: 4 }).id);
    };
    expect(new Set(draw(1e-9, 1))).toEqual(new Set([5]));
    expect(new Set(draw(0.6, 1))).toEqual(new Set([5, 7]));
    expect(new Set(draw(1, 1))).toEqual(new Set([4, 5, 6, 7]));
    expect(draw(1, 2)).toEqual(draw(1, 2));
    expect(draw(1, 2)).not.toEqual(draw(1, 3));
  });
});

describe("generate", () => {
  it("reproduces the overfitted example's first assistant turn greedily, and the parser reads it", async () => {
    const turns = mainAgentTurns(row);
    const target = row.turns[1]!.content;
    expect(target.startsWith(THINK_PREFIX)).toBe(true);
    const g = await generate({
      model: trained.model,
      config,
      frames: trained.frames,
      turns: turns.slice(0, 1),
      forcedPrefix: THINK_PREFIX,
      maxTokens: 400,
    });
    expect(g.stop).toBe("im_end");
    expect(THINK_PREFIX + g.text).toBe(target);
    expect(g.ids.at(-1)).toBe(tok.idOf("<|im_end|>"));
    expect(g.logprobs).toHaveLength(g.ids.length);
    for (const lp of g.logprobs) expect(lp).toBeLessThanOrEqual(0);
    expect(Math.exp(g.logprobs.reduce((a, b) => a + b, 0) / g.logprobs.length)).toBeGreaterThan(0.8);
    const calls = parseTrainingToolCalls(THINK_PREFIX + g.text);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls).toEqual(parseTrainingToolCalls(target));
  });

  it("samples with temperature and top-p reproducibly, and stops at maxTokens", async () => {
    const base = {
      model: trained.model,
      config,
      frames: trained.frames,
      turns: mainAgentTurns(row).slice(0, 1),
      forcedPrefix: THINK_PREFIX,
    };
    const a = await generate({ ...base, temperature: 1.5, seed: 4, maxTokens: 30 });
    const b = await generate({ ...base, temperature: 1.5, seed: 4, maxTokens: 30 });
    expect(b).toEqual(a);
    const hot = await Promise.all([5, 6, 7].map((seed) => generate({ ...base, temperature: 3, seed, maxTokens: 30 })));
    expect(new Set(hot.map((h) => h.text)).size).toBeGreaterThan(1);
    const short = await generate({ ...base, maxTokens: 5 });
    expect(short.stop).toBe("max_tokens");
    expect(short.ids).toHaveLength(5);
    const nucleus = await generate({ ...base, temperature: 1, topP: 1e-9, seed: 9, maxTokens: 20 });
    expect(nucleus.ids).toEqual((await generate({ ...base, maxTokens: 20 })).ids);
    await expect(generate({ ...base, topP: 0 })).rejects.toThrow(GenerateError);
  });
});
