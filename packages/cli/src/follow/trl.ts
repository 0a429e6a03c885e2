// TRL's GRPOTrainer (huggingface/trl, trl/trainer/grpo_trainer.py). Rollouts: with
// `log_completions=True`, `GRPOTrainer.log` writes the last generation batch at each logging step
// to `<output_dir>/completions/completions_{global_step:05d}.parquet` (pandas `to_parquet`) with
// the columns `step`, `prompt`, `completion`, one column per reward function (its name; NaN where
// the function did not apply), the user's `log_extra` columns, and `advantage`. A prompt's
// `num_generations` completions are its GRPO group.
// Metrics: the Trainer keeps every logged dict in `TrainerState.log_history`, written with each
// checkpoint to `<output_dir>/checkpoint-<step>/trainer_state.json` (and by `save_state()` to
// `<output_dir>/trainer_state.json`); each entry is `{…logs, "epoch", "step"}`. The final entry
// of a finished `train()` carries `train_runtime`: the run is over. Python's json writes NaN and
// Infinity as bare tokens. (Live metrics between checkpoints go only to the `report_to`
// trackers: with `report_to="trackio"`, follow trackio for them.)
import fs from "node:fs/promises";
import path from "node:path";
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

export interface TrlState {
  /** The last step whose completions parquet was read (-1: none). */
  lastStep: number;
  /** log_history entries read, and a hash of the last one (a history that changed under us is read again). */
  logCount: number;
  lastEntry: string;
  /** The step of the history's final entry (train_runtime), once seen. */
  endedAt: number | null;
}

export interface TrlOptions extends RolloutDefaults {
  /** TrainingArguments.output_dir */
  source: string;
  log(message: string): void;
}

const COMPLETIONS = /^completions_(\d+)\.parquet$/;
const CHECKPOINT = /^checkpoint-(\d+)$/;
const FILES_PER_READ = 5;
/** Columns that are not reward terms. */
const TEXT_COLUMNS = new Set(["step", "prompt", "completion", "advantage", "image"]);

type Row = Record<string, unknown>;

/** The newest trainer_state.json: the root one (save_state) or the highest checkpoint's. */
async function newestTrainerState(dir: string): Promise<{ file: string; history: Row[] } | null> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const candidates = names
    .map((n) => ({ n, m: CHECKPOINT.exec(n) }))
    .filter((x) => x.m)
    .sort((a, b) => Number(b.m![1]) - Number(a.m![1]))
    .map((x) => path.join(dir, x.n, "trainer_state.json"));
  let best: { file: string; history: Row[]; step: number } | null = null;
  for (const file of [path.join(dir, "trainer_state.json"), ...candidates.slice(0, 2)]) {
    const text = await fs.readFile(file, "utf8").catch(() => null);
    if (text === null) continue;
    const json = pyJson(text) as { global_step?: unknown; log_history?: unknown } | undefined;
    if (!json || !Array.isArray(json.log_history)) continue;
    const step = typeof json.global_step === "number" ? json.global_step : -1;
    const history = json.log_history.filter((e): e is Row => !!e && typeof e === "object" && !Array.isArray(e));
    if (!best || step > best.step || (step === best.step && history.length > best.history.length)) {
      best = { file, history, step };
    }
  }
  return best;
}

async function readParquet(file: string): Promise<Row[]> {
  const { asyncBufferFromFile, parquetReadObjects } = await import("hyparquet");
  const rows = await parquetReadObjects({ file: await asyncBufferFromFile(file) });
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])),
  );
}

export function trlConverter(o: TrlOptions): Converter<TrlState> {
  const dir = path.resolve(o.source);
  const completionsDir = path.join(dir, "completions");

  function rollouts(rows: Row[], step: number, lines: SpoolLine[]): void {
    const { kept, dropped } = keepWholeGroups(rows, (r) => String(r.prompt ?? ""), o.rolloutsPerStep);
    if (dropped)
      o.log(
        `step ${step}: ${dropped} of ${rows.length} completions left out (at most ${o.rolloutsPerStep} a step, whole groups first)`,
      );
    for (const [index, k] of kept.entries()) {
      const r = k.row;
      const prompt = String(r.prompt ?? "");
      const completion = String(r.completion ?? "");
      const terms: Record<string, number | boolean> = {};
      let reward = 0;
      let rewarded = false;
      for (const [col, v] of Object.entries(r)) {
        if (TEXT_COLUMNS.has(col) || !(typeof v === "number" || typeof v === "boolean")) continue;
        terms[col] = v;
        // The reward is the sum over reward functions (TRL's default weights of 1; NaN: not applied).
        if (typeof v === "number" && Number.isFinite(v)) {
          reward += v;
          rewarded = true;
        }
      }
      const advantage = typeof r.advantage === "number" && Number.isFinite(r.advantage) ? r.advantage : null;
      const line = rolloutLine({
        id: clientId("trl", step, k.position),
        step,
        index,
        k: o.k,
        sample: { key: `trl:${sha(prompt)}`, question: prompt, answer: "", questionType: o.questionType },
        turns: [{ rawText: completion, calls: callsOfText(completion) }],
        finalText: completion,
        prediction: answerOf(completion),
        correct: null,
        score: rewarded ? reward : null,
        rewardTerms: {
          ...terms,
          ...(rewarded ? { reward } : {}),
          ...(advantage !== null ? { advantage } : {}),
          group: k.group,
          groupIndex: k.groupIndex,
          groupSize: k.groupSize,
        },
      });
      if ("reason" in line) o.log(`step ${step} completion ${k.position}: left out, ${line.reason}`);
      else lines.push({ type: "rollout", ...line.item });
    }
  }

  return {
    framework: "trl",
    sourceKey: dir,
    initialState: () => ({ lastStep: -1, logCount: 0, lastEntry: "", endedAt: null }),

    async describeRun(): Promise<RunDescription | null> {
      if (!(await fs.stat(dir).catch(() => null))) return null;
      return { clientId: clientId("trl", dir), name: `TRL ${path.basename(dir)}`, config: { trl: { outputDir: dir } } };
    },

    async read(prev: TrlState): Promise<SourceRead<TrlState>> {
      const lines: SpoolLine[] = [];
      const state = { ...prev };

      const trainerState = await newestTrainerState(dir);
      if (trainerState) {
        const { history } = trainerState;
        const entryHash = (i: number) => sha(JSON.stringify(history[i] ?? null));
        if (
          state.logCount > 0 &&
          (history.length < state.logCount || entryHash(state.logCount - 1) !== state.lastEntry)
        ) {
          // A resumed run rewrote the history from an older checkpoint: read it whole again (the
          // server answers steps it holds as duplicates, or keeps its values on a conflict).
          o.log(`${trainerState.file}: the log history changed (a resumed run?); reading it again`);
          state.logCount = 0;
        }
        let nonFinite = 0;
        for (let i = state.logCount; i < history.length; i++) {
          const entry = history[i]!;
          const step = entry.step;
          if (typeof step !== "number") continue;
          const { values, nonFinite: bad } = metricValues(entry, new Set(["step"]));
          nonFinite += bad.length;
          const item = metricsItem(clientId("trl", "log", step, i), step, values);
          if (item) lines.push({ type: "metrics", ...item });
          if ("train_runtime" in entry) state.endedAt = step;
        }
        if (nonFinite) o.log(`${nonFinite} metric value(s) were NaN, infinite or null: left out`);
        state.logCount = history.length;
        state.lastEntry = history.length ? entryHash(history.length - 1) : "";
      }

      const names = await fs.readdir(completionsDir).catch(() => [] as string[]);
      const files = names
        .map((n) => ({ n, m: COMPLETIONS.exec(n) }))
        .filter((x) => x.m && Number(x.m[1]) > prev.lastStep)
        .map((x) => ({ step: Number(x.m![1]), file: path.join(completionsDir, x.n) }))
        .sort((a, b) => a.step - b.step);
      let read = 0;
      for (const [i, f] of files.entries()) {
        if (read >= FILES_PER_READ) break;
        const later = i + 1 < files.length;
        const stat = await fs.stat(f.file).catch(() => null);
        if (!stat || (!later && stillSettling(stat.mtimeMs, o.settleMs))) break;
        let rows: Row[];
        try {
          rows = await readParquet(f.file);
        } catch (e) {
          // Still being written (no footer yet) unless a later step exists.
          if (!later) break;
          o.log(`${f.file} is not a readable parquet file (${(e as Error).message}); skipped`);
          state.lastStep = f.step;
          read++;
          continue;
        }
        const step = typeof rows[0]?.step === "number" ? (rows[0].step as number) : f.step;
        rollouts(rows, step, lines);
        state.lastStep = f.step;
        read++;
      }
      // The run is over only once its last completions are read too.
      const pending = files.length > read;
      const more = read >= FILES_PER_READ;
      return {
        lines,
        state,
        more,
        ...(state.endedAt !== null && !pending
          ? { finished: { status: "SUCCEEDED" as const, message: `TRL training finished at step ${state.endedAt}` } }
          : {}),
      };
    },
  };
}
