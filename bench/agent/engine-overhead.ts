// Episode cost on the committed default nano checkpoint: NanoEngine in-process vs the same backend
// behind the OpenAI-compatible server (OpenAIEngine over localhost HTTP), on onnxruntime (what the
// eval workers and `paravt nano serve` use) and on the C++ core (`--backend core`, the baseline),
// all measured in the same run on the tiny needle suite (one 64 s video, 3 questions). Prints a
// Markdown table.
//   npx tsx bench/agent/engine-overhead.ts [reps=5]
// Results: bench/agent/README.md ("4. Episode cost: NanoEngine in-process vs the nano server").
import { cpus, loadavg } from "node:os";
import { runEpisode, videoFrameSampler, type ChatEngine } from "@paravt/agent";
import { writeTinySuite } from "../../packages/agent/src/test-support";
import { nanoEngines } from "./engines";

const reps = Number(process.argv[2] ?? 5);
const suite = await writeTinySuite();

const ort = await nanoEngines("ort");
const core = await nanoEngines("core");
const sampler = videoFrameSampler({ maxErrorS: 0 });

type Sum = Record<"total" | "frames" | "main" | "sub" | "turns" | "calls" | "prompt" | "completion" | "n", number>;

/** One pass over the suite's questions, added to `sum`. */
async function pass(engine: ChatEngine, k: number, sum: Sum) {
  for (const q of suite.plan.questions) {
    const t = await runEpisode({
      engine,
      input: {
        video: { file: `${suite.dir}/${q.video}`, path: q.video },
        question: q.question,
        questionType: q.type,
      },
      frames: sampler,
      config: { k, thinkPrefix: true },
    });
    if (t.status !== "ok") throw new Error(t.error?.message);
    sum.total += t.timings.totalMs;
    sum.frames += t.timings.framesMs;
    sum.main += t.timings.mainMs;
    sum.sub += t.timings.subAgentMs;
    sum.turns += t.turns.length;
    sum.calls += t.turns.reduce((a, turn) => a + turn.toolCalls.length, 0);
    sum.prompt += t.tokenCounts.mainPrompt;
    sum.completion += t.tokenCounts.mainCompletion;
    sum.n++;
  }
}

/** The engines' reps interleaved (one pass each per rep, order rotating) so load drift hits all alike. */
async function measure(arms: ChatEngine[], k: number): Promise<string[]> {
  const sums: Sum[] = arms.map(() => ({
    total: 0,
    frames: 0,
    main: 0,
    sub: 0,
    turns: 0,
    calls: 0,
    prompt: 0,
    completion: 0,
    n: 0,
  }));
  for (let r = 0; r < reps; r++) {
    for (let j = 0; j < arms.length; j++) {
      const i = (j + r) % arms.length;
      await pass(arms[i]!, k, sums[i]!);
    }
  }
  return sums.map((sum) => {
    const m = (x: number, d = 0) => (x / sum.n).toFixed(d);
    return `${m(sum.total)} | ${m(sum.frames)} | ${m(sum.main)} | ${m(sum.sub)} | ${m(sum.turns, 1)} / ${m(sum.calls, 1)} | ${m(sum.prompt)} | ${m(sum.completion)}`;
  });
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
console.log(`Machine: ${cpus().length}x ${cpus()[0]?.model ?? "?"}, Node ${process.version}, load avg ${load()}\n`);
console.log(
  "| engine | K | total ms | frames ms | main agent ms | sub-agent ms | turns / tool calls | main prompt tokens | main completion tokens |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
const names = [
  "NanoEngine (in-process), onnxruntime",
  "OpenAIEngine -> nano server, onnxruntime",
  "NanoEngine (in-process), C++ core",
];
for (const k of [16, 64]) {
  // Warm-up: probe, decoder, thumbnails, the onnxruntime session.
  for (const e of [ort.direct, ort.http, core.direct])
    await pass(e, k, { total: 0, frames: 0, main: 0, sub: 0, turns: 0, calls: 0, prompt: 0, completion: 0, n: 0 });
  const rows = await measure([ort.direct, ort.http, core.direct], k);
  rows.forEach((row, i) => console.log(`| ${names[i]} | ${k} | ${row} |`));
}
console.log(`\nload avg at the end: ${load()}`);
await ort.close();
await core.close();
await suite.cleanup();
