import { z } from "zod";
import { dbInt, id, pageLimit, projectRef, storable, syncFirst } from "./common";
import { EVAL_QUANTITY_KEYS } from "./eval-quantities";
import { METRIC_GOALS, runOutput, runStatusSchema, TRAINING_ROLLOUT_STRIDE } from "./runs";

/** Model sizes of ParaVT-nano offered in the UI (context 2048 fits every default-suite example). */
export const NANO_PRESETS = {
  tiny: { width: 64, layers: 2, heads: 2, contextLength: 2048 },
  small: { width: 128, layers: 4, heads: 4, contextLength: 2048 },
  default: { width: 256, layers: 6, heads: 8, contextLength: 2048 },
} as const;
export type NanoPreset = keyof typeof NANO_PRESETS;

export const sftLaunchInput = projectRef.extend({
  datasetId: id,
  name: storable(z.string().trim().min(1).max(120)),
  preset: z.enum(["tiny", "small", "default"]).default("tiny"),
  steps: z.number().int().min(1).max(100_000).default(200),
  batchSize: z.number().int().min(1).max(64).default(4),
  lr: z.number().positive().max(1).default(1e-3),
  seed: dbInt.min(0).default(1),
  checkpointEvery: z.number().int().min(0).max(100_000).default(50),
});
export type SftLaunchInput = z.infer<typeof sftLaunchInput>;

/** What a train.sft Run stores in its config (the job reads it back, validated). */
export const sftRunConfig = sftLaunchInput.omit({ projectId: true });

export const metricSeriesInput = projectRef.extend({
  runId: id,
  names: z.array(z.string().min(1).max(100)).min(1).max(20),
  /** Points per series after downsampling (min/max preserving). */
  maxPoints: z.number().int().min(10).max(5000).default(600),
});

export const metricSeriesOutput = z.array(
  z.object({
    name: z.string(),
    total: z.number().int(),
    points: z.array(z.object({ step: z.number().int(), value: z.number() })),
  }),
);

/**
 * Overrides of the PARA-GRPO trainer config (issue 9 / SPEC §3) a launch may set. Client-safe
 * mirror of the exposed fields of @paravt/rl's `RlConfigSchema` (server-only) with readable
 * messages; the job re-validates the whole config with the trainer's own schema.
 */
export const rlOverrides = z
  .object({
    groupSize: z.number().int().min(2, "a GRPO group needs at least 2 rollouts").max(256).optional(),
    promptsPerStep: z.number().int().min(1, "at least 1 prompt per step").max(1024).optional(),
    maxNewTokens: z.number().int().min(1, "at least 1 new token per turn").max(32768).optional(),
    maxTurns: z.number().int().min(0).max(20, "at most 20 turns").optional(),
    maxParallel: z.number().int().min(1).max(64).optional(),
    temperature: z.number().gt(0, "the sampling temperature must be > 0").max(10).optional(),
    validationTemperature: z.number().min(0).max(10).optional(),
    lr: z.number().positive("the learning rate must be > 0").max(1, "a learning rate above 1 diverges").optional(),
    clip: z.number().gt(0).lt(1, "the PPO clip must be in (0, 1)").optional(),
    klCoef: z.number().min(0, "the KL coefficient cannot be negative").max(10).optional(),
    rewardBias: z.number().optional(),
    rewardScale: z.number().positive("the reward scale must be > 0").optional(),
    behaviourCap: z.number().min(1, "the behaviour weight cap must be >= 1").optional(),
    gradClip: z.number().positive().optional(),
    microBatchSize: z.number().int().min(1).max(1024).optional(),
    validateEvery: dbInt.min(0).optional(),
    validationSize: dbInt.min(0).optional(),
    formatWeight: z.number().min(0).max(100).optional(),
    anchorWeight: z.number().min(0).max(10).optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if ((o.validateEvery ?? 0) > 0 && !o.validationSize) {
      ctx.addIssue({ code: "custom", path: ["validationSize"], message: "validateEvery > 0 needs validationSize > 0" });
    }
  });
export type RlOverrides = z.infer<typeof rlOverrides>;

/** A step's stored rollouts are numbered within one index stride (contracts/runs.ts). */
export const MAX_KEPT_ROLLOUTS_PER_STEP = TRAINING_ROLLOUT_STRIDE - 1;

/**
 * How many leading rollouts of a step train.rl stores within the budget `keepRolloutsPerStep`
 * (issue 41 item 14): whole GRPO groups in batch order while they fit, so the group inspector
 * shows complete groups; when the first group alone is over the budget, its first `budget`
 * rollouts. Always a prefix of the step's rollouts (groups in batch order), so a stored rollout's
 * index is its position in the batch. `groupSizes`: the step's groups in batch order.
 */
export function keptRolloutCount(groupSizes: readonly number[], budget: number): number {
  let kept = 0;
  for (const size of groupSizes) {
    if (kept + size > budget) break;
    kept += size;
  }
  if (kept > 0 || budget <= 0) return kept;
  return Math.min(budget, groupSizes[0] ?? 0);
}

export const RL_PRESET_NAMES = ["para-grpo", "vanilla-grpo"] as const;

export const rlLaunchInput = projectRef.extend({
  /** A needle-suite dataset: its RL rows are the prompts. */
  datasetId: id,
  /** The starting policy (and frozen KL reference): a NANO_CHECKPOINT model; default the committed default checkpoint. */
  modelId: id.optional(),
  name: storable(z.string().trim().min(1).max(120)),
  /** SPEC §2 recipe. */
  preset: z.enum(RL_PRESET_NAMES).default("para-grpo"),
  steps: z.number().int().min(1, "at least 1 step").max(1_000_000).default(100),
  checkpointEvery: z.number().int().min(0).max(1_000_000).default(10),
  seed: dbInt.min(0).default(1),
  /**
   * Rollouts of each step stored as Episode rows (the group inspector and "rollouts of step N"):
   * whole GRPO groups in batch order until the budget is spent. The default keeps every rollout
   * of SPEC §3's batch (4 prompts x 8); at most one step's index stride (rolloutIndex = step *
   * 1000 + i). 0 stores none.
   */
  keepRolloutsPerStep: z
    .number()
    .int()
    .min(0)
    .max(MAX_KEPT_ROLLOUTS_PER_STEP, `at most ${MAX_KEPT_ROLLOUTS_PER_STEP} rollouts per step`)
    .default(64),
  overrides: rlOverrides.default({}),
});
export type RlLaunchInput = z.infer<typeof rlLaunchInput>;

/** What a train.rl Run stores in its config (plus the resolved starting checkpoint). */
export const rlRunConfig = rlLaunchInput.omit({ projectId: true }).extend({
  /** The starting checkpoint directory, resolved at launch (null: the committed default). */
  initialCheckpoint: z.string().min(1).nullable().default(null),
});
export type RlRunConfig = z.infer<typeof rlRunConfig>;

// ---------------------------------------------------------------------------------------------
// The Training tab's runs table (issue 41 items 8 and 11): one row per run, W&B style, with its
// settings and summary figures. Sorting, filtering, grouping and the columns are the page's, over
// the bounded answer.

export const TRAINING_RUN_KINDS = ["sft", "rl"] as const;
export type TrainingRunKind = (typeof TRAINING_RUN_KINDS)[number];

/**
 * Which runs the table lists: absent, SFT and RL (the Training tab's own runs); one of them;
 * `eval`, evaluations and imported reference outputs; `all`, every one of those. Infrastructure
 * jobs (kind `job`) are never listed: they are under Jobs.
 */
export const RUNS_TABLE_KINDS = ["sft", "rl", "eval", "all"] as const;
export type RunsTableKind = (typeof RUNS_TABLE_KINDS)[number];

/** The most runs one answer holds, newest first (`more` says older ones were left out). */
export const RUNS_TABLE_MAX_RUNS = 500;
/** Metric series summarised per run, by name; a run with more counts the rest in `metricsLeftOut`. */
export const RUNS_TABLE_MAX_METRICS = 200;

export const runsTableInput = projectRef.extend({
  kind: z.enum(RUNS_TABLE_KINDS).optional(),
  status: runStatusSchema.optional(),
  limit: pageLimit(RUNS_TABLE_MAX_RUNS, 200),
});
export type RunsTableInput = z.infer<typeof runsTableInput>;

/** One metric series of a run, summarised in SQL (never loaded point by point). */
export const runMetricSummary = z.object({
  name: z.string(),
  points: z.number().int(),
  lastStep: z.number().int(),
  /** The value at the last step; null when it is not a finite number (a diverged loss). */
  last: z.number().nullable(),
  /** contracts/runs.ts `metricGoal`. */
  goal: z.enum(METRIC_GOALS).nullable(),
  /** The lowest (goal min) or highest (goal max) finite value; null without a goal. */
  best: z.number().nullable(),
});
export type RunMetricSummary = z.infer<typeof runMetricSummary>;

/**
 * The figures of an evaluation's summary the table offers as columns: the per-question-type
 * quantities of contracts/eval-quantities.ts (0..1), format compliance and tool usage (shares),
 * average tool calls and ERROR episodes.
 */
export const RUNS_TABLE_EVAL_KEYS = [
  ...EVAL_QUANTITY_KEYS,
  "formatCompliance",
  "toolUsage",
  "avgToolCalls",
  "errors",
] as const;
export type RunsTableEvalKey = (typeof RUNS_TABLE_EVAL_KEYS)[number];

const named = z.object({ id: z.string(), name: z.string() });

export const runsTableRow = runOutput.extend({
  /** Seconds from start to finish; null until the run finished. */
  durationS: z.number().nullable(),
  /** The configured step count (null when the run's config does not say). */
  totalSteps: z.number().int().nullable(),
  /** The last step with a stored metric (null before the first). */
  lastStep: z.number().int().nullable(),
  /** The model the run trained from or evaluated. */
  model: named.nullable(),
  /** The dataset it trained or evaluated on. */
  dataset: named.nullable(),
  /** The model the run registered (train.sft / train.rl record their run id in the model's config). */
  producedModel: named.nullable(),
  /**
   * The stored settings (the worker and attempt log left out; texts over 200 characters and long
   * arrays clipped, at most 300 values): the page resolves the defaults and flattens them.
   */
  config: z.record(z.string(), z.unknown()),
  configClipped: z.boolean(),
  metrics: z.array(runMetricSummary),
  metricsLeftOut: z.number().int(),
  /** An evaluation's summary figures (null for training runs and before an evaluation's summary). */
  eval: z
    .object({
      /** The run's headline quantity (eval-quantities.ts `headlineOf`). */
      headline: z.enum(EVAL_QUANTITY_KEYS),
      values: z.record(z.enum(RUNS_TABLE_EVAL_KEYS), z.number().nullable()),
    })
    .nullable(),
});
export type RunsTableRow = z.infer<typeof runsTableRow>;

export const runsTableOutput = syncFirst(
  z.object({
    rows: z.array(runsTableRow),
    /** Whether older runs matching the same kind and status were left out by the limit. */
    more: z.boolean(),
  }),
);
export type RunsTableOutput = z.infer<typeof runsTableOutput>;
