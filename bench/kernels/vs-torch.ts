// The CPU compute core against PyTorch on the same CPU, same shapes, same thread count (issue 42
// item 5): one training step (forward + cross-entropy + backward + clipping + AdamW; frame slots
// included) per model shape, and greedy decoding at batch 1 with a KV cache. The core runs through
// its Node API (`trainStep`, `createDecoder`, as the trainers use it); PyTorch runs
// bench/kernels/torch_step.py (the PyTorch mirror's model, research/torch/train_sft.py) in a
// child process. The two alternate for --rounds rounds, each side taking the best of --reps after
// a warm-up, so a busy machine slows both alike; the table gives each round's ratio.
// Needs python3 with torch (a CPU wheel: `pip install /opt/wheels/torch-*.whl` here).
// No assertion: a measurement.
//
// Usage (from the repository root): npx tsx bench/kernels/vs-torch.ts [--rounds 3] [--reps 3] [--threads N]
// Results: bench/kernels/README.md; raw figures: bench/out/kernels-vs-torch.json.
import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";

import { FRAME_TOKEN, cpuIsa, createModel, setThreads, type ModelConfig } from "../../kernels/src/index";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, "../out");
const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    reps: { type: "string", default: "3" },
    threads: { type: "string", default: String(availableParallelism()) },
  },
});
const ROUNDS = Number(values.rounds);
const REPS = Number(values.reps);
const THREADS = Number(values.threads);

interface Shape {
  name: string;
  config: ModelConfig;
  B: number;
  T: number;
}
// The committed default checkpoint at the SFT trainer's batch (8 examples of ~370 tokens); the
// config of bench/kernels/run.ts; the default model config of `modelConfig()` (6.4 M parameters).
const SHAPES: Shape[] = [
  {
    name: "default checkpoint (2.1 M), 8 x 384",
    config: { vocabSize: 1137, context: 2048, width: 128, layers: 4, heads: 4, frameDim: 48 },
    B: 8,
    T: 384,
  },
  {
    name: "kernels bench config (0.9 M), 4 x 256",
    config: { vocabSize: 512, context: 256, width: 128, layers: 4, heads: 4, frameDim: 48 },
    B: 4,
    T: 256,
  },
  {
    name: "default model config (6.4 M), 4 x 384",
    config: { vocabSize: 1137, context: 2048, width: 256, layers: 6, heads: 8, frameDim: 48 },
    B: 4,
    T: 384,
  },
];
const DECODE = 128;
const PROMPT = 32;

// Frame slots as torch_step.py lays them out: 8 in every 40 positions.
function batch(s: Shape) {
  const { vocabSize, frameDim } = s.config;
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const n = s.B * s.T;
  const tokens = Int32Array.from({ length: n }, (_, i) => ((i % s.T) % 40 < 8 ? FRAME_TOKEN : next() % vocabSize));
  const targets = Int32Array.from({ length: n }, () => next() % vocabSize);
  const slots = tokens.reduce((k, t) => k + (t === FRAME_TOKEN ? 1 : 0), 0);
  const frames = Float32Array.from({ length: slots * frameDim }, () => (next() % 1000) / 1000); // one row a slot
  return { batchSize: s.B, seqLen: s.T, tokens, targets, frames };
}

// Best wall time and best CPU time (the process's user + system: the work itself, which a busy
// machine does not inflate as it does wall time) of `reps` runs after a warm-up.
interface Timing {
  wall: number;
  cpu: number;
}
async function bestOf(reps: number, fn: () => Promise<void>): Promise<Timing> {
  await fn();
  const best = { wall: Infinity, cpu: Infinity };
  for (let i = 0; i < reps; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    best.wall = Math.min(best.wall, wall);
    best.cpu = Math.min(best.cpu, (c.user + c.system) / 1000);
  }
  return best;
}

async function coreStep(s: Shape): Promise<Timing> {
  const model = createModel(s.config, { seed: 1 });
  const b = batch(s);
  return bestOf(REPS, async () => {
    await model.trainStep(b, { lr: 1e-4, weightDecay: 0.1, maxGradNorm: 1 });
  });
}

async function coreDecode(config: ModelConfig): Promise<Timing> {
  const model = createModel(config, { seed: 1 });
  const prompt = Int32Array.from({ length: PROMPT }, (_, i) => (i * 37) % config.vocabSize);
  const argmax = (x: Float32Array) => x.reduce((bi, v, i, a) => (v > a[bi]! ? i : bi), 0);
  return bestOf(REPS, async () => {
    const dec = model.createDecoder(1);
    let logits = await dec.step({ tokens: prompt });
    for (let i = 0; i < DECODE; i++) logits = await dec.step({ tokens: Int32Array.of(argmax(logits)) });
  });
}

async function torch(args: string[]): Promise<Record<string, number | string>> {
  const { stdout } = await run("python3", [join(here, "torch_step.py"), ...args, "--threads", String(THREADS)], {
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, number | string>;
}

const shapeArgs = (s: Shape) => {
  const c = s.config;
  return [
    "--B",
    s.B,
    "--T",
    s.T,
    "--V",
    c.vocabSize,
    "--C",
    c.width,
    "--L",
    c.layers,
    "--H",
    c.heads,
    "--P",
    c.frameDim,
  ].map(String);
};

async function main() {
  setThreads(THREADS);
  const machine = `${cpus()[0]?.model} x${availableParallelism()}`;
  console.log(`machine: ${machine}; core kernels: ${cpuIsa()}; ${THREADS} threads on both sides`);
  console.log(
    `load average at start: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  const rows: { what: string; core: Timing[]; torch: Timing[] }[] = [];
  let torchVersion = "";
  const say = (what: string, r: number, c: Timing, t: Timing) =>
    console.log(
      `${what}, round ${r + 1}: core ${c.wall.toFixed(0)} ms (cpu ${c.cpu.toFixed(0)}), ` +
        `torch ${t.wall.toFixed(0)} ms (cpu ${t.cpu.toFixed(0)})`,
    );
  for (const s of SHAPES) {
    const row = { what: `train step, ${s.name}`, core: [] as Timing[], torch: [] as Timing[] };
    for (let r = 0; r < ROUNDS; r++) {
      row.core.push(await coreStep(s));
      const t = await torch([...shapeArgs(s), "--reps", String(REPS)]);
      torchVersion = String(t.torch);
      row.torch.push({ wall: Number(t.step_ms), cpu: Number(t.step_cpu_ms) });
      say(row.what, r, row.core.at(-1)!, row.torch.at(-1)!);
    }
    rows.push(row);
  }
  const dec = SHAPES[0]!;
  const drow = {
    what: `decode ${DECODE + 1} tokens, batch 1, ${dec.name.split(",")[0]}`,
    core: [] as Timing[],
    torch: [] as Timing[],
  };
  for (let r = 0; r < ROUNDS; r++) {
    drow.core.push(await coreDecode(dec.config));
    const t = await torch([
      ...shapeArgs(dec),
      "--decode",
      String(DECODE),
      "--prompt",
      String(PROMPT),
      "--reps",
      String(REPS),
    ]);
    drow.torch.push({ wall: Number(t.decode_ms), cpu: Number(t.decode_cpu_ms) });
    say(drow.what, r, drow.core.at(-1)!, drow.torch.at(-1)!);
  }
  rows.push(drow);
  const list = (xs: number[], d = 0) => xs.map((x) => x.toFixed(d)).join(" / ");
  console.log(
    `\n| ${THREADS} thread(s), each round | core wall (ms) | PyTorch ${torchVersion} wall (ms) | ` +
      "**PyTorch / core, wall** | core CPU (ms) | PyTorch CPU (ms) | **PyTorch / core, CPU** |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const wall = r.core.map((c, i) => r.torch[i]!.wall / c.wall);
    const cpu = r.core.map((c, i) => r.torch[i]!.cpu / c.cpu);
    console.log(
      `| ${r.what} | ${list(r.core.map((c) => c.wall))} | ${list(r.torch.map((t) => t.wall))} | **${list(wall, 2)}** | ` +
        `${list(r.core.map((c) => c.cpu))} | ${list(r.torch.map((t) => t.cpu))} | **${list(cpu, 2)}** |`,
    );
  }
  console.log(
    `load average at end: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  await mkdir(outDir, { recursive: true });
  await writeFile(
    join(outDir, "kernels-vs-torch.json"),
    JSON.stringify(
      { date: new Date().toISOString(), machine, isa: cpuIsa(), threads: THREADS, torch: torchVersion, rows },
      null,
      2,
    ),
  );
}

await main();
