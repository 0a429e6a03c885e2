/**
 * Reward throughput: 10k varied completions scored (a) in-process with @paravt/protocol and
 * (b) end to end through `paravt reward` over stdin, each next to a baseline measured in the
 * same run. Run from the repository root:
 *
 *   npx tsx bench/protocol/reward-throughput.ts [--n 10000] [--reps 5]
 *
 * Prints a markdown table (completions/s, best of --reps runs after one warm-up) and ratios.
 * No assertion on wall-clock figures: this is a measurement, not a test.
 */
import { spawn } from "node:child_process";
import { cpus } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  computeReward,
  extractAnswer,
  extractLetter,
  extractTimeRange,
  hasParseableToolCall,
  hasSubstantiveThink,
  parseEvalToolCalls,
  parseTrainingToolCalls,
  thinkBeforeTool,
  type QuestionType,
} from "@paravt/protocol";

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i === -1 ? dflt : Number(args[i + 1]);
};
const N = flag("--n", 10_000);
const REPS = flag("--reps", 5);
const BIN = fileURLToPath(new URL("../../packages/cli/bin/paravt.mjs", import.meta.url));

// Deterministic corpus (mulberry32), shaped like PARA-GRPO rollouts: think, 0-5 parallel calls
// in either form, tool responses, an answer (or not), for mcq / tvg / oe questions.
let seed = 42;
function rnd(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)] as T;
const WORDS = "the man opens door red car walks into kitchen then picks up cup video shows segment around later".split(
  " ",
);
const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");

interface Line {
  completion: string;
  answer: string;
  question_type: QuestionType;
}

function completion(qt: QuestionType): Line {
  const parts: string[] = [];
  const thinkStyle = rnd();
  if (thinkStyle < 0.7) parts.push(`<think>\n${sentence(10 + Math.floor(rnd() * 120))}\n</think>\n`);
  else if (thinkStyle < 0.85)
    parts.push(`${sentence(20)}\n</think>\n`); // forced prefix in prompt
  else parts.push(`<think>${sentence(3)}`); // unclosed
  const calls = Math.floor(rnd() * 6);
  for (let c = 0; c < calls; c++) {
    const s = Math.floor(rnd() * 600);
    const e = s + 5 + Math.floor(rnd() * 60);
    parts.push(
      rnd() < 0.8
        ? `<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "videos/v${c}.mp4", "start_time": ${s}, "end_time": ${e}}}\n</tool_call>\n`
        : `<tool_code>\nprint(crop_video(video_path='videos/v${c}.mp4', start_time=${s}, end_time=${e}))\n</tool_code>\n`,
    );
  }
  if (calls > 0 && rnd() < 0.6)
    parts.push(`<tool_response>\n${sentence(30)}\n</tool_response>\n<think>${sentence(15)}</think>\n`);
  let answer: string;
  let said: string;
  if (qt === "mcq") {
    answer = pick(["A", "B", "C", "D"]);
    said = pick(["A", "B", "C", "D", "The answer is (B)", "Option C"]);
  } else if (qt === "tvg") {
    const s = Math.floor(rnd() * 100);
    answer = `[${s}, ${s + 10}]`;
    said = `[${s + Math.floor(rnd() * 8)}.5, ${s + 12}.0]`;
  } else {
    answer = sentence(4);
    said = sentence(3 + Math.floor(rnd() * 8));
  }
  if (rnd() < 0.85) parts.push(`<answer>${said}</answer>`);
  if (rnd() < 0.03) parts.push("<|im_start|>".repeat(6));
  parts.push("<|im_end|>");
  return { completion: parts.join(""), answer, question_type: qt };
}

const corpus: Line[] = Array.from({ length: N }, () => completion(pick(["mcq", "tvg", "oe"] as const)));
const rewardInput = corpus.map((l) => JSON.stringify(l)).join("\n") + "\n";
const parseInput = corpus.map((l) => JSON.stringify({ text: l.completion })).join("\n") + "\n";
const avgChars = Math.round(corpus.reduce((n, l) => n + l.completion.length, 0) / N);

function best(fn: () => void): number {
  fn(); // warm-up
  let min = Infinity;
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

let sink = 0;
const libReward = best(() => {
  for (const l of corpus)
    sink += computeReward({ completion: l.completion, answer: l.answer, questionType: l.question_type }).reward;
});
const libParse = best(() => {
  for (const l of corpus) {
    const t = l.completion;
    sink += parseTrainingToolCalls(t).length + parseEvalToolCalls(t).length + extractAnswer(t).length;
    sink += extractLetter(t).length + (extractTimeRange(t)?.length ?? 0);
    sink += Number(hasParseableToolCall(t)) + Number(hasSubstantiveThink(t)) + Number(thinkBeforeTool(t));
  }
});
// Baseline: only the per-line JSON work the CLI does around the reward (parse input, write output).
const libJsonOnly = best(() => {
  for (const line of rewardInput.split("\n")) {
    if (line === "") continue;
    const v = JSON.parse(line) as Line;
    sink += JSON.stringify({ reward: v.completion.length, acc_reward: 0, format_reward: 0, tool_reward: 0 }).length;
  }
});

function runCli(command: string, input: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, command], { stdio: ["pipe", "pipe", "inherit"] });
    let lines = 0;
    child.stdout.on("data", (d: Buffer) => {
      for (const b of d) if (b === 10) lines++;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const expected = input.split("\n").filter((l) => l !== "").length;
      if (code !== 0 || lines !== expected)
        reject(new Error(`paravt ${command}: exit ${code}, ${lines}/${expected} lines`));
      else resolve(performance.now() - t0);
    });
    child.stdin.end(input);
  });
}

async function bestCli(command: string, input: string): Promise<number> {
  await runCli(command, input);
  let min = Infinity;
  for (let r = 0; r < REPS; r++) min = Math.min(min, await runCli(command, input));
  return min;
}

const cliStartup = await bestCli("reward", "");
const cliReward = await bestCli("reward", rewardInput);
const cliParse = await bestCli("parse", parseInput);

const rate = (ms: number) => Math.round((N / ms) * 1000);
const rows: [string, number][] = [
  ["library: computeReward (in-process)", libReward],
  ["library: all `parse` outputs (in-process)", libParse],
  ["baseline: JSON parse + stringify per line only (in-process)", libJsonOnly],
  ["CLI: `paravt reward` end to end (incl. start-up)", cliReward],
  ["CLI: `paravt parse` end to end (incl. start-up)", cliParse],
];
console.log(
  `\n${N} completions, avg ${avgChars} chars; best of ${REPS} after a warm-up; ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), Node ${process.version}\n`,
);
console.log("| path | time (ms) | completions/s |");
console.log("| --- | ---: | ---: |");
for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(1)} | ${rate(ms).toLocaleString("en-US")} |`);
console.log(`| CLI start-up alone (\`paravt reward\` on empty input) | ${cliStartup.toFixed(1)} | - |`);
console.log("\nRatios:");
console.log(
  `- CLI reward / library reward time: ${(cliReward / libReward).toFixed(2)}x (${((cliReward - cliStartup) / libReward).toFixed(2)}x without start-up)`,
);
console.log(`- library reward / JSON-only baseline time: ${(libReward / libJsonOnly).toFixed(2)}x`);
console.log(`- library reward / library parse-outputs time: ${(libReward / libParse).toFixed(2)}x`);
console.log(
  `- CLI reward throughput without start-up: ${rate(cliReward - cliStartup).toLocaleString("en-US")} completions/s`,
);
if (sink === 42) console.log(""); // keep the work observable
