import { readFileSync } from "node:fs";
import { createCoreModel, generate, loadCheckpoint, mainAgentTurns, videoFrameSource } from "../src/index";

const [ckptDir, suiteDir, prefixText] = process.argv.slice(2);
const ckpt = await loadCheckpoint(ckptDir!);
const model = createCoreModel(ckpt.config, ckpt.params);
const frames = videoFrameSource(suiteDir!, ckpt.config.thumbnail);
const rows = readFileSync(`${suiteDir}/oracle.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const qs = new Map(readFileSync(`${suiteDir}/questions.jsonl`, "utf8").trim().split("\n").map((l) => { const q = JSON.parse(l); return [q.id, q]; }));
let ok = 0, n = 0;
for (const row of rows.filter((r: any) => r.k === 8 && qs.get(r.questionId).template === "when").slice(0, 20)) {
  const turns = mainAgentTurns(row, { thinkPrefix: true }).slice(0, 1);
  const target = qs.get(row.questionId).params.target;
  const g = await generate({ model, config: ckpt.config, tokenizer: ckpt.tokenizer, frames, turns, forcedPrefix: "<think>\n" + prefixText, maxTokens: 4 });
  const name = `${target.color} ${target.shape}`;
  n++; if (g.text.startsWith(" " + name)) ok++;
  console.log(name, "|", JSON.stringify(g.text), g.logprobs.map((x) => x.toFixed(2)).join(" "));
}
console.log(ok, "/", n);
