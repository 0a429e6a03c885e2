// Does a checkpoint's answer take its colors and shapes from the text? Teacher-forced on the
// oracle's main-agent trajectories of a suite at one K: each answer turn whose palette words the
// question or tool responses name (curricula/palette-permutation.ts `permutable`) is scored as it is and
// re-labelled by random palette permutations (same frames); the score is the share of the answer
// turn's palette words the argmax predicts, by question type. A model that reads the words off
// the text scores the same on both; one that recalls them from the frames falls to chance (~1/6)
// on the permuted ones. A word written again in the same turn (the thinking's "a red circle",
// then the answer) is counted apart: only attention to the turn itself is needed there.
//
//   npx tsx research/probes/palette-copy-probe.ts --checkpoint packages/nano/checkpoints/default \
//     --suite var/suites/heldout40 [--k 8] [--permutations 2]
import { parseArgs } from "node:util";
import { readSuite } from "@paravt/suite";
import {
  coreFrames,
  createCoreModel,
  frameFeatures,
  loadCheckpoint,
  Mulberry32,
  sftExamples,
  toCoreTokens,
  videoFrameSource,
} from "@paravt/nano";
import { drawPermutation, lastTurnStart, palettePieces, permutable, permuteIds } from "../curricula";
import { Tally } from "./probe-setup";

const { values } = parseArgs({
  options: {
    checkpoint: { type: "string", default: "packages/nano/checkpoints/default" },
    suite: { type: "string", default: "var/suites/heldout40" },
    k: { type: "string", default: "8" },
    permutations: { type: "string", default: "2" },
  },
});

const ckpt = await loadCheckpoint(values.checkpoint);
const { config, tokenizer: tok } = ckpt;
const model = createCoreModel(config, ckpt.params);
const frames = videoFrameSource(values.suite, config.thumbnail);
const suite = await readSuite(values.suite);
const typeOf = new Map(suite.questions.map((q) => [q.id, q.type]));
const rowQuestion = new Map(suite.oracle.map((r) => [r.id, r.questionId]));
const examples = sftExamples(suite, {
  tokenizer: tok,
  contextLength: config.contextLength,
  ks: [Number(values.k)],
  thinkPrefix: true,
  subAgents: false,
  overflow: "skip",
}).examples;
const pieces = palettePieces(tok);
const rng = new Mulberry32(20261125);

/** Per "as is/permuted | question type" and "as is/permuted | word group, place, form". */
const tally = new Tally();
const GROUP_NAMES = ["shape color", "shape", "scene color"];
let eligible = 0;
for (const e of examples) {
  const from = lastTurnStart(e.lossMask);
  if (!permutable(e, from, pieces)) continue;
  eligible++;
  const type = typeOf.get(rowQuestion.get(e.rowId)!)!;
  const n = e.ids.length - 1;
  const feats = await frameFeatures(frames, e.frames, config);
  const frameArr = coreFrames([{ frameIndex: e.frameIndex, length: n, features: feats }], config.frameFeatures);
  const variants: [string, Int32Array][] = [["as is", e.ids]];
  for (let p = 0; p < Number(values.permutations); p++)
    variants.push(["permuted", permuteIds(e.ids, drawPermutation(rng, pieces), pieces)]);
  for (const [label, ids] of variants) {
    const fwd = await model.forward(
      {
        batchSize: 1,
        seqLen: n,
        tokens: toCoreTokens(ids.subarray(0, n), tok),
        targets: ids.slice(1),
        mask: new Float32Array(n).fill(1),
        frames: frameArr,
      },
      { logits: true },
    );
    const V = config.vocabSize;
    const written = new Set<number>(); // the words already in this answer turn
    for (let i = from - 1; i < n; i++) {
      const group = pieces.group[ids[i + 1]!]!;
      if (group < 0) continue;
      const word = group * 64 + pieces.word[ids[i + 1]!]!;
      // A bare piece follows `<answer>`; the thinking writes the spaced one (tokenizer.ts).
      const form = pieces.form[ids[i + 1]!] === 0 ? "bare" : "spaced";
      const place = `${written.has(word) ? "again" : "first time in the turn"}, ${form}`;
      written.add(word);
      let best = 0;
      for (let v = 1; v < V; v++) if (fwd.logits![i * V + v]! > fwd.logits![i * V + best]!) best = v;
      tally.count(`${label} | ${type}`, best === ids[i + 1]);
      tally.count(`${label} | ${GROUP_NAMES[group]}, ${place}`, best === ids[i + 1]);
    }
  }
}

console.log(
  `${eligible} of ${examples.length} main-agent answers at K = ${values.k} name only words of their text; ` +
    `palette words of the answer the argmax predicts (teacher-forced):`,
);
for (const line of tally.lines({ sorted: true })) console.log(line);
