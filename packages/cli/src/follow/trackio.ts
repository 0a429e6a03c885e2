// Trackio's local store (gradio-app/trackio, trackio/sqlite_storage.py): one SQLite database per
// project, `<TRACKIO_DIR>/<project>.db` (TRACKIO_DIR defaults to $HF_HOME/trackio; the file name is
// `canonical_project_name`: only [A-Za-z0-9_-] kept). `SQLiteStorage.init_db` creates the tables
// this reads:
//   metrics(id INTEGER PRIMARY KEY AUTOINCREMENT, run_id, timestamp, run_name, step, metrics TEXT,
//           log_id, space_id)   one row per `trackio.log()`, `metrics` the orjson of
//                               `serialize_values(dict)` (NaN / ±inf as "NaN" / "Infinity" strings)
//   traces(id TEXT PRIMARY KEY, run_id, timestamp, run_name, step, key, trace_index, messages,
//          metadata, search_text, log_id, space_id)   one row per `trackio.Trace` inside a logged
//                               value (`_split_trace_metrics`), id `<run_id>:<log_id>:<key>[:<i>]`
//   configs(run_id, run_name, config, created_at)    the run's config
// The trainer writes it concurrently (journal_mode WAL, `_configure_sqlite_pragmas`): we open it
// read-only for each read, and follow rows by their ever-growing ids (AUTOINCREMENT for metrics,
// the rowid for traces), so a committed row is read exactly once.
import path from "node:path";
import fs from "node:fs/promises";
import type { Converter, RunDescription, SourceRead, SpoolLine } from "./follow";
import { trajectoryOfMessages } from "./chat";
import {
  clientId,
  GroupNumbering,
  isoTime,
  metricsItem,
  metricValues,
  ROLLOUTS_PER_STEP,
  rolloutLine,
  sha,
} from "./items";
import type { RolloutDefaults } from "./options";
import { openSqlite, type SqliteDatabase } from "./sqlite";

/** trackio/utils.py `canonical_project_name`: the database's file name for a project. */
export function canonicalProjectName(project: string): string {
  const safe = [...project].filter((c) => /[A-Za-z0-9_-]/.test(c)).join("");
  return safe || "default";
}

/** The database: a `.db` file, or `<dir>/<canonical project>.db` (or the dir's only project database). */
export async function trackioDatabase(source: string, project?: string): Promise<string> {
  const stat = await fs.stat(source).catch(() => null);
  if (stat?.isFile()) return source;
  if (!stat?.isDirectory()) throw new Error(`${source} is neither a trackio database nor a trackio directory`);
  if (project) return path.join(source, `${canonicalProjectName(project)}.db`);
  const dbs = (await fs.readdir(source)).filter((n) => n.endsWith(".db") && !n.startsWith("registry-"));
  if (dbs.length === 1) return path.join(source, dbs[0]!);
  throw new Error(
    dbs.length
      ? `${source} holds several trackio projects (${dbs.map((n) => n.slice(0, -3)).join(", ")}): name one with --project`
      : `${source} holds no trackio project database yet: name one with --project`,
  );
}

interface StepGroups {
  groups: Record<string, [number, number]>;
  next: number;
}

export interface TrackioState {
  /** The run followed (its run_id, or its name in databases from before run ids). */
  run: string | null;
  lastMetricId: number;
  lastTraceRowid: number;
  /** Per step: GRPO group numbers and the next rollout index (only recent steps are kept). */
  steps: Record<string, StepGroups>;
}

/** Steps whose group numbering is kept: traces of older steps than this behind the newest are rare. */
const KEPT_STEPS = 64;
const PAGE = 2000;

type Row = Record<string, unknown>;

const jsonOf = (text: unknown): unknown => {
  if (typeof text !== "string") return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

export interface TrackioOptions extends RolloutDefaults {
  /** A .db file or a trackio directory. */
  source: string;
  project?: string;
  /** Which run of the project (its name or run_id); default: the project's only run. */
  sourceRun?: string;
  log(message: string): void;
}

export async function trackioConverter(o: TrackioOptions): Promise<Converter<TrackioState>> {
  const dbPath = path.resolve(await trackioDatabase(o.source, o.project));
  const projectName = path.basename(dbPath, ".db");
  /** A read-only connection for one read: a database rebuilt under the same path is seen anew. */
  const withDb = async <T>(fn: (db: SqliteDatabase, cols: Set<string>) => T): Promise<T | null> => {
    if (!(await fs.stat(dbPath).catch(() => null))) return null;
    const db = await openSqlite(dbPath, { readonly: true, fileMustExist: true, timeout: 10_000 });
    try {
      const tables = new Set(
        (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Row[]).map((r) => String(r.name)),
      );
      if (!tables.has("metrics")) return null;
      const cols = new Set((db.prepare("PRAGMA table_info(metrics)").all() as Row[]).map((r) => String(r.name)));
      if (tables.has("traces")) cols.add("#traces");
      if (tables.has("configs")) cols.add("#configs");
      return fn(db, cols);
    } finally {
      db.close();
    }
  };

  /** Runs of the database, newest first (by first logged time), as trackio's `_resolve_run_identity` orders them. */
  const runs = (db: SqliteDatabase, cols: Set<string>) => {
    const key = cols.has("run_id") ? "run_id" : "run_name";
    return db
      .prepare(
        `SELECT ${key} AS run, MAX(run_name) AS name, MIN(timestamp) AS first FROM metrics GROUP BY ${key} ORDER BY first DESC`,
      )
      .all() as { run: string; name: string; first: string }[];
  };

  const pickRun = (db: SqliteDatabase, cols: Set<string>): { run: string; name: string } | null => {
    const all = runs(db, cols);
    if (o.sourceRun) return all.find((r) => r.run === o.sourceRun) ?? all.find((r) => r.name === o.sourceRun) ?? null;
    if (all.length > 1) {
      throw new Error(
        `${dbPath} holds ${all.length} runs (${all
          .slice(0, 10)
          .map((r) => r.name)
          .join(", ")}${all.length > 10 ? ", …" : ""}): name one with --source-run`,
      );
    }
    return all[0] ?? null;
  };

  let chosen: { run: string; name: string } | null = null;
  const chosenRun = async () => (chosen ??= await withDb(pickRun));

  const sourceKey = `${dbPath}#${o.sourceRun ?? ""}`;

  return {
    framework: "trackio",
    sourceKey,
    initialState: () => ({ run: null, lastMetricId: 0, lastTraceRowid: 0, steps: {} }),

    async describeRun(): Promise<RunDescription | null> {
      const run = await chosenRun();
      if (!run) return null;
      const config = await withDb((db, cols) => {
        if (!cols.has("#configs")) return {};
        const key = cols.has("run_id") ? "run_id" : "run_name";
        const row = db.prepare(`SELECT config FROM configs WHERE ${key} = ? ORDER BY id DESC LIMIT 1`).get(run.run) as
          Row | undefined;
        const parsed = jsonOf(row?.config);
        return parsed && typeof parsed === "object" && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : {};
      });
      return {
        clientId: clientId("trackio", projectName, run.run),
        name: run.name,
        config: { ...config, trackio: { project: projectName, run: run.name, runId: run.run } },
      };
    },

    async read(prev: TrackioState): Promise<SourceRead<TrackioState>> {
      const run = await chosenRun();
      if (!run) return { lines: [], state: prev };
      if (prev.run && prev.run !== run.run) {
        throw new Error(`the saved position belongs to run ${prev.run} of ${dbPath}, not ${run.run}`);
      }
      const state: TrackioState = { ...prev, run: run.run, steps: { ...prev.steps } };
      const lines: SpoolLine[] = [];
      let nonFinite = 0;
      let more = false;
      await withDb((db, cols) => {
        const key = cols.has("run_id") ? "run_id" : "run_name";
        const logId = cols.has("log_id") ? "log_id" : "NULL AS log_id";
        const metrics = db
          .prepare(
            `SELECT id, timestamp, step, metrics, ${logId} FROM metrics WHERE ${key} = ? AND id > ? ORDER BY id LIMIT ${PAGE}`,
          )
          .all(run.run, prev.lastMetricId) as Row[];
        more = metrics.length === PAGE;
        for (const r of metrics) {
          state.lastMetricId = Number(r.id);
          const data = jsonOf(r.metrics);
          if (!data || typeof data !== "object" || Array.isArray(data)) continue;
          const { values, nonFinite: bad } = metricValues(data as Record<string, unknown>);
          nonFinite += bad.length;
          // log_id is the uuid trackio gives each log call; the row id where there is none.
          const id =
            typeof r.log_id === "string" && r.log_id
              ? clientId("trackio", r.log_id)
              : clientId("trackio", "m", r.id as number);
          const item = metricsItem(id, Number(r.step), values, isoTime(r.timestamp));
          if (item) lines.push({ type: "metrics", ...item });
        }
        if (!cols.has("#traces")) return;
        const traces = db
          .prepare(
            `SELECT rowid AS rid, id, step, messages, metadata FROM traces WHERE run_id = ? AND rowid > ? ORDER BY rowid LIMIT ${PAGE}`,
          )
          .all(run.run, prev.lastTraceRowid) as Row[];
        more ||= traces.length === PAGE;
        for (const t of traces) {
          state.lastTraceRowid = Number(t.rid);
          const line = traceLine(t, state, o);
          if (line) lines.push(line);
        }
      });
      if (nonFinite)
        o.log(`${nonFinite} metric value(s) were NaN or infinite: left out (the API takes finite numbers)`);
      // Forget the group numbering of old steps, so the saved state stays small.
      const steps = Object.keys(state.steps)
        .map(Number)
        .sort((a, b) => a - b);
      for (const s of steps.slice(0, Math.max(0, steps.length - KEPT_STEPS))) delete state.steps[s];
      return { lines, state, more };
    },
  };

  function traceLine(t: Row, state: TrackioState, opts: TrackioOptions): SpoolLine | null {
    const step = Number(t.step);
    const messages = jsonOf(t.messages);
    const meta = (jsonOf(t.metadata) ?? {}) as Record<string, unknown>;
    if (!Array.isArray(messages) || !Number.isInteger(step) || step < 0) return null;
    const traj = trajectoryOfMessages(messages);
    const slot = (state.steps[step] = { ...(state.steps[step] ?? { groups: {}, next: 0 }) });
    const cap = Math.min(opts.rolloutsPerStep, ROLLOUTS_PER_STEP);
    if (slot.next >= cap) {
      opts.log(`trace ${String(t.id)}: step ${step} already has ${cap} rollouts (--rollouts-per-step); left out`);
      return null;
    }
    // TRL's async GRPO puts the GRPO group in metadata.group_id; otherwise the prompt is the group.
    const groupKey = meta.group_id !== undefined ? `g:${String(meta.group_id)}` : `q:${traj.question}`;
    const numbering = new GroupNumbering(slot.groups);
    const { group, groupIndex } = numbering.add(groupKey);
    slot.groups = numbering.toJSON();
    const index = slot.next++;
    const terms: Record<string, number | boolean> = {};
    for (const [k, v] of Object.entries(meta)) if (typeof v === "number" || typeof v === "boolean") terms[k] = v;
    const reward = typeof meta.reward === "number" ? meta.reward : null;
    const answer = [meta.answer, meta.ground_truth, meta.solution].find((v) => typeof v === "string") as
      string | undefined;
    const r = rolloutLine({
      id: clientId("trackio", "t", String(t.id)),
      step,
      index,
      k: typeof meta.k === "number" ? meta.k : opts.k,
      sample: {
        key: `trackio:${sha(traj.question)}`,
        question: traj.question,
        answer: answer ?? "",
        questionType: opts.questionType,
      },
      turns: traj.turns,
      finalText: traj.finalText,
      prediction: traj.prediction,
      correct: null,
      score: reward,
      rewardTerms: { ...terms, ...(reward !== null ? { reward } : {}), group, groupIndex },
      overviewTimestamps: traj.overviewTimestamps,
    });
    if ("reason" in r) {
      opts.log(`trace ${String(t.id)}: left out, ${r.reason}`);
      return null;
    }
    return { type: "rollout", ...r.item };
  }
}
