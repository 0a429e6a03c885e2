// What does the 48x27 frame input carry? A linear probe (softmax regression, full-batch gradient
// descent) from a frame's thumbnail features to the shape, color and position of the one event
// visible in it, trained on one suite's frames and tested on another's (README "Quality bar").
// Two inputs: the features as the model gets them (`thumbnailFeatures`, x/127.5 - 1) and the same
// minus the frame's median color per channel (background-subtracted).
//
//   npx tsx packages/nano/scripts/frame-probe.ts --train var/suites/train300 --test var/suites/heldout40
import { parseArgs } from "node:util";
import { readSuite } from "@paravt/suite";
import { modelConfig, thumbnailFeatures, videoFrameSource } from "../src/index";
import { defaultTokenizer } from "../src/vocabulary";

const { values } = parseArgs({
  options: {
    train: { type: "string", default: "var/suites/train300" },
    test: { type: "string", default: "var/suites/heldout40" },
    "per-event": { type: "string", default: "2" },
    iterations: { type: "string", default: "300" },
  },
});
const config = modelConfig(defaultTokenizer());
const P = config.frameFeatures;
type Label = { shape: string; color: string; position: string };

/** Features and labels of `perEvent` whole-second frames inside every event of a suite. */
async function framesOf(dir: string): Promise<{ x: Float32Array[]; labels: Label[] }> {
  const suite = await readSuite(dir);
  const source = videoFrameSource(dir, config.thumbnail);
  const x: Float32Array[] = [];
  const labels: Label[] = [];
  for (const v of suite.videos) {
    const refs = [];
    for (const e of v.annotation.events) {
      const n = Math.min(Number(values["per-event"]), e.end - e.start);
      for (let i = 0; i < n; i++) {
        refs.push({ video: v.file, t: e.start + Math.floor(((i + 0.5) * (e.end - e.start)) / n) });
        labels.push({ shape: e.shape, color: e.color, position: e.position });
      }
    }
    for (const rgb of await source.thumbnails(refs)) x.push(thumbnailFeatures(rgb, config));
  }
  return { x, labels };
}

/** Each pixel minus the frame's median value of its channel. */
function minusMedian(f: Float32Array): Float32Array {
  const out = new Float32Array(f.length);
  for (let c = 0; c < 3; c++) {
    const ch = Float32Array.from({ length: f.length / 3 }, (_, i) => f[i * 3 + c]!).sort();
    const median = ch[ch.length >> 1]!;
    for (let i = c; i < f.length; i += 3) out[i] = f[i]! - median;
  }
  return out;
}

/** Standardises with the training set's mean and deviation per feature. */
function standardise(train: Float32Array[], test: Float32Array[]): void {
  const mean = new Float64Array(P);
  const sq = new Float64Array(P);
  for (const f of train) {
    for (let j = 0; j < P; j++) {
      mean[j] = mean[j]! + f[j]!;
      sq[j] = sq[j]! + f[j]! * f[j]!;
    }
  }
  for (let j = 0; j < P; j++) {
    mean[j] = mean[j]! / train.length;
    sq[j] = Math.sqrt(Math.max(0, sq[j]! / train.length - mean[j]! ** 2)) + 1e-3;
  }
  for (const f of [...train, ...test]) for (let j = 0; j < P; j++) f[j] = (f[j]! - mean[j]!) / sq[j]!;
}

/** Softmax regression (L2 1e-3, step 0.5); returns train and test accuracy. */
function probe(xtr: Float32Array[], ytr: number[], xte: Float32Array[], yte: number[], k: number) {
  const W = new Float32Array(P * k);
  const b = new Float32Array(k);
  const logits = (f: Float32Array) => {
    const z = Array.from(b);
    for (let j = 0; j < P; j++) {
      const v = f[j]!;
      if (v !== 0) for (let c = 0; c < k; c++) z[c]! += v * W[j * k + c]!;
    }
    return z;
  };
  for (let it = 0; it < Number(values.iterations); it++) {
    const gW = new Float32Array(P * k);
    const gb = new Float32Array(k);
    xtr.forEach((f, n) => {
      const z = logits(f);
      const m = Math.max(...z);
      const e = z.map((v) => Math.exp(v - m));
      const s = e.reduce((a, v) => a + v, 0);
      const g = e.map((v, c) => (v / s - (c === ytr[n] ? 1 : 0)) / xtr.length);
      for (let c = 0; c < k; c++) gb[c]! += g[c]!;
      for (let j = 0; j < P; j++) for (let c = 0; c < k; c++) gW[j * k + c]! += f[j]! * g[c]!;
    });
    for (let i = 0; i < W.length; i++) W[i]! -= 0.5 * (gW[i]! + 1e-3 * W[i]!);
    for (let c = 0; c < k; c++) b[c]! -= 0.5 * gb[c]!;
  }
  const acc = (xs: Float32Array[], ys: number[]) => {
    let right = 0;
    xs.forEach((f, n) => {
      const z = logits(f);
      right += z.indexOf(Math.max(...z)) === ys[n] ? 1 : 0;
    });
    return right / xs.length;
  };
  return { train: acc(xtr, ytr), test: acc(xte, yte) };
}

const train = await framesOf(values.train);
const test = await framesOf(values.test);
console.log(`${train.x.length} training frames, ${test.x.length} test frames`);
for (const input of ["as the model gets it", "minus the frame's median color"] as const) {
  const sub = input !== "as the model gets it";
  const xtr = train.x.map((f) => (sub ? minusMedian(f) : Float32Array.from(f)));
  const xte = test.x.map((f) => (sub ? minusMedian(f) : Float32Array.from(f)));
  standardise(xtr, xte);
  for (const key of ["shape", "color", "position"] as const) {
    const classes = [...new Set(train.labels.map((l) => l[key]))].sort();
    const ytr = train.labels.map((l) => classes.indexOf(l[key]));
    const yte = test.labels.map((l) => classes.indexOf(l[key]));
    const counts = classes.map((_, c) => ytr.filter((y) => y === c).length);
    const majority = counts.indexOf(Math.max(...counts));
    const r = probe(xtr, ytr, xte, yte, classes.length);
    const base = yte.filter((y) => y === majority).length / yte.length;
    console.log(
      `${input}: ${key} (${classes.length} classes) train ${r.train.toFixed(3)}, test ${r.test.toFixed(3)} (majority ${base.toFixed(3)})`,
    );
  }
}
