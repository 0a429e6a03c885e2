// verl (volcengine/verl). Rollouts: with `trainer.rollout_data_dir` set, RayPPOTrainer
// (verl/trainer/ppo/ray_trainer.py, `_log_rollout_data` -> `_dump_generations`) writes each
// training step's batch to `<rollout_data_dir>/<global_steps>.jsonl` in one `open(…, "w")`: one
// JSON object per rollout, `{"input", "output", "gts", "score", "step", …}` plus every
// reward_extra_info list as long as the batch (e.g. `acc`, `pred` from a reward function that
// returns a dict). verl repeats each prompt `rollout.n` times, so the GRPO group is the `uid`
// column where a reward function passes it on, else the prompt text.
// Metrics: only the `file` logger backend (`trainer.logger=[…,"file"]`, verl/utils/tracking.py
// `FileLogger`) writes them locally: `$VERL_FILE_LOGGER_PATH`, else
// `$VERL_FILE_LOGGER_ROOT/<project_name>/<experiment_name>.jsonl`, one `{"step", "data": {…}}`
// per step, opened "wb" (a restarted trainer rewrites it). With the trackio backend, follow
// trackio instead; console, wandb, tensorboard and the others leave nothing this can read.
import fs from "node:fs/promises";
import path from "node:path";
import { readCompleteLines } from "../remote/ingest-file";
import type { Converter, RunDescription, SourceRead, SpoolLine } from "./follow";
import {
  answerOf,
  callsOfText,
  clientId,
  keepWholeGroups,
  metricsItem,
  metricValues,
  pyJson,
  rolloutLine,
  sha,
} from "./items";
import { stillSettling, type RolloutDefaults } from "./options";

export interface VerlState {
  /** The last step whose dump was read (-1: none). */
  lastStep: number;
  /** Position in the file logger's JSON Lines and a hash of its first line (a rewrite changes it). */
  metrics: { offset: number; head: string } | null;
}

export interface VerlOptions extends RolloutDefaults {
  /** trainer.rollout_data_dir */
  source: string;
  /** The file logger's JSON Lines. */
  metricsFile?: string;
  log(message: string): void;
}

/** Step files read per pass (each can be thousands of rollouts). */
const FILES_PER_READ = 5;
const STEP_FILE = /^(\d+)\.jsonl$/;

type Row = Record<string, unknown>;

async function stepFiles(dir: string): Promise<{ step: number; file: string }[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names
    .map((n) => ({ m: STEP_FILE.exec(n), n }))
    .filter((x) => x.m)
    .map((x) => ({ step: Number(x.m![1]), file: path.join(dir, x.n) }))
    .sort((a, b) => a.step - b.step);
}

/** A hash of the file's first line: appending never changes it, a rewrite does. */
async function headOf(file: string): Promise<string> {
  const handle = await fs.open(file, "r");
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    const head = buf.subarray(0, bytesRead);
    const nl = head.indexOf(0x0a);
    return sha(head.subarray(0, nl >= 0 ? nl : head.length).toString("latin1"));
  } finally {
    await handle.close();
  }
}

/** One dumped rollout in our schema (`gts` is the ground truth; `acc` / `pred` as a reward function names them). */
export function verlRollout(
  row: Row,
  at: { step: number; position: number; index: number; group: number; groupIndex: number; groupSize: number },
  o: RolloutDefaults,
) {
  const input = typeof row.input === "string" ? row.input : "";
  const output = typeof row.output === "string" ? row.output : "";
  const gts =
    row.gts === null || row.gts === undefined ? "" : typeof row.gts === "string" ? row.gts : JSON.stringify(row.gts);
  const score = typeof row.score === "number" ? row.score : null;
  const terms: Record<string, number | boolean> = {};
  for (const [k, v] of Object.entries(row)) {
    if (k === "step" || k === "score") continue;
    if (typeof v === "number" || typeof v === "boolean") terms[k] = v;
  }
  const acc = row.acc;
  const correct = typeof acc === "boolean" ? acc : acc === 1 ? true : acc === 0 ? false : null;
  return rolloutLine({
    id: clientId("verl", at.step, at.position),
    step: at.step,
    index: at.index,
    k: o.k,
    sample: { key: `verl:${sha(input)}`, question: input, answer: gts, questionType: o.questionType },
    turns: [{ rawText: output, calls: callsOfText(output) }],
    finalText: output,
    prediction: typeof row.pred === "string" ? row.pred : answerOf(output),
    correct,
    score,
    rewardTerms: {
      ...terms,
      ...(score !== null ? { reward: score } : {}),
      group: at.group,
      groupIndex: at.groupIndex,
      groupSize: at.groupSize,
    },
  });
}

export function verlConverter(o: VerlOptions): Converter<VerlState> {
  const dir = path.resolve(o.source);

  async function readMetrics(
    prev: VerlState["metrics"],
    lines: SpoolLine[],
  ): Promise<{ metrics: VerlState["metrics"]; more: boolean }> {
    const file = o.metricsFile;
    const stat = file ? await fs.stat(file).catch(() => null) : null;
    if (!file || !stat) return { metrics: prev, more: false };
    let pos = prev ?? { offset: 0, head: "" };
    const head = stat.size > 0 ? await headOf(file) : "";
    if (pos.offset > 0 && (stat.size < pos.offset || head !== pos.head)) {
      // FileLogger opens its file "wb": a restarted trainer starts it again.
      o.log(`${file} was rewritten (a restarted trainer): reading it from the start`);
      pos = { offset: 0, head };
    }
    const read = await readCompleteLines(file, pos.offset);
    let nonFinite = 0;
    for (const { text } of read.lines) {
      const row = pyJson(text) as Row | undefined;
      if (!row || typeof row !== "object") {
        o.log(`${file}: a line that is not JSON was skipped`);
        continue;
      }
      const step = row.step;
      const data = row.data;
      if (typeof step !== "number" || !data || typeof data !== "object") continue;
      const { values, nonFinite: bad } = metricValues(data as Row);
      nonFinite += bad.length;
      // A step may be logged more than once (training, then validation): the line's content tells them apart.
      const item = metricsItem(clientId("verl", "m", step, sha(text, 12)), step, values);
      if (item) lines.push({ type: "metrics", ...item });
    }
    if (nonFinite) o.log(`${nonFinite} metric value(s) were NaN, infinite or null: left out`);
    const end = read.lines.at(-1)?.end ?? pos.offset;
    return { metrics: { offset: end, head }, more: read.more };
  }

  return {
    framework: "verl",
    sourceKey: dir,
    initialState: () => ({ lastStep: -1, metrics: null }),

    async describeRun(): Promise<RunDescription | null> {
      const hasDir = !!(await fs.stat(dir).catch(() => null));
      if (!hasDir && !(o.metricsFile && (await fs.stat(o.metricsFile).catch(() => null)))) return null;
      return {
        clientId: clientId("verl", dir),
        name: `verl ${path.basename(dir)}`,
        config: {
          verl: { rolloutDataDir: dir, ...(o.metricsFile ? { metricsFile: path.resolve(o.metricsFile) } : {}) },
        },
      };
    },

    async read(prev: VerlState): Promise<SourceRead<VerlState>> {
      const lines: SpoolLine[] = [];
      const { metrics, more: moreMetrics } = await readMetrics(prev.metrics, lines);
      const files = (await stepFiles(dir)).filter((f) => f.step > prev.lastStep);
      let lastStep = prev.lastStep;
      let read = 0;
      for (const [i, f] of files.entries()) {
        if (read >= FILES_PER_READ) break;
        const later = i + 1 < files.length;
        const stat = await fs.stat(f.file).catch(() => null);
        if (!stat) break;
        // `_dump_generations` writes the whole file at once; the next step's file, or a quiet
        // moment, says it is done.
        if (!later && stillSettling(stat.mtimeMs, o.settleMs)) break;
        const text = await fs.readFile(f.file, "utf8");
        if (!later && !text.endsWith("\n")) break;
        const rows: Row[] = [];
        for (const [n, l] of text.split("\n").entries()) {
          if (!l.trim()) continue;
          const row = pyJson(l);
          if (row && typeof row === "object" && !Array.isArray(row)) rows.push(row as Row);
          else o.log(`${f.file}: line ${n + 1} is not a JSON object; skipped`);
        }
        const { kept, dropped } = keepWholeGroups(
          rows,
          (r) => (r.uid !== undefined ? `uid:${String(r.uid)}` : `input:${typeof r.input === "string" ? r.input : ""}`),
          o.rolloutsPerStep,
        );
        if (dropped)
          o.log(
            `step ${f.step}: ${dropped} of ${rows.length} rollouts left out (at most ${o.rolloutsPerStep} a step, whole groups first)`,
          );
        for (const [index, k] of kept.entries()) {
          const r = verlRollout(
            k.row,
            {
              step: f.step,
              position: k.position,
              index,
              group: k.group,
              groupIndex: k.groupIndex,
              groupSize: k.groupSize,
            },
            o,
          );
          if ("reason" in r) o.log(`step ${f.step} rollout ${k.position}: left out, ${r.reason}`);
          else lines.push({ type: "rollout", ...r.item });
        }
        lastStep = f.step;
        read++;
      }
      return { lines, state: { lastStep, metrics }, more: moreMetrics || read >= FILES_PER_READ };
    },
  };
}
