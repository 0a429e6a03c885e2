// Does a checkpoint copy a color it has just written? Teacher-forced on the oracle's K = 8 `oe`
// final turns of a suite: the final turn is given up to each place where the answer's color is
// written — every " COLOR SHAPE" of the thinking (the first names what the tool responses or the
// overview showed, the later ones repeat it a sentence later) and the answer after `<answer>` or
// `<answer>the` — and the model's greedy next token is compared with the color. The shape after
// the color is checked the same way. A model that copies gets the repeats right whatever it saw.
//
//   npx tsx research/probes/answer-copy-probe.ts --checkpoint packages/nano/checkpoints/default \
//     --suite var/suites/heldout40 [--limit 30]
import { parseArgs } from "node:util";
import { generate, mainAgentTurns } from "@paravt/nano";
import { loadProbe, Tally } from "./probe-setup";

const { values } = parseArgs({
  options: {
    checkpoint: { type: "string", default: "packages/nano/checkpoints/default" },
    suite: { type: "string", default: "var/suites/heldout40" },
    limit: { type: "string", default: "30" },
  },
});

const { ckpt, model, frames, rows } = await loadProbe({
  checkpoint: values.checkpoint,
  suite: values.suite,
  k: 8,
  limit: Number(values.limit),
  keep: (q) => q.type === "oe",
});

/** Per place (first mention, repeats, answer) and word (color, shape). */
const tally = new Tally();

for (const row of rows) {
  const turns = mainAgentTurns(row, { thinkPrefix: true });
  // The final turn as the model writes it after the forced think prefix (SPEC §1.7).
  const content = turns[turns.length - 1]!.content;
  if (typeof content !== "string") continue;
  const final = `<think>\n${content.replace(/^<think>\n/, "")}`;
  const answer = /<answer>(the )?(\w+) (\w+)<\/answer>/.exec(final);
  if (!answer) continue;
  const [, article, color, shape] = answer as unknown as [string, string | undefined, string, string];
  const places: [string, number][] = [];
  const pair = ` ${color} ${shape}`;
  const thinkEnd = final.indexOf("</think>");
  for (let i = final.indexOf(pair), n = 0; i >= 0 && i < thinkEnd; i = final.indexOf(pair, i + 1), n++)
    places.push([n === 0 ? "thinking, first mention" : "thinking, repeat", i]);
  const lead = article ? "<answer>the" : "<answer>";
  places.push(["answer", final.indexOf(lead) + lead.length]);
  for (const [place, at] of places) {
    for (const [word, offset] of [
      ["color", 0],
      ["shape", ` ${color}`.length],
    ] as const) {
      const cut = at + offset + (place === "answer" && !article && word === "shape" ? -1 : 0);
      const g = await generate({
        model,
        config: ckpt.config,
        tokenizer: ckpt.tokenizer,
        frames,
        turns: turns.slice(0, -1),
        forcedPrefix: final.slice(0, cut),
        maxTokens: 1,
      });
      tally.count(`${place} | ${word}`, g.text.trim() === (word === "color" ? color : shape));
    }
  }
}

console.log(`${rows.length} oe final turns at K = 8, teacher-forced; the greedy next word is right:`);
for (const line of tally.lines()) console.log(line);
