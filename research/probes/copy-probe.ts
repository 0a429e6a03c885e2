// Does a checkpoint copy the question's target? For the `when` questions of a suite, the main
// agent's first turn is forced to "<think>\nNo frame I have seen shows the" and greedily continued
// 4 tokens: the next two words should be the question's color and shape (nano README "Loss emphasis").
//
//   npx tsx research/probes/copy-probe.ts --checkpoint packages/nano/checkpoints/default \
//     --suite var/suites/train300 [--k 8] [--limit 20]
import { parseArgs } from "node:util";
import { generate, mainAgentTurns } from "@paravt/nano";
import { loadProbe } from "./probe-setup";

const { values } = parseArgs({
  options: {
    checkpoint: { type: "string", default: "packages/nano/checkpoints/default" },
    suite: { type: "string", default: "var/suites/train300" },
    k: { type: "string", default: "8" },
    limit: { type: "string", default: "20" },
  },
});
const FORCED = "No frame I have seen shows the";

const { ckpt, model, frames, byId, rows } = await loadProbe({
  checkpoint: values.checkpoint,
  suite: values.suite,
  k: Number(values.k),
  limit: Number(values.limit),
  keep: (q) => q.template === "when",
});
let color = 0;
let both = 0;
const pColor: number[] = [];
for (const row of rows) {
  const q = byId.get(row.questionId)!;
  const { color: c, shape: s } = (q.params as { target: { color: string; shape: string } }).target;
  const g = await generate({
    model,
    config: ckpt.config,
    tokenizer: ckpt.tokenizer,
    frames,
    turns: mainAgentTurns(row, { thinkPrefix: true }).slice(0, 1),
    forcedPrefix: `<think>\n${FORCED}`,
    maxTokens: 4,
  });
  const words = g.text.split(",")[0]!.trim().split(/\s+/);
  color += words[0] === c ? 1 : 0;
  both += words[0] === c && words[1] === s ? 1 : 0;
  pColor.push(Math.exp(g.logprobs[0]!));
  console.log(`${q.id}  asked: ${c} ${s}  wrote: ${JSON.stringify(g.text)}  p(first) ${pColor.at(-1)!.toFixed(2)}`);
}
console.log(
  `\n${rows.length} when questions at K = ${values.k}: color right ${color}, color and shape right ${both}; ` +
    `p(first word) ${Math.min(...pColor).toFixed(2)}–${Math.max(...pColor).toFixed(2)}`,
);
