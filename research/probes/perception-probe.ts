// Does a checkpoint see the shapes? Teacher-forced on a suite's sub-agent samples (SPEC §1.4: a
// window's frames → its summary), at every summary position whose target names a palette word,
// the model's choice among that word's category (the highest logit among the category's words,
// each bare or with a leading space) is compared with the target. Only the frames tell a shape
// or its color, so this isolates perception from copying and phrasing; the baseline is the
// category's most frequent target word (what a model blind to the frames does at best).
// The same is reported at the frame slots for a model trained with `--frame-targets` (each slot
// and the two positions after it predict the frame's shape, color and position: curricula/frame-targets.ts);
// for a model trained without, those rows are meaningless.
//
//   npx tsx research/probes/perception-probe.ts --checkpoint packages/nano/checkpoints/default \
//     --suite var/suites/heldout40 [--limit 400] [--frame-target-order position,shape,color]
import { parseArgs } from "node:util";
import { POSITIONS, readSuite, SCENE_COLORS, SHAPE_COLORS, SHAPES } from "@paravt/suite";
import {
  coreFrames,
  createCoreModel,
  frameFeatures,
  loadCheckpoint,
  sftExamples,
  toCoreTokens,
  videoFrameSource,
} from "@paravt/nano";
import { parseFrameTargetOrder, suiteFrameTargets } from "../curricula";

const { values } = parseArgs({
  options: {
    checkpoint: { type: "string", default: "packages/nano/checkpoints/default" },
    suite: { type: "string", default: "var/suites/heldout40" },
    limit: { type: "string", default: "400" },
    // The --frame-target-order the checkpoint was trained with (which slot predicts which label).
    "frame-target-order": { type: "string", default: "shape,color,position" },
  },
});

const ckpt = await loadCheckpoint(values.checkpoint);
const { config, tokenizer: tok } = ckpt;
const model = createCoreModel(config, ckpt.params);
const frames = videoFrameSource(values.suite, config.thumbnail);
const suite = await readSuite(values.suite);
const examples = sftExamples(suite, {
  tokenizer: tok,
  contextLength: config.contextLength,
  mainAgent: false,
  overflow: "skip",
}).examples.slice(0, Number(values.limit));

const CATEGORIES = { "shape color": SHAPE_COLORS, shape: SHAPES, "scene color": SCENE_COLORS, position: POSITIONS };
type Category = keyof typeof CATEGORIES;
/** token id → [category, word], and each category's words with their ids. */
const wordOf = new Map<number, [Category, string]>();
const idsOf = new Map<Category, { word: string; ids: number[] }[]>();
for (const [cat, words] of Object.entries(CATEGORIES) as [Category, readonly string[]][]) {
  idsOf.set(
    cat,
    words.map((word) => {
      const ids = [word, ` ${word}`].map((w) => tok.idOf(w)).filter((id): id is number => id !== undefined);
      for (const id of ids) wordOf.set(id, [cat, word]);
      return { word, ids };
    }),
  );
}

const P = config.frameFeatures;
const V = config.vocabSize;
const stats = new Map<string, { n: number; right: number; targets: Map<string, number> }>();
/** Scores the model's pick within `target`'s category at flat logit row `row` under `label`. */
function score(label: string, logits: Float32Array, row: number, target: number): void {
  const hit = wordOf.get(target);
  if (!hit) return;
  const [cat, word] = hit;
  let best = "";
  let bestLogit = -Infinity;
  for (const w of idsOf.get(cat)!) {
    for (const id of w.ids) if (logits[row * V + id]! > bestLogit) [best, bestLogit] = [w.word, logits[row * V + id]!];
  }
  const key = `${label}${cat}`;
  const s = stats.get(key) ?? { n: 0, right: 0, targets: new Map() };
  s.n++;
  s.right += best === word ? 1 : 0;
  s.targets.set(word, (s.targets.get(word) ?? 0) + 1);
  stats.set(key, s);
}
const frameTargets = suiteFrameTargets(suite.videos, tok, 1, parseFrameTargetOrder(values["frame-target-order"]));

for (const e of examples) {
  const n = e.ids.length - 1;
  const feats = await frameFeatures(frames, e.frames, config);
  const frameArr = coreFrames([{ frameIndex: e.frameIndex, length: n, features: feats }], P);
  const out = await model.forward(
    { batchSize: 1, seqLen: n, tokens: toCoreTokens(e.ids.subarray(0, n), tok), frames: frameArr },
    { logits: true },
  );
  const logits = out.logits!;
  for (let i = 0; i < n; i++) {
    if (e.lossMask[i + 1]) score("", logits, i, e.ids[i + 1]!);
    if (e.frameIndex[i]! < 0) continue;
    frameTargets.tokensOf(e.frames[e.frameIndex[i]!]!).forEach((id, j) => {
      if (i + j < n && !e.lossMask[i + j + 1] && (j === 0 || e.frameIndex[i + j]! < 0))
        score("frame slot: ", logits, i + j, id);
    });
  }
}

console.log(`${examples.length} sub-agent samples of ${values.suite}, ${values.checkpoint}`);
console.log(
  "| word | positions | model's pick right | most frequent word (blind baseline) |\n| --- | ---: | ---: | ---: |",
);
for (const [cat, s] of [...stats].sort(([a], [b]) => a.localeCompare(b))) {
  const majority = Math.max(...s.targets.values());
  console.log(`| ${cat} | ${s.n} | ${(s.right / s.n).toFixed(3)} | ${(majority / s.n).toFixed(3)} |`);
}
