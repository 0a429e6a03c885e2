// AReaL as the ParaVT reference trainer runs it (EvolvingLMMs-Lab/ParaVT, paravt/rl with the
// vendored AReaL under paravt/rl/areal; recipe paravt/rl/configs/_base.yaml). Everything lives in
// the stats logger's log path `<cluster.fileroot>/logs/<user>/<experiment_name>/<trial_name>`
// (areal/utils/stats_logger.py `StatsLogger.get_log_path`):
// - Metrics: ParaVT's StatsLogger sends them to wandb / swanlab / tensorboard (none readable
//   here), and prints each step to the log: `StatsLogger.commit` logs "Epoch e/E Step s/S Train
//   step g/G done.", "Stats (i/n):" and a `tabulate_stats` table (areal/utils/printing.py:
//   fancy_grid, 4 key/value pairs a row, values `.4e`, so 5 significant digits). The controller
//   writes its log to `main.log` (areal/utils/logging.py `setup_file_logging`, with ANSI colours),
//   the local launcher tees the trainer's output to `trainer.log`. `StatsLogger.close` logs
//   "Training completes!". (Upstream AReaL also logs to trackio when `stats_logger.trackio` is on:
//   follow trackio for full-precision metrics.)
// - Rollouts: with `rollout.dump_to_file: true` (ParaVT's recipe), `WorkflowExecutor._dump_trajectory`
//   (areal/core/workflow_executor.py) appends each finished task to
//   `rollout/<tail_version>/<task_id>.jsonl`, one line per sample of the task's GRPO group:
//   {task_id, sample_idx, seqlen, prompt_len, head_version, tail_version, reward, prompt,
//   completion}, texts decoded with the special tokens kept, split at seqlen - sum(loss_mask).
//   Rollouts of policy version v are trained from step v + 1 on: that is their step here.
import fs from "node:fs/promises";
import path from "node:path";
import { readCompleteLines } from "../remote/ingest-file";
import type { Converter, RunDescription, SourceRead, SpoolLine } from "./follow";
import { trajectoryOfChatText } from "./chat";
import { callsOfText, clientId, metricName, metricsItem, pyJson, ROLLOUTS_PER_STEP, rolloutLine, sha } from "./items";
import { stillSettling, type RolloutDefaults } from "./options";

export interface ArealState {
  /** The log file read (main.log or trainer.log), where its next unread line starts, the step it is in. */
  log: { file: string; offset: number; trainStep: number | null; statsIndex: number } | null;
  /** Bytes read of each rollout dump file (`<version>/<task>`). */
  files: Record<string, number>;
  /** Per policy version: rollouts and groups numbered so far. */
  versions: Record<string, { next: number; groups: number }>;
  /** Versions below this are done: their files are no longer listed in `files`. */
  doneBelow: number;
  ended: boolean;
}

export interface ArealOptions extends RolloutDefaults {
  /** The stats logger's log path. */
  source: string;
  log(message: string): void;
}

/** The colour codes AReaL's colorlog formatter writes into its log files (ESC [ … m). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const TRAIN_STEP = /StatsLogger INFO: Epoch \d+\/\d+ Step \d+\/\d+ Train step (\d+)\/\d+ done\./;
const STATS = /StatsLogger INFO: Stats \((\d+)\/(\d+)\):/;
const COMPLETES = /StatsLogger INFO: Training completes!/;
/** Rollouts taken per read: a long run's backlog is spooled a slice at a time, not held at once. */
const ROLLOUTS_PER_READ = 1000;
/** Versions kept in the per-file positions after the newest: older dumps are complete. */
const KEPT_VERSIONS = 8;
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/** The key/value cells of `tabulate_stats`'s table rows (`│ key │ value │ key │ value │ …`). */
export function tableValues(rows: readonly string[]): { values: Record<string, number>; nonFinite: number } {
  const values: Record<string, number> = {};
  let nonFinite = 0;
  for (const row of rows) {
    const cells = row
      .split("│")
      .slice(1, -1)
      .map((c) => c.trim());
    for (let i = 0; i + 1 < cells.length; i += 2) {
      const key = cells[i]!;
      const text = cells[i + 1]!;
      if (!key) continue;
      const name = metricName(key);
      if (!name) continue;
      if (NUMBER.test(text)) values[name] = Number(text);
      else nonFinite++; // nan, inf
    }
  }
  return { values, nonFinite };
}

export function arealConverter(o: ArealOptions): Converter<ArealState> {
  const dir = path.resolve(o.source);
  const rolloutDir = path.join(dir, "rollout");

  async function logFile(): Promise<string | null> {
    for (const name of ["main.log", "trainer.log"]) {
      const f = path.join(dir, name);
      if (await fs.stat(f).catch(() => null)) return f;
    }
    return null;
  }

  async function readLog(prev: ArealState["log"], lines: SpoolLine[]) {
    const file = prev?.file ?? (await logFile());
    if (!file) return { log: prev, ended: false, more: false };
    let pos = prev ?? { file, offset: 0, trainStep: null, statsIndex: 1 };
    const { size } = await fs.stat(file);
    if (size < pos.offset) {
      o.log(`${file} is shorter than where reading stopped (replaced?): reading it from the start`);
      pos = { file, offset: 0, trainStep: null, statsIndex: 1 };
    }
    const read = await readCompleteLines(file, pos.offset);
    let { trainStep, statsIndex } = pos;
    let committed = pos.offset;
    let table: string[] | null = null;
    let ended = false;
    let nonFinite = 0;
    for (const { text: raw, end } of read.lines) {
      const text = raw.replace(ANSI, "");
      if (table) {
        if (text.startsWith("│")) {
          table.push(text);
          continue;
        }
        if (text.startsWith("├")) continue;
        // The table is complete at its bottom border (or broken off by another line: what was read of it counts).
        if (trainStep !== null) {
          const step = trainStep + statsIndex - 1;
          const { values, nonFinite: bad } = tableValues(table);
          nonFinite += bad;
          const item = metricsItem(clientId("areal", "m", step, sha(table.join("\n"), 12)), step, values);
          if (item) lines.push({ type: "metrics", ...item });
        }
        table = null;
        if (text.startsWith("╘")) {
          committed = end;
          continue;
        }
      }
      if (text.startsWith("╒")) {
        table = [];
        continue;
      }
      const ts = TRAIN_STEP.exec(text);
      if (ts) {
        trainStep = Number(ts[1]);
        statsIndex = 1;
      }
      const st = STATS.exec(text);
      if (st) statsIndex = Number(st[1]);
      if (COMPLETES.test(text)) ended = true;
      committed = end;
    }
    if (nonFinite) o.log(`${nonFinite} logged value(s) were nan or inf: left out`);
    // A table still being written is read again, from its first line, next time.
    return { log: { file, offset: committed, trainStep, statsIndex }, ended, more: read.more };
  }

  async function readDumps(prev: ArealState, lines: SpoolLine[]) {
    const state = { files: { ...prev.files }, versions: { ...prev.versions }, doneBelow: prev.doneBelow };
    let unsettled = 0;
    let taken = 0;
    let more = false;
    const versions = (await fs.readdir(rolloutDir).catch(() => [] as string[]))
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .filter((v) => v >= prev.doneBelow)
      .sort((a, b) => a - b);
    for (const version of versions) {
      if (more) break;
      const vdir = path.join(rolloutDir, String(version));
      const tasks = (await fs.readdir(vdir).catch(() => [] as string[]))
        .map((n) => /^(\d+)\.jsonl$/.exec(n))
        .filter((m): m is RegExpExecArray => !!m)
        .map((m) => Number(m[1]))
        .sort((a, b) => a - b);
      for (const task of tasks) {
        if (taken >= ROLLOUTS_PER_READ) {
          more = true;
          break;
        }
        const key = `${version}/${task}`;
        const file = path.join(vdir, `${task}.jsonl`);
        const stat = await fs.stat(file).catch(() => null);
        const offset = state.files[key] ?? 0;
        if (!stat || stat.size <= offset) continue;
        // The group's lines are appended one after another: a quiet file holds the whole group.
        if (stillSettling(stat.mtimeMs, o.settleMs)) {
          unsettled++;
          continue;
        }
        const read = await readCompleteLines(file, offset);
        const records = read.lines
          .map((l, n) => ({ n, end: l.end, rec: pyJson(l.text) as Record<string, unknown> | undefined }))
          .filter((r) => r.rec && typeof r.rec === "object");
        state.files[key] = read.lines.at(-1)?.end ?? offset;
        taken += records.length;
        if (!records.length) continue;
        const slot = (state.versions[version] = { ...(state.versions[version] ?? { next: 0, groups: 0 }) });
        const group = slot.groups++;
        const step = version + 1;
        // Line numbers count from the file's start, so a re-read gives the same client ids.
        const firstLine = offset === 0 ? 0 : await lineNumberAt(file, offset);
        for (const { n, rec } of records) {
          if (slot.next >= Math.min(o.rolloutsPerStep, ROLLOUTS_PER_STEP)) {
            o.log(`${key}: step ${step} already has ${slot.next} rollouts (at most ${o.rolloutsPerStep}); left out`);
            break;
          }
          const index = slot.next++;
          const line = arealRollout(
            rec!,
            {
              id: clientId("areal", version, task, firstLine + n),
              step,
              index,
              group,
              groupSize: records.length,
            },
            o,
          );
          if ("reason" in line) o.log(`${key} line ${firstLine + n + 1}: left out, ${line.reason}`);
          else lines.push({ type: "rollout", ...line.item });
        }
      }
    }
    // Old versions are done: drop their per-file positions so the state stays small.
    const newest = versions.at(-1);
    if (!more && unsettled === 0 && newest !== undefined && newest - KEPT_VERSIONS > state.doneBelow) {
      state.doneBelow = newest - KEPT_VERSIONS;
      for (const k of Object.keys(state.files)) if (Number(k.split("/")[0]) < state.doneBelow) delete state.files[k];
      for (const k of Object.keys(state.versions)) if (Number(k) < state.doneBelow) delete state.versions[k];
    }
    return { state, unsettled, more };
  }

  return {
    framework: "areal",
    sourceKey: dir,
    initialState: () => ({ log: null, files: {}, versions: {}, doneBelow: 0, ended: false }),

    async describeRun(): Promise<RunDescription | null> {
      if (!(await fs.stat(dir).catch(() => null))) return null;
      // <fileroot>/logs/<user>/<experiment>/<trial>
      const trial = path.basename(dir);
      const experiment = path.basename(path.dirname(dir));
      return {
        clientId: clientId("areal", dir),
        name: `${experiment}/${trial}`,
        config: { areal: { logPath: dir, experimentName: experiment, trialName: trial } },
      };
    },

    async read(prev: ArealState): Promise<SourceRead<ArealState>> {
      const lines: SpoolLine[] = [];
      const { log, ended, more } = await readLog(prev.log, lines);
      const dumps = await readDumps(prev, lines);
      const state: ArealState = { ...dumps.state, log, ended: prev.ended || ended };
      return {
        lines,
        state,
        more: more || dumps.more,
        // Over when the log says so and the last dumps have settled and been read.
        ...(state.ended && dumps.unsettled === 0 && !more && !dumps.more
          ? { finished: { status: "SUCCEEDED" as const, message: "AReaL: training completes" } }
          : {}),
      };
    },
  };
}

/** How many lines end before `offset` (a dump file appended to after it was read). */
async function lineNumberAt(file: string, offset: number): Promise<number> {
  const handle = await fs.open(file, "r");
  try {
    const buf = Buffer.alloc(offset);
    await handle.read(buf, 0, offset, 0);
    let n = 0;
    for (const b of buf) if (b === 0x0a) n++;
    return n;
  } finally {
    await handle.close();
  }
}

/** One dumped sample of a ParaVT episode: the trajectory from the chat-template text, the reward the trainer used. */
export function arealRollout(
  rec: Record<string, unknown>,
  at: { id: string; step: number; index: number; group: number; groupSize: number },
  o: RolloutDefaults,
) {
  const text = `${typeof rec.prompt === "string" ? rec.prompt : ""}${typeof rec.completion === "string" ? rec.completion : ""}`;
  const traj = trajectoryOfChatText(text);
  const completion = typeof rec.completion === "string" ? rec.completion : "";
  const reward = typeof rec.reward === "number" && Number.isFinite(rec.reward) ? rec.reward : null;
  const question = traj?.question ?? (typeof rec.prompt === "string" ? rec.prompt : "");
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  return rolloutLine({
    id: at.id,
    step: at.step,
    index: at.index,
    k: traj && traj.overviewTimestamps.length ? traj.overviewTimestamps.length : o.k,
    sample: { key: `areal:${sha(question)}`, question, answer: "", questionType: o.questionType },
    turns: traj?.turns ?? [{ rawText: completion, calls: callsOfText(completion) }],
    finalText: traj?.finalText ?? completion,
    prediction: traj?.prediction ?? null,
    correct: null,
    score: reward,
    rewardTerms: {
      ...(reward !== null ? { reward } : {}),
      group: at.group,
      groupIndex: num(rec.sample_idx) ?? 0,
      groupSize: at.groupSize,
      ...(num(rec.head_version) !== undefined ? { headVersion: num(rec.head_version)! } : {}),
      ...(num(rec.tail_version) !== undefined ? { tailVersion: num(rec.tail_version)! } : {}),
    },
    overviewTimestamps: traj?.overviewTimestamps ?? [],
  });
}
