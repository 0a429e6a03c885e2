// What does the 48x27 frame input carry? A linear probe (softmax regression, full-batch gradient
// descent) from a frame's thumbnail features to the shape, color and position of the one event
// visible in it, trained on one suite's frames and tested on another's (nano README "Quality bar").
// Two inputs: the features as the model gets them (`thumbnailFeatures`, x/127.5 - 1) and the same
// minus the frame's median color per channel (background-subtracted).
//
// With --adam-steps N the probe is instead trained the way the model is: minibatch Adam (batch
// --batch, lr --lr) on the "rgb+foreground" features exactly as the model gets them (no
// standardisation), printing the test accuracy ten times along the way, to tell how many
// labelled frames a linear read-out of the shape needs under the model's optimizer.
//
//   npx tsx research/probes/frame-probe.ts --train var/suites/train300 --test var/suites/heldout40
//   npx tsx research/probes/frame-probe.ts --per-event 1 --adam-steps 3000 --batch 16 --lr 1e-3
import { parseArgs } from "node:util";
import { readSuite } from "@paravt/suite";
import { defaultTokenizer, modelConfig, Mulberry32, thumbnailFeatures, videoFrameSource } from "@paravt/nano";

const { values } = parseArgs({
  options: {
    train: { type: "string", default: "var/suites/train300" },
    test: { type: "string", default: "var/suites/heldout40" },
    "per-event": { type: "string", default: "2" },
    iterations: { type: "string", default: "300" },
    "adam-steps": { type: "string" },
    batch: { type: "string", default: "16" },
    lr: { type: "string", default: "1e-3" },
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

/**
 * Softmax regression by minibatch Adam (betas 0.9/0.999, the model's optimizer) from zero; logs
 * the test accuracy every steps/10 steps and after the last.
 */
function adamProbe(xtr: Float32Array[], ytr: number[], xte: Float32Array[], yte: number[], k: number, log: string) {
  const D = xtr[0]!.length;
  const steps = Number(values["adam-steps"]);
  const batch = Number(values.batch);
  const lr = Number(values.lr);
  const W = new Float32Array(D * k);
  const m = new Float32Array(D * k);
  const v = new Float32Array(D * k);
  const logits = (f: Float32Array) => {
    const z = new Array<number>(k).fill(0);
    for (let j = 0; j < D; j++) {
      const x = f[j]!;
      if (x !== 0) for (let c = 0; c < k; c++) z[c] = z[c]! + x * W[j * k + c]!;
    }
    return z;
  };
  const acc = () => {
    let right = 0;
    xte.forEach((f, n) => {
      const z = logits(f);
      right += z.indexOf(Math.max(...z)) === yte[n] ? 1 : 0;
    });
    return right / xte.length;
  };
  const rng = new Mulberry32(1);
  const out: string[] = [];
  for (let step = 1; step <= steps; step++) {
    const g = new Float32Array(D * k);
    for (let b = 0; b < batch; b++) {
      const n = Math.floor(rng.next() * xtr.length);
      const z = logits(xtr[n]!);
      const mx = Math.max(...z);
      const e = z.map((t) => Math.exp(t - mx));
      const sum = e.reduce((a, t) => a + t, 0);
      for (let c = 0; c < k; c++) {
        const d = (e[c]! / sum - (c === ytr[n] ? 1 : 0)) / batch;
        for (let j = 0; j < D; j++) g[j * k + c] = g[j * k + c]! + xtr[n]![j]! * d;
      }
    }
    for (let i = 0; i < W.length; i++) {
      m[i] = 0.9 * m[i]! + 0.1 * g[i]!;
      v[i] = 0.999 * v[i]! + 0.001 * g[i]! * g[i]!;
      const mh = m[i]! / (1 - 0.9 ** step);
      const vh = v[i]! / (1 - 0.999 ** step);
      W[i] = W[i]! - (lr * mh) / (Math.sqrt(vh) + 1e-8);
    }
    if (step % Math.max(1, Math.floor(steps / 10)) === 0 || step === steps) out.push(`${step}: ${acc().toFixed(3)}`);
  }
  console.log(`${log}: test accuracy after step ${out.join(", ")}`);
}

const train = await framesOf(values.train);
const test = await framesOf(values.test);
console.log(`${train.x.length} training frames, ${test.x.length} test frames`);
const labelsOf = (key: "shape" | "color" | "position") => {
  const classes = [...new Set(train.labels.map((l) => l[key]))].sort();
  return {
    classes,
    ytr: train.labels.map((l) => classes.indexOf(l[key])),
    yte: test.labels.map((l) => classes.indexOf(l[key])),
  };
};
if (values["adam-steps"] !== undefined) {
  // The model's own "rgb+foreground" features: the frame, then the frame minus its median color.
  const both = (f: Float32Array) => {
    const out = new Float32Array(2 * f.length);
    out.set(f);
    out.set(minusMedian(f), f.length);
    return out;
  };
  const xtr = train.x.map(both);
  const xte = test.x.map(both);
  for (const key of ["shape", "color", "position"] as const) {
    const { classes, ytr, yte } = labelsOf(key);
    adamProbe(xtr, ytr, xte, yte, classes.length, `${key} (batch ${values.batch}, lr ${values.lr})`);
  }
  process.exit(0);
}
for (const input of ["as the model gets it", "minus the frame's median color"] as const) {
  const sub = input !== "as the model gets it";
  const xtr = train.x.map((f) => (sub ? minusMedian(f) : Float32Array.from(f)));
  const xte = test.x.map((f) => (sub ? minusMedian(f) : Float32Array.from(f)));
  standardise(xtr, xte);
  for (const key of ["shape", "color", "position"] as const) {
    const { classes, ytr, yte } = labelsOf(key);
    const counts = classes.map((_, c) => ytr.filter((y) => y === c).length);
    const majority = counts.indexOf(Math.max(...counts));
    const r = probe(xtr, ytr, xte, yte, classes.length);
    const base = yte.filter((y) => y === majority).length / yte.length;
    console.log(
      `${input}: ${key} (${classes.length} classes) train ${r.train.toFixed(3)}, test ${r.test.toFixed(3)} (majority ${base.toFixed(3)})`,
    );
  }
}
