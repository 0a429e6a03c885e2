// The quality bar of a ParaVT-nano checkpoint (issue 6), measured with the real episode runner on a
// held-out needle suite at temperature 0: format compliance (every main-agent turn has balanced
// tags and is either a parseable tool call or a non-empty answer, and the last turn answers) and
// the score by K x with/without tools x question template.
//
// "With tools": agentic_general, sub-agent dispatch (the training style, SPEC §1.4), max_turns 3.
// "Without tools": the same prompt with max_turns 0, so the first turn is final (a call written
// then is not dispatched and the episode has no answer).
//
//   npx paravt suite generate --seed 101 --count 10 --out var/suites/heldout
//   npx tsx packages/agent/scripts/nano-quality.ts --checkpoint packages/nano/checkpoints/default \
//     --suite var/suites/heldout --ks 8 [--limit N] [--json out.json]
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { hasNonemptyAnswer, hasParseableToolCall, tagsBalanced } from "@paravt/protocol";
import { readSuite } from "@paravt/suite";
import { loadCoreNanoEngine, runEpisode, scoreEpisode, videoFrameSampler, type Trajectory } from "../src/index";

const { values } = parseArgs({
  options: {
    checkpoint: { type: "string", default: "packages/nano/checkpoints/default" },
    suite: { type: "string", default: "var/suites/heldout" },
    ks: { type: "string", default: "8" },
    limit: { type: "string" },
    json: { type: "string" },
  },
});

/** SPEC §2 format ingredients applied per turn: balanced tags, and a call or an answer. */
export function formatCompliant(t: Trajectory): boolean {
  if (t.status !== "ok" || t.turns.length === 0) return false;
  const texts = t.turns.map((turn) => (turn.forcedPrefix ?? "") + turn.rawText);
  const last = texts[texts.length - 1]!;
  return (
    texts.every((x) => tagsBalanced(x) && (hasParseableToolCall(x) || hasNonemptyAnswer(x))) && hasNonemptyAnswer(last)
  );
}

const suite = await readSuite(values.suite);
const engine = await loadCoreNanoEngine(values.checkpoint);
const frames = videoFrameSampler({ maxErrorS: 0 });
const ks = values.ks.split(",").map(Number);
const questions = suite.questions.slice(0, values.limit ? Number(values.limit) : undefined);

interface Cell {
  n: number;
  score: number;
  formatOk: number;
  toolCalls: number;
}
const cells = new Map<string, Cell>();
const add = (key: string, score: number, ok: boolean, calls: number) => {
  const c = cells.get(key) ?? { n: 0, score: 0, formatOk: 0, toolCalls: 0 };
  c.n++;
  c.score += score;
  c.formatOk += ok ? 1 : 0;
  c.toolCalls += calls;
  cells.set(key, c);
};

const started = Date.now();
for (const k of ks) {
  for (const tools of [true, false]) {
    for (const q of questions) {
      const video = suite.videos.find((v) => v.id === q.videoId)!;
      const t = await runEpisode({
        engine,
        input: { video: { file: video.path, path: q.video }, question: q.question, questionType: q.type },
        frames,
        config: { mode: "agentic_general", dispatch: "subagent", k, thinkPrefix: true, maxTurns: tools ? 3 : 0 },
      });
      const s = scoreEpisode(t, { questionType: q.type, answer: q.answer });
      const calls = t.turns.reduce((n, turn) => n + turn.toolCalls.filter((c) => c.status !== "REJECTED").length, 0);
      const ok = formatCompliant(t);
      for (const key of [`${k}|${tools}|${q.template}`, `${k}|${tools}|all`]) add(key, s.score ?? 0, ok, calls);
    }
    process.stderr.write(
      `K=${k} tools=${tools}: ${questions.length} episodes, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
    );
  }
}

const rows = [...cells.entries()].map(([key, c]) => {
  const [k, tools, template] = key.split("|");
  return {
    k: Number(k),
    tools: tools === "true",
    template: template!,
    n: c.n,
    score: c.score / c.n,
    formatCompliance: c.formatOk / c.n,
    avgToolCalls: c.toolCalls / c.n,
  };
});
console.log("| K | tools | question | n | score | format compliance | avg tool calls |");
console.log("| ---: | --- | --- | ---: | ---: | ---: | ---: |");
for (const r of rows.sort(
  (a, b) => a.k - b.k || Number(b.tools) - Number(a.tools) || a.template.localeCompare(b.template),
))
  console.log(
    `| ${r.k} | ${r.tools ? "with" : "without"} | ${r.template} | ${r.n} | ${r.score.toFixed(3)} | ${r.formatCompliance.toFixed(3)} | ${r.avgToolCalls.toFixed(2)} |`,
  );
if (values.json)
  await writeFile(values.json, JSON.stringify({ checkpoint: values.checkpoint, suite: values.suite, rows }, null, 2));
await engine.close();
