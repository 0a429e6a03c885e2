import { z } from "zod";
import { dbInt, id, pageLimit, projectRef, storable } from "./common";
import { runOutput, runStatusSchema } from "./runs";

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
// The Training tab (issue 41 item 8): SFT and RL runs apart from infrastructure jobs, with the
// figures a researcher scans a list for.

export const TRAINING_RUN_KINDS = ["sft", "rl"] as const;
export type TrainingRunKind = (typeof TRAINING_RUN_KINDS)[number];

export const trainingRunListInput = projectRef.extend({
  kind: z.enum(TRAINING_RUN_KINDS).optional(),
  status: runStatusSchema.optional(),
  limit: pageLimit(200, 50),
});

export const trainingRunRow = runOutput.extend({
  kind: z.enum(TRAINING_RUN_KINDS),
  /** The configured step count (null when the run's config does not say). */
  totalSteps: z.number().int().nullable(),
  /** The last step with a stored metric (null before the first). */
  lastStep: z.number().int().nullable(),
  /** SFT: the last `loss`; null for RL or before the first step. */
  lastLoss: z.number().nullable(),
  /** RL: the last `reward_mean`; null for SFT or before the first step. */
  lastReward: z.number().nullable(),
  /** The model the run registered (train.sft / train.rl record their run id in the model's config). */
  producedModel: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type TrainingRunRow = z.infer<typeof trainingRunRow>;
