/**
 * Prints the README figures of a planned suite (no video is rendered):
 *   npx tsx packages/suite/scripts/report.ts [--seed 1] [--count 20] [--min-minutes 1] [--max-minutes 3]
 * - the per-K visibility table (evidence visible in the K overview frames / oracle answers without a crop),
 * - oracle tool use per K, and the SPEC §2 format reward of every oracle trajectory (PARA-GRPO and vanilla),
 * - text-only baselines (answers guessed from the question text) on held-out videos.
 */
import { accReward, computeReward, formatReward, PARA_GRPO, VANILLA_GRPO } from "@paravt/protocol";
import {
  ALL_APPEARANCES,
  appearanceName,
  formatVisibilityTable,
  LETTERS,
  OVERVIEW_KS,
  planSuite,
  questionStem,
  type OracleRow,
  type SuiteQuestion,
} from "@paravt/suite";

const args = process.argv.slice(2);
const flag = (name: string, dflt: number) => {
  const i = args.indexOf(name);
  return i === -1 ? dflt : Number(args[i + 1]);
};
const seed = flag("--seed", 1);
const count = flag("--count", 20);
const config = { minMinutes: flag("--min-minutes", 1), maxMinutes: flag("--max-minutes", 3) };
const plan = planSuite({ seed, count, config });

const stats = (xs: readonly number[]) => {
  const f = (x: number) => x.toFixed(3);
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  return `${f(Math.min(...xs))} / ${f(mean)} / ${f(Math.max(...xs))}`;
};
const assistant = (o: OracleRow) => o.turns.filter((t) => t.role === "assistant").map((t) => t.content);
const full = (o: OracleRow) =>
  o.turns
    .slice(1)
    .map((t) => t.content)
    .join("\n");

console.log(
  `seed ${seed}, count ${count}, ${JSON.stringify(config)}: ${plan.videos.length} videos, ` +
    `${plan.videos.reduce((s, v) => s + v.durationS, 0)} s, ${plan.questions.length} questions, ` +
    `${plan.oracle.length} oracle trajectories, ${plan.unsettled.length} unsettled, ${plan.dropped} dropped\n`,
);
console.log("visible / answered without a crop:\n");
console.log(formatVisibilityTable(plan.visibility));

console.log("\noracle tool use per K (mean tool rounds, mean crop calls, share with >= 2 parallel calls in a turn):\n");
console.log("| K | trajectories | rounds | calls | parallel |\n| ---: | ---: | ---: | ---: | ---: |");
for (const k of OVERVIEW_KS) {
  const rows = plan.oracle.filter((o) => o.k === k);
  const mean = (f: (o: OracleRow) => number) => (rows.reduce((s, o) => s + f(o), 0) / rows.length).toFixed(2);
  const parallel = rows.filter((o) => o.rounds.some((r) => r.length > 1)).length / rows.length;
  console.log(
    `| ${k} | ${rows.length} | ${mean((o) => o.rounds.length)} | ${mean((o) => o.rounds.flat().length)} | ${Math.round(parallel * 100)}% |`,
  );
}

console.log("\nformat reward (min / mean / max):\n");
console.log("| completion | n | PARA-GRPO | vanilla GRPO |\n| --- | ---: | ---: | ---: |");
const sets: [string, string[]][] = [
  ["whole trajectory (all turns)", plan.oracle.map(full)],
  ["final answer turn", plan.oracle.map((o) => assistant(o).at(-1)!)],
  ["tool-call turns", plan.oracle.flatMap((o) => assistant(o).slice(0, -1))],
];
for (const [name, texts] of sets) {
  console.log(
    `| ${name} | ${texts.length} | ${stats(texts.map((t) => formatReward(t, PARA_GRPO)))} | ${stats(texts.map((t) => formatReward(t, VANILLA_GRPO)))} |`,
  );
}
const questions = new Map(plan.questions.map((q) => [q.id, q]));
const rewards = plan.oracle.map((o) => {
  const q = questions.get(o.questionId)!;
  return computeReward({ completion: full(o), answer: q.answer, questionType: q.type }, PARA_GRPO);
});
console.log(
  `\nwhole trajectories under PARA-GRPO: R_acc ${stats(rewards.map((r) => r.accReward))}, ` +
    `R_tool ${stats(rewards.map((r) => r.toolReward))}, R ${stats(rewards.map((r) => r.reward))}`,
);

// Text-only baselines on the second half of the videos, fitted on the first half (as in plan.test.ts).
const half = plan.videos[Math.floor(plan.videos.length / 2)]!.id;
const train = plan.questions.filter((q) => q.videoId < half);
const test = plan.questions.filter((q) => q.videoId >= half);
const mostCommon = (xs: readonly string[]) => {
  const n = new Map<string, number>();
  for (const x of xs) n.set(x, (n.get(x) ?? 0) + 1);
  return [...n.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? "";
};
const byStem = (q: SuiteQuestion) => {
  const same = train.filter((t) => t.template === q.template && questionStem(t) === questionStem(q));
  const text = mostCommon(
    (same.length > 0 ? same : train.filter((t) => t.template === q.template)).map((t) => t.answerText),
  );
  return q.options ? (LETTERS[q.options.indexOf(text)] ?? "A") : text;
};
const byTemplate = (q: SuiteQuestion) =>
  mostCommon(train.filter((t) => t.template === q.template).map((t) => t.answer));
console.log("\ntext-only baselines on held-out videos (mean R_acc, f1 mode):\n");
console.log(
  "| type | n | most common answer per stem | most common answer per template | uniform guess |\n| --- | ---: | ---: | ---: | ---: |",
);
for (const type of ["mcq", "oe", "tvg"] as const) {
  const qs = test.filter((q) => q.type === type);
  const mean = (f: (q: SuiteQuestion) => number) => (qs.reduce((s, q) => s + f(q), 0) / qs.length).toFixed(3);
  const acc = (q: SuiteQuestion, p: string) => accReward(p, q.answer, q.type, "f1");
  const uniform = (q: SuiteQuestion) =>
    q.type === "mcq"
      ? 0.25
      : q.type === "oe"
        ? ALL_APPEARANCES.reduce((s, a) => s + acc(q, appearanceName(a)), 0) / ALL_APPEARANCES.length
        : 0;
  console.log(
    `| ${type} | ${qs.length} | ${mean((q) => acc(q, byStem(q)))} | ${mean((q) => acc(q, byTemplate(q)))} | ${mean(uniform)} |`,
  );
}
