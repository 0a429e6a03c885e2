// The Training tab's runs table (issue 41 item 11): a bounded page of the project's runs, each with
// its stored settings, what it ran on, the last and best value of every metric series and, for an
// evaluation, its summary figures. The series are summarised in SQL (an aggregate for the extremes,
// DISTINCT ON for the last point), so no metric row travels.
import { evalSummary } from "../../contracts/evals";
import { figuresOf, headlineOf } from "../../contracts/eval-quantities";
import { metricGoal, RUN_CONFIG_RECORD_KEYS } from "../../contracts/runs";
import {
  RUNS_TABLE_MAX_METRICS,
  type RunMetricSummary,
  type RunsTableEvalKey,
  type RunsTableInput,
  type RunsTableOutput,
  type RunsTableRow,
} from "../../contracts/training";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { toRunOutput } from "./runs";

const KINDS_OF = {
  training: ["sft", "rl"],
  sft: ["sft"],
  rl: ["rl"],
  eval: ["eval", "import"],
  all: ["sft", "rl", "eval", "import"],
} as const;

/** Bounds of the settings a row carries (a trainer's verbatim config can be any size). */
const MAX_CONFIG_VALUES = 300;
const MAX_CONFIG_TEXT = 200;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * A run's stored settings as the table carries them: without the attempt records
 * (RUN_CONFIG_RECORD_KEYS, shown on the run page), texts and arrays whose JSON passes
 * MAX_CONFIG_TEXT characters cut (an array becomes "[N items]"), at most MAX_CONFIG_VALUES values.
 */
function tableConfig(stored: unknown): { config: Record<string, unknown>; clipped: boolean } {
  const settings = Object.fromEntries(
    Object.entries(isObject(stored) ? stored : {}).filter(([k]) => !RUN_CONFIG_RECORD_KEYS.includes(k)),
  );
  let values = 0;
  let clipped = false;
  const walk = (v: unknown): unknown => {
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (values >= MAX_CONFIG_VALUES) {
          clipped = true;
          break;
        }
        out[k] = walk(x);
      }
      return out;
    }
    values++;
    if (typeof v === "string" && v.length > MAX_CONFIG_TEXT) {
      clipped = true;
      return `${v.slice(0, MAX_CONFIG_TEXT)}…`;
    }
    if (Array.isArray(v) && JSON.stringify(v).length > MAX_CONFIG_TEXT) {
      clipped = true;
      return `[${v.length} items]`;
    }
    return v;
  };
  return { config: walk(settings) as Record<string, unknown>, clipped };
}

/** An evaluation's table figures from its stored summary; null while it has none (still running). */
function evalTableFigures(summary: unknown): RunsTableRow["eval"] {
  const parsed = evalSummary.safeParse(summary);
  if (!parsed.success) return null;
  const s = parsed.data;
  const values: Record<RunsTableEvalKey, number | null> = {
    accuracy: null,
    score: null,
    mIoU: null,
    formatCompliance: s.formatCompliance?.rate ?? null,
    toolUsage: s.toolUsageRate,
    avgToolCalls: s.avgToolCalls,
    errors: s.errors,
  };
  for (const f of figuresOf(s)) values[f.quantity] = f.value;
  return { headline: headlineOf(s).quantity, values };
}

type SeriesRow = {
  run_id: string;
  name: string;
  points: number;
  last_step: number;
  last_value: number | null;
  min_value: number | null;
  max_value: number | null;
  run_last_step: number;
  run_series: number;
};

/**
 * Every series of `runIds`, the first RUNS_TABLE_MAX_METRICS of each run by name: points, last
 * step and value, and the finite extremes. NaN and infinities (a diverged loss) are never an
 * extreme, and a last value that is one reads null.
 */
async function seriesSummaries(runIds: string[]): Promise<SeriesRow[]> {
  if (runIds.length === 0) return [];
  return db().$queryRaw<SeriesRow[]>`
    WITH extremes AS (
      SELECT run_id, name, count(*)::int AS points, max(step) AS last_step,
        min(value) FILTER (WHERE value NOT IN ('NaN', 'Infinity', '-Infinity')) AS min_value,
        max(value) FILTER (WHERE value NOT IN ('NaN', 'Infinity', '-Infinity')) AS max_value
      FROM metrics WHERE run_id = ANY(${runIds}) GROUP BY run_id, name
    ), last AS (
      SELECT DISTINCT ON (run_id, name) run_id, name,
        CASE WHEN value IN ('NaN', 'Infinity', '-Infinity') THEN NULL ELSE value END AS last_value
      FROM metrics WHERE run_id = ANY(${runIds}) ORDER BY run_id, name, step DESC
    ), ranked AS (
      SELECT e.*, l.last_value,
        row_number() OVER (PARTITION BY e.run_id ORDER BY e.name) AS rank,
        max(e.last_step) OVER (PARTITION BY e.run_id) AS run_last_step,
        count(*) OVER (PARTITION BY e.run_id)::int AS run_series
      FROM extremes e JOIN last l USING (run_id, name)
    )
    SELECT run_id, name, points, last_step, last_value, min_value, max_value, run_last_step, run_series
    FROM ranked WHERE rank <= ${RUNS_TABLE_MAX_METRICS} ORDER BY run_id, name`;
}

function summaryOf(s: SeriesRow): RunMetricSummary {
  const goal = metricGoal(s.name);
  return {
    name: s.name,
    points: s.points,
    lastStep: s.last_step,
    last: s.last_value,
    goal,
    best: goal === "min" ? s.min_value : goal === "max" ? s.max_value : null,
  };
}

const idIn = (config: unknown, ...path: string[]): string | null => {
  let v: unknown = config;
  for (const key of path) v = isObject(v) ? v[key] : undefined;
  return typeof v === "string" ? v : null;
};

/**
 * The newest `limit` runs of the project of the asked kinds (default SFT and RL) and status, as
 * table rows. `more` is true when older ones match too.
 */
export async function listRunsTable(
  access: ProjectAccess,
  input: Omit<RunsTableInput, "projectId">,
): Promise<RunsTableOutput> {
  const found = await db().run.findMany({
    where: {
      projectId: access.projectId,
      kind: { in: [...KINDS_OF[input.kind ?? "training"]] },
      ...(input.status ? { status: input.status } : {}),
    },
    include: { createdBy: { select: { email: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const runs = found.slice(0, input.limit);
  if (runs.length === 0) return { rows: [], more: false };
  // The model a run used: an evaluation's column, else a training run's starting checkpoint in its
  // config; the dataset: a launch's datasetId, or the one an external run's rollouts go to.
  const modelOf = (r: (typeof runs)[number]) => r.modelId ?? idIn(r.config, "modelId");
  const datasetOf = (r: (typeof runs)[number]) =>
    idIn(r.config, "datasetId") ?? idIn(r.config, "external", "datasetId");
  const modelIds = [...new Set(runs.map(modelOf).filter((v) => v !== null))];
  const datasetIds = [...new Set(runs.map(datasetOf).filter((v) => v !== null))];
  const [series, models, datasets, produced] = await Promise.all([
    seriesSummaries(runs.map((r) => r.id)),
    db().model.findMany({
      where: { projectId: access.projectId, id: { in: modelIds } },
      select: { id: true, name: true },
    }),
    db().dataset.findMany({
      where: { projectId: access.projectId, id: { in: datasetIds } },
      select: { id: true, name: true },
    }),
    db().model.findMany({
      where: { projectId: access.projectId, kind: "NANO_CHECKPOINT" },
      select: { id: true, name: true, config: true },
    }),
  ]);
  const byRun = new Map<string, SeriesRow[]>();
  for (const s of series) byRun.set(s.run_id, [...(byRun.get(s.run_id) ?? []), s]);
  const modelById = new Map(models.map((m) => [m.id, m]));
  const datasetById = new Map(datasets.map((d) => [d.id, d]));
  const producedBy = new Map<string, { id: string; name: string }>();
  for (const m of produced) {
    const runId = idIn(m.config, "runId");
    if (runId) producedBy.set(runId, { id: m.id, name: m.name });
  }
  const rows = runs.map((r): RunsTableRow => {
    const own = byRun.get(r.id) ?? [];
    const steps = isObject(r.config) ? r.config.steps : undefined;
    const modelId = modelOf(r);
    const datasetId = datasetOf(r);
    const { config, clipped } = tableConfig(r.config);
    return {
      ...toRunOutput(r),
      durationS: r.startedAt && r.finishedAt ? (r.finishedAt.getTime() - r.startedAt.getTime()) / 1000 : null,
      totalSteps: typeof steps === "number" && Number.isInteger(steps) ? steps : null,
      lastStep: own[0]?.run_last_step ?? null,
      model: (modelId && modelById.get(modelId)) || null,
      dataset: (datasetId && datasetById.get(datasetId)) || null,
      producedModel: producedBy.get(r.id) ?? null,
      config,
      configClipped: clipped,
      metrics: own.map(summaryOf),
      metricsLeftOut: own.length ? own[0]!.run_series - own.length : 0,
      eval: r.kind === "eval" || r.kind === "import" ? evalTableFigures(r.summary) : null,
    };
  });
  return { rows, more: found.length > input.limit };
}
