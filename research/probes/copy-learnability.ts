// Can the compute core learn to copy? A synthetic check behind packages/nano README "Loss
// emphasis": sequences "filler… MARK x filler… ASK" whose one scored target after ASK is x (one of
// 8 tokens), plus NOISE unpredictable scored tokens per sequence (like a trajectory's phrasing
// and digits). 4 layers, width 128, 4 heads, batch 2, lr 1e-3. Prints the copy loss (ln 8 = 2.08
// is guessing) every 250 steps.
//
//   npx tsx research/probes/copy-learnability.ts [NOISE=0] [STEPS=3000]
import { createModel } from "@paravt/kernels";

const NOISE = Number(process.argv[2] ?? 0);
const STEPS = Number(process.argv[3] ?? 3000);
const V = 100;
const T = 64 + NOISE;
const B = 2;
const model = createModel({ vocabSize: V, context: 2048, width: 128, layers: 4, heads: 4, frameDim: 4 }, { seed: 1 });
let state = 7;
const rand = (n: number) => Math.floor(((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) * n);
const filler = () => Array.from({ length: rand(20) }, () => 20 + rand(80));

let copyLoss = 0;
let samples = 0;
for (let step = 1; step <= STEPS; step++) {
  const tokens = new Int32Array(B * T);
  const targets = new Int32Array(B * T);
  const mask = new Float32Array(B * T);
  const asks: number[] = [];
  for (let b = 0; b < B; b++) {
    const x = 10 + rand(8);
    const seq = [1, ...filler(), 3, x, ...filler(), 4];
    const ask = seq.length - 1;
    seq.push(x);
    const noiseFrom = seq.length - 1; // the position predicting the first noise token
    for (let k = 0; k < NOISE; k++) seq.push(20 + rand(80));
    while (seq.length < T + 1) seq.push(0);
    for (let i = 0; i < T; i++) {
      tokens[b * T + i] = seq[i]!;
      targets[b * T + i] = seq[i + 1]!;
      mask[b * T + i] = i === ask || (i >= noiseFrom && i < noiseFrom + NOISE) ? 1 : 0;
    }
    asks.push(b * T + ask);
  }
  const batch = { batchSize: B, seqLen: T, tokens, targets, mask };
  await model.trainStep(batch, { lr: 1e-3, maxGradNorm: 1 });
  if (step % 50 === 0) {
    const f = await model.forward(batch, { losses: true });
    for (const a of asks) copyLoss += f.losses![a]!;
    samples += asks.length;
  }
  if (step % 250 === 0) {
    console.log(`step ${step}  copy loss ${(copyLoss / samples).toFixed(3)}`);
    copyLoss = 0;
    samples = 0;
  }
}
