import { readFileSync } from "node:fs";
import { loadCheckpoint, trainSft, defaultTokenizer, paletteTokenIds } from "../src/index";
const [init, suiteDir, out, steps, lr] = process.argv.slice(2);
const tokenizer = defaultTokenizer();
const ckpt = await loadCheckpoint(init!, { tokenizer });
const qs = new Map(readFileSync(`${suiteDir}/questions.jsonl`, "utf8").trim().split("\n").map((l) => { const q = JSON.parse(l); return [q.id, q]; }));
const oracle = readFileSync(`${suiteDir}/oracle.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((r: any) => r.k === 8 && qs.get(r.questionId).template === "when");
const { videoFrameSource } = await import("../src/index");
const t0 = Date.now();
await trainSft({ suite: { oracle }, frames: videoFrameSource(suiteDir!, ckpt.config.thumbnail), tokenizer, modelConfig: ckpt.config, initialParameters: ckpt.params,
  sft: { ks: [8], thinkPrefix: true, subAgents: false, aliasVideoPathsSeed: 3 }, emphasis: Number(process.argv[7] ?? 0) > 0 ? { tokenIds: paletteTokenIds(tokenizer), weight: Number(process.argv[7]) } : undefined, steps: Number(steps), batchSize: 2,
  lr: { kind: "cosine", lr: Number(lr), warmupSteps: 10 }, seed: 3, checkpointEvery: 0, outDir: out,
  onStep: (m) => { if (m.step % 25 === 0) console.error(`step ${m.step} loss ${m.loss.toFixed(3)} acc ${(m.tokenAccuracy*100).toFixed(1)} ${((Date.now()-t0)/1000).toFixed(0)}s`); } });
