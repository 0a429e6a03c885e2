import { z } from "zod";
import { DB_INT_MAX, DB_INT_MIN, dbInt, id, pageLimit, projectRef, syncFirst } from "./common";

export const RUN_STATUSES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"] as const;
export const runStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatusSchema>;
export const RUN_KINDS = ["sft", "rl", "eval", "import", "job"] as const;

export const TERMINAL_STATUSES: readonly RunStatus[] = ["SUCCEEDED", "FAILED", "CANCELLED"];

export const runListInput = projectRef.extend({
  status: runStatusSchema.optional(),
  limit: pageLimit(200, 50),
});

export const runRefInput = projectRef.extend({ runId: id });

export const runOutput = z.object({
  id: z.string(),
  kind: z.enum(RUN_KINDS),
  jobName: z.string(),
  name: z.string(),
  status: runStatusSchema,
  progress: z.number(),
  message: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  createdBy: z.string().nullable(),
});
export type RunOutput = z.infer<typeof runOutput>;

/** Series an event names at most; a change of more names them all (`names` absent). */
export const RUN_CHANGE_MAX_NAMES = 64;
/** Episode ids an event carries at most; more are only counted. */
export const RUN_CHANGE_MAX_IDS = 100;

/**
 * What a run event says changed besides the row's progress, message and error (which every event
 * carries), so a live page refetches only the reads that show it (issue 42 item 1;
 * `live/run-event-plan.ts` maps it to query families). `{}`: only the row's progress or message.
 */
export const runChangeSchema = z.object({
  /** The status moved (queued, running, finished): run lists, and what a finished run made. */
  status: z.literal(true).optional(),
  /** New metric points, at steps fromStep..toStep, of the named series (absent: any series). */
  metrics: z
    .object({
      names: z.array(z.string()).max(RUN_CHANGE_MAX_NAMES).optional(),
      fromStep: z.number().int(),
      toStep: z.number().int(),
      /**
       * Some point landed at or before a step its series already had (an out-of-order batch): a
       * chart holding the series reads it again instead of appending.
       */
      backfill: z.literal(true).optional(),
    })
    .refine((m) => m.fromStep <= m.toStep, { message: "fromStep <= toStep" })
    .optional(),
  /** Newly stored episodes (rollouts, evaluated samples): how many, and their ids when known. */
  episodes: z
    .object({ count: z.number().int().min(0), ids: z.array(z.string()).max(RUN_CHANGE_MAX_IDS).optional() })
    .optional(),
});
export type RunChange = z.infer<typeof runChangeSchema>;
export type MetricsChange = NonNullable<RunChange["metrics"]>;
export type EpisodesChange = NonNullable<RunChange["episodes"]>;

/** `changed.episodes` of newly stored episodes: their ids too when few enough to list. */
export function episodesChange(ids: readonly string[]): EpisodesChange {
  return { count: ids.length, ...(ids.length <= RUN_CHANGE_MAX_IDS ? { ids: [...ids] } : {}) };
}

/** What travels over Redis pub/sub and SSE when a run changes. */
export const runEventSchema = z.object({
  projectId: z.string(),
  runId: z.string(),
  /** Which pages care (a training run's steps, an evaluation's samples, a job's products). */
  kind: z.enum(RUN_KINDS),
  status: runStatusSchema,
  progress: z.number(),
  message: z.string().nullable(),
  error: z.string().nullable(),
  at: z.string(),
  /** Absent: not said (a publisher that predates it): a page refetches all it shows of the run. */
  changed: runChangeSchema.optional(),
});
export type RunEvent = z.infer<typeof runEventSchema>;

/**
 * What the live subscription sends: first `subscribed` once the server listens (anything that
 * happened before it must be refetched, e.g. after a reconnect), then one `run` per change.
 */
export const liveRunMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("subscribed") }),
  z.object({ type: z.literal("run"), event: runEventSchema }),
]);
export type LiveRunMessage = z.infer<typeof liveRunMessageSchema>;

// ---------------------------------------------------------------------------------------------
// Training dashboard (issue 9): metric series by step or wall time, zoom windows, export, config
// diff. Generic over metric names, so SFT and RL runs share every procedure.

const metricName = z.string().min(1).max(100);
/** The x axis of a chart: the optimizer step, or seconds since the run's first metric. */
export const metricXSchema = z.enum(["step", "time"]);
export type MetricX = z.infer<typeof metricXSchema>;

/**
 * A zoom window in x units (steps, or seconds since the first metric), both ends included. Steps
 * are int4, and seconds within int4's range are 68 years, so both ends stay within it.
 */
const metricRangeEnd = z.number().finite().min(DB_INT_MIN).max(DB_INT_MAX);
export const metricRangeSchema = z
  .object({ from: metricRangeEnd, to: metricRangeEnd })
  .refine((r) => r.from <= r.to, { message: "A zoom window needs from <= to" });

export const metricQueryInput = projectRef.extend({
  runId: id,
  names: z.array(metricName).min(1).max(64),
  /**
   * Points per series after downsampling (min/max preserving, DESIGN.md "Charts"). The window's
   * last point is always among them, so a live chart knows the step it holds up to.
   */
  maxPoints: z.number().int().min(10).max(5000).default(600),
  x: metricXSchema.default("step"),
  range: metricRangeSchema.optional(),
});
export type MetricQueryInput = z.infer<typeof metricQueryInput>;

/**
 * A live chart's new points (issue 42 item 1): per series, the points of the window after the last
 * step the chart holds (`afterStep`; null: it holds none) and up to `untilStep`, downsampled like
 * `metricQueryInput` when more than maxPoints. tRPC only: what a page asks after a run event, not a script's read.
 */
export const metricSinceInput = metricQueryInput.omit({ names: true }).extend({
  series: z
    .array(z.object({ name: metricName, afterStep: dbInt.nullable() }))
    .min(1)
    .max(64),
  /**
   * Up to this step (the event's last): a chart never holds points no event has announced yet, so
   * the next event's points all come after what it holds.
   */
  untilStep: dbInt.optional(),
});
export type MetricSinceInput = z.infer<typeof metricSinceInput>;

/** One point: step, seconds since the run's first metric (t), value. */
export interface MetricPoint {
  step: number;
  t: number;
  value: number;
}

/**
 * One series of a chart, as columns: point i is (steps[i], t[i], values[i]), in step order; t in
 * seconds since the run's first metric. Columns, not one object per point: a 6-series chart of
 * 1,000 points is 18 arrays instead of 6,000 objects, which the server validates, checks and
 * writes in ~60 % of the time and sends in 60 % of the bytes (bench/metrics/README.md).
 */
export const metricSeriesSchema = z
  .object({
    name: z.string(),
    /** Points in the window before downsampling. */
    total: z.number().int(),
    steps: z.array(z.number().int()),
    t: z.array(z.number()),
    values: z.array(z.number()),
  })
  .refine((s) => s.steps.length === s.t.length && s.t.length === s.values.length, {
    message: "steps, t and values must be of the same length",
  });
export type MetricSeries = z.infer<typeof metricSeriesSchema>;

export const metricQueryOutput = syncFirst(z.array(metricSeriesSchema));
export type MetricQueryOutput = z.infer<typeof metricQueryOutput>;

/** A series' points as objects (what a chart draws). */
export function seriesPoints(s: Pick<MetricSeries, "steps" | "t" | "values">): MetricPoint[] {
  return s.steps.map((step, i) => ({ step, t: s.t[i]!, value: s.values[i]! }));
}

/** Points as a series' columns. */
export function seriesColumns(points: readonly MetricPoint[]): Pick<MetricSeries, "steps" | "t" | "values"> {
  return { steps: points.map((p) => p.step), t: points.map((p) => p.t), values: points.map((p) => p.value) };
}

/** The last step a series holds (null: none). */
export const lastStepOf = (s: Pick<MetricSeries, "steps">): number | null => s.steps.at(-1) ?? null;

export const metricNamesOutput = z.array(
  z.object({ name: z.string(), count: z.number().int(), firstStep: z.number().int(), lastStep: z.number().int() }),
);
export type MetricNamesOutput = z.infer<typeof metricNamesOutput>;

export const METRIC_EXPORT_FORMATS = ["csv", "json"] as const;
export const metricExportInput = projectRef.extend({
  runId: id,
  names: z.array(metricName).min(1).max(64),
  format: z.enum(METRIC_EXPORT_FORMATS),
  /** Pagination by step: the page starts after this step (omit for the first page). */
  afterStep: dbInt.optional(),
  /** Steps per page; every series' value at those steps is in the page. */
  limitSteps: z.number().int().min(1).max(20_000).default(5_000),
});
export type MetricExportInput = z.infer<typeof metricExportInput>;

/**
 * One page of an export, all points (no downsampling). CSV: wide rows `step,time_s,<names...>`
 * with the header on the first page only, so pages concatenate into one file. JSON: the rows
 * as objects. nextAfterStep is null on the last page.
 */
export const metricExportOutput = z.object({
  format: z.enum(METRIC_EXPORT_FORMATS),
  content: z.string(),
  rows: z.number().int(),
  nextAfterStep: z.number().int().nullable(),
});
export type MetricExportOutput = z.infer<typeof metricExportOutput>;

/**
 * A JSON config flattened to dotted keys; arrays and scalars are leaves (JSON-encoded), undefined
 * is left out. One definition for the server's `runs.configDiff` and the run page's resolved config.
 */
export function flattenConfig(value: unknown, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out[prefix] = "{}";
    for (const [k, v] of entries) flattenConfig(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix && value !== undefined) {
    out[prefix] = JSON.stringify(value);
  }
  return out;
}

/** Which end of a metric is its best value: "min" for losses, "max" for accuracies and rewards. */
export const METRIC_GOALS = ["min", "max"] as const;
export type MetricGoal = (typeof METRIC_GOALS)[number];

/**
 * A metric name as words: lower case, the separators ingestion allows (`_ . / : -`) as `_`, a
 * leading `train_` (W&B's `train/loss`) and a validation prefix (`val_accuracy` is an accuracy)
 * dropped, and a `_k<K>` suffix (`accuracy_k16`) too.
 */
function metricWords(name: string): string {
  return name
    .toLowerCase()
    .replace(/[./:-]/g, "_")
    .replace(/^train_/, "")
    .replace(/^(val|valid|validation|eval|test)_/, "")
    .replace(/_k\d+$/, "");
}

/**
 * THE direction of a metric (a runs table's "best" column, a summary's best value): lower is
 * better for losses, perplexities, error and truncation rates; higher for accuracies, rewards,
 * returns, scores, IoU, recall / precision / F1, compliance and other rates (`tool_call_rate`);
 * null for the rest (`lr`, `kl`, `entropy`, `grad_norm`, timings, a spread such as `reward_std`),
 * which have no best value. The lower-is-better test comes first, so `error_rate` and
 * `truncated_turn_rate` are "min" though they are rates.
 */
export function metricGoal(name: string): MetricGoal | null {
  const n = metricWords(name);
  // Spreads of a quantity and rates that are settings or throughput, not outcomes.
  if (/(^|_)(std|stdev|var|variance)$|(^|_)(lr|learning_rate|dropout_rate|frame_rate|sample_rate|bit_rate)$/.test(n))
    return null;
  if (/(^|_)(loss|nll|perplexity|ppl|errors?|wer|cer|truncated|truncation|degenerate)(_|$)/.test(n)) return "min";
  const outcome =
    /(^|_)(accuracy|acc|rewards?|returns?|score|iou|miou|recall|precision|f1|compliance|rate|success)(_|$)/;
  return outcome.test(n) ? "max" : null;
}

export const configDiffInput = projectRef.extend({ runIds: z.array(id).min(2).max(8) });
export const configDiffOutput = z.object({
  runs: z.array(z.object({ id: z.string(), name: z.string() })),
  /** Dotted keys whose values differ between runs; values JSON-encoded, null when absent. */
  rows: z.array(z.object({ key: z.string(), values: z.array(z.string().nullable()) })),
  /** How many keys are the same in every run (not listed). */
  same: z.number().int(),
});
export type ConfigDiffOutput = z.infer<typeof configDiffOutput>;

/**
 * The worker process that took a run's last attempt: its host and pid, and, from a worker process
 * (not an in-process test worker), the compute core's backend and device it announced
 * (contracts/workers.ts). Read from the last entry of `config.workerAttempts`; rows from before
 * that log kept this object alone in `config.worker` (host and pid only, before issue 39).
 */
export const runWorkerSchema = z.object({
  host: z.string(),
  pid: z.number().int(),
  attempt: z.number().int().optional(),
  backend: z.string().optional(),
  device: z.string().optional(),
});
export type RunWorker = z.infer<typeof runWorkerSchema>;

/**
 * How an attempt ended: "retrying" failed with retries left, "interrupted" stopped without
 * writing its end (its worker was killed or lost the job's lock, the database was away, the job
 * was moved off the gpu queue): the next attempt, or the reconciler, says so.
 */
export const RUN_ATTEMPT_OUTCOMES = ["succeeded", "failed", "retrying", "cancelled", "interrupted"] as const;

/**
 * One entry of a run's attempt log (`config.workerAttempts`, services/run-attempts.ts), written
 * when a delivery starts and completed when it ends (absent `outcome`: still running). An
 * evaluation also lists each worker process that ran any of its shards (`shards: true`, no
 * attempt: shards are parts of one attempt, retried on their own).
 */
export const runAttemptSchema = runWorkerSchema.extend({
  shards: z.literal(true).optional(),
  /** The queue that delivered it: "gpu" or "cpu" (issue 39 item 6). */
  queue: z.string().optional(),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().optional(),
  outcome: z.enum(RUN_ATTEMPT_OUTCOMES).optional(),
  reason: z.string().optional(),
});
export type RunAttempt = z.infer<typeof runAttemptSchema>;

/** Keys of Run.config that record what ran the run, not settings (left out of every settings view). */
export const RUN_CONFIG_RECORD_KEYS: readonly string[] = ["worker", "workerAttempts"];

/**
 * A run's config as stored (the attempt log apart; an eval's says how many samples it covers,
 * whose ids are rows of their own) with what the run page shows beside it: the worker of the last
 * attempt, every attempt, the dataset and the model it names. The page fills the defaults in from
 * the launch contracts (apps/web components/runs/run-config.ts).
 */
export const runConfigOutput = z.object({
  id: z.string(),
  kind: z.enum(RUN_KINDS),
  name: z.string(),
  status: runStatusSchema,
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  config: z.record(z.string(), z.unknown()),
  /** An evaluation's number of samples (its `config.sampleCount`); null for every other run. */
  sampleCount: z.number().int().nullable(),
  worker: runWorkerSchema.nullable(),
  /** Oldest first; the newest MAX_RUN_ATTEMPT_ENTRIES are kept. */
  attempts: z.array(runAttemptSchema),
  dataset: z.object({ id: z.string(), name: z.string() }).nullable(),
  model: z.object({ id: z.string(), name: z.string() }).nullable(),
});
/** How many attempt-log entries a run keeps (a long database outage defers a job many times). */
export const MAX_RUN_ATTEMPT_ENTRIES = 50;
export type RunConfigOutput = z.infer<typeof runConfigOutput>;

// ---------------------------------------------------------------------------------------------
// Rollouts of a training step (issue 9: "click a point -> that step's rollouts"). train.rl keeps
// a few rollouts of every step as Episode rows with rolloutIndex = step * stride + i, so one step's
// rollouts are the index range [step * stride, step * stride + stride - 1] of the run.

/** rolloutIndex = step * TRAINING_ROLLOUT_STRIDE + i (i < stride) for train.rl's sample rollouts. */
export const TRAINING_ROLLOUT_STRIDE = 1000;
/** rolloutIndex is a 32-bit column: the last step whose whole index range fits. */
export const MAX_ROLLOUT_STEP = Math.floor((2 ** 31 - TRAINING_ROLLOUT_STRIDE) / TRAINING_ROLLOUT_STRIDE);

export const stepRolloutsInput = projectRef.extend({
  runId: id,
  step: z.number().int().min(0).max(MAX_ROLLOUT_STEP),
});
export type StepRolloutsInput = z.infer<typeof stepRolloutsInput>;

/**
 * SPEC §2 reward terms as train.rl stored them (reward, accReward, formatReward, toolReward, plus
 * flags such as degenerate / formatCompliant and the rollout seed); only scalar entries are kept.
 */
export const rewardTermsSchema = z.record(z.string(), z.union([z.number(), z.boolean(), z.string()]));
export type RewardTerms = z.infer<typeof rewardTermsSchema>;

export const stepRolloutOutput = z.object({
  episodeId: z.string(),
  /** i of rolloutIndex = step * stride + i. */
  rollout: z.number().int(),
  rolloutIndex: z.number().int(),
  sample: z.object({ id: z.string(), key: z.string(), answer: z.string() }),
  k: z.number().int(),
  promptMode: z.string(),
  status: z.enum(["OK", "ERROR"]),
  error: z.string().nullable(),
  prediction: z.string().nullable(),
  correct: z.boolean().nullable(),
  score: z.number().nullable(),
  toolCallCount: z.number().int(),
  rewardTerms: rewardTermsSchema.nullable(),
});
export type StepRolloutOutput = z.infer<typeof stepRolloutOutput>;

export const stepRolloutsOutput = syncFirst(
  z.object({
    step: z.number().int(),
    /** The step's stored rollouts in rollout order (empty when the step kept none). */
    items: z.array(stepRolloutOutput),
    /** The closest steps before / after `step` that have rollouts (null at either end). */
    prev: z.number().int().nullable(),
    next: z.number().int().nullable(),
    /** With no rollouts at `step`: the closest step that has some (the earlier one on a tie). */
    nearest: z.number().int().nullable(),
  }),
);
export type StepRolloutsOutput = z.infer<typeof stepRolloutsOutput>;

export const episodeStepInput = projectRef.extend({ episodeId: id });

/** Where an episode sits in its training run; null output for an episode of any other run. */
export const episodeStepOutput = z
  .object({
    run: z.object({ id: z.string(), name: z.string() }),
    step: z.number().int(),
    rollout: z.number().int(),
    rewardTerms: rewardTermsSchema.nullable(),
  })
  .nullable();
export type EpisodeStepOutput = z.infer<typeof episodeStepOutput>;
