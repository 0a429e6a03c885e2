// The focused experiment of the nano README's "Loss emphasis": warm-start a checkpoint on the K = 8 (or
// --ks) `when` trajectories of a suite only (main agent, think prefix as prompt, aliased video
// paths), with or without emphasis on the palette words; then run copy-probe.ts on the
// result. Also the pilot of "MM:SS `when` answers" (a suite generated with --when-answer mmss).
//
//   npx tsx research/probes/when-focus-sft.ts --init packages/nano/checkpoints/default \
//     --suite var/suites/train300 --out var/checkpoints/when-focus --steps 300 --lr 1e-3 [--emphasis 10] \
//     [--ks 4,8,16] [--seed 3]
import { parseArgs } from "node:util";
import { readSuite } from "@paravt/suite";
import { defaultTokenizer, loadCheckpoint, trainSft, videoFrameSource } from "@paravt/nano";
import { paletteEmphasis } from "../curricula";

const { values } = parseArgs({
  options: {
    init: { type: "string", default: "packages/nano/checkpoints/default" },
    suite: { type: "string", default: "var/suites/train300" },
    out: { type: "string", default: "var/checkpoints/when-focus" },
    steps: { type: "string", default: "300" },
    lr: { type: "string", default: "1e-3" },
    emphasis: { type: "string" },
    ks: { type: "string", default: "8" },
    seed: { type: "string", default: "3" },
  },
});
const tokenizer = defaultTokenizer();
const ckpt = await loadCheckpoint(values.init, { tokenizer });
const suite = await readSuite(values.suite);
const ks = values.ks.split(",").map(Number);
const seed = Number(values.seed);
const when = new Set(suite.questions.filter((q) => q.template === "when").map((q) => q.id));
const started = Date.now();
await trainSft({
  suite: { oracle: suite.oracle.filter((r) => ks.includes(r.k) && when.has(r.questionId)) },
  frames: videoFrameSource(values.suite, ckpt.config.thumbnail),
  tokenizer,
  modelConfig: ckpt.config,
  initialParameters: ckpt.params,
  sft: { ks, thinkPrefix: true, subAgents: false, aliasVideoPathsSeed: seed },
  // --emphasis W: the palette words weigh W in the loss (the curriculum `paravt nano train --emphasize-palette` was).
  ...(values.emphasis ? { curricula: [paletteEmphasis(tokenizer, Number(values.emphasis))] } : {}),
  steps: Number(values.steps),
  batchSize: 2,
  lr: { kind: "cosine", lr: Number(values.lr), warmupSteps: 10 },
  seed,
  checkpointEvery: 0,
  outDir: values.out,
  onStep: (m) => {
    if (m.step % 25 === 0)
      console.error(`step ${m.step}  loss ${m.loss.toFixed(3)}  ${((Date.now() - started) / 1000).toFixed(0)} s`);
  },
});
