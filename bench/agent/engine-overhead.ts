// Episode cost on the committed default nano checkpoint (C++ core): NanoEngine in-process vs the
// same backend behind the OpenAI-compatible server (OpenAIEngine over localhost HTTP), measured
// in the same run on the tiny needle suite (one 64 s video, 3 questions). Prints a Markdown table.
//   npx tsx bench/agent/engine-overhead.ts [reps=5]
// Results: bench/agent/README.md ("4. Episode cost: NanoEngine in-process vs the nano server").
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import {
  CoreNanoBackend,
  createNanoServer,
  NanoEngine,
  nanoTokenCounter,
  OpenAIEngine,
  runEpisode,
  videoFrameSampler,
  type ChatEngine,
} from "@paravt/agent";
import { writeTinySuite } from "../../packages/agent/src/test-support";

const reps = Number(process.argv[2] ?? 5);
const CHECKPOINT = fileURLToPath(new URL("../../packages/nano/checkpoints/default", import.meta.url));
const suite = await writeTinySuite();
const backend = await CoreNanoBackend.load(CHECKPOINT);
const direct = new NanoEngine({ backend, tokenizer: backend.tokenizer, thumbnail: backend.config.thumbnail });
const server = createNanoServer({ backend, modelName: "nano" });
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const http = new OpenAIEngine({
  baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
  model: "nano",
  promptPreset: "nano",
  tokenCounter: nanoTokenCounter(backend.tokenizer),
});
const sampler = videoFrameSampler({ maxErrorS: 0 });

async function measure(engine: ChatEngine, k: number) {
  const sum = { total: 0, frames: 0, main: 0, prompt: 0, completion: 0, n: 0 };
  for (let r = 0; r < reps; r++) {
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
      sum.prompt += t.tokenCounts.mainPrompt;
      sum.completion += t.tokenCounts.mainCompletion;
      sum.n++;
    }
  }
  const m = (x: number) => (x / sum.n).toFixed(0);
  return `${m(sum.total)} | ${m(sum.frames)} | ${m(sum.main)} | ${m(sum.prompt)} | ${m(sum.completion)}`;
}

console.log("| engine | K | total ms | frames ms | main agent ms | prompt tokens | completion tokens |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const k of [16, 64]) {
  await measure(direct, k); // warm-up: probe, decoder, thumbnails
  console.log(`| NanoEngine (in-process) | ${k} | ${await measure(direct, k)} |`);
  console.log(`| OpenAIEngine -> nano server | ${k} | ${await measure(http, k)} |`);
}
server.close();
await suite.cleanup();
