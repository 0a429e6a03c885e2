// The PARA-GRPO trainer's configuration: every SPEC §3 hyper-parameter as a field with the SPEC
// default, the SPEC §2 recipe (reward knobs + rollout flags), and the run's own settings.
// Validated with zod; errors name every bad field.

import { PARA_GRPO, VANILLA_GRPO, type Recipe } from "@paravt/protocol";
import { z } from "zod";

const positiveInt = z.int().min(1);

/** SPEC §2 recipe: reward knobs and the rollout flags of a training run. */
export const RecipeSchema = z
  .object({
    /** SPEC §1.7: every main-agent generation starts from a forced `<think>\n`. */
    thinkPrefix: z.boolean().default(PARA_GRPO.thinkPrefix),
    /** SPEC §2 R_fmt weights with the answer suffix. */
    answerSuffix: z.boolean().default(PARA_GRPO.answerSuffix),
    /** SPEC §1.8: K per prompt from {4, 8, 16, 32, 64}; off: K = 64. */
    nframesGating: z.boolean().default(PARA_GRPO.nframesGating),
    /** SPEC §2 anchoring bonus weight (0 = off). */
    anchorWeight: z.number().min(0).max(10).default(PARA_GRPO.anchorWeight),
    /** SPEC §2 accuracy mode for open-ended questions ("llm" needs a judge the trainer has not: refused). */
    rewardMode: z.enum(["exact", "f1"]).default("f1"),
    /** SPEC §2: R = R_acc + format_weight * R_fmt + R_tool. */
    formatWeight: z.number().min(0).max(100).default(PARA_GRPO.formatWeight),
  })
  .strict();

export const RlConfigSchema = z
  .object({
    recipe: RecipeSchema.prefault({}),
    // ---- SPEC §3 hyper-parameters
    /** Rollouts per prompt (GRPO group size n). */
    groupSize: z.int().min(2, "a GRPO group needs at least 2 rollouts (std of one reward is 0)").max(256).default(8),
    /** Sampling temperature of training rollouts. */
    temperature: z.number().gt(0).max(10).default(0.7),
    /** Sampling temperature of validation rollouts. */
    validationTemperature: z.number().min(0).max(10).default(0.6),
    /**
     * Max new tokens per main-agent turn. SPEC §3 says 2048; the default here is 64 so that a CPU
     * step of ParaVT-nano takes seconds, not minutes (set 2048 for the SPEC value).
     */
    maxNewTokens: positiveInt.max(32768).default(64),
    /** PPO ratio clip (both sides). */
    clip: z.number().gt(0).lt(1).default(0.2),
    /** KL penalty coefficient against the frozen reference policy (the initial weights). */
    klCoef: z.number().min(0).max(10).default(0.01),
    klEstimator: z.enum(["k1", "k2", "k3"]).default("k3"),
    /** Reward shaping `(r + bias) * scale` before group normalization. */
    rewardBias: z.number().default(-0.2),
    rewardScale: z.number().positive().default(10),
    /** Epsilon of the group and batch std divisions. */
    normEps: z.number().positive().max(1).default(1e-6),
    /** Normalize advantages over the whole batch after the group normalization. */
    batchNormalizeAdvantages: z.boolean().default(true),
    lr: z.number().positive().max(1).default(2e-6),
    beta1: z.number().min(0).lt(1).default(0.9),
    beta2: z.number().min(0).lt(1).default(0.999),
    adamEps: z.number().positive().default(1e-8),
    weightDecay: z.number().min(0).max(1).default(0.01),
    /** Global gradient-norm clip. */
    gradClip: z.number().positive().default(1.0),
    /** Cap of the behaviour importance weight of the decoupled loss. */
    behaviourCap: z.number().min(1).default(5),
    capMode: z.enum(["truncate", "mask"]).default("truncate"),
    aggregation: z.enum(["token-mean", "seq-mean-token-mean", "seq-mean-token-sum"]).default("token-mean"),
    /** Sub-agent trajectories share their episode's advantage; include them in the loss (default no). */
    includeSubAgents: z.boolean().default(false),
    // ---- agent protocol (SPEC §1.6, §1.5)
    maxTurns: z.int().min(0).max(20).default(3),
    maxParallel: positiveInt.max(64).default(5),
    /** Sub-agent max new tokens; default = maxNewTokens. */
    subAgentMaxTokens: positiveInt.max(32768).optional(),
    // ---- run settings
    /** Total optimizer steps of the run (a resumed run continues up to it). */
    steps: positiveInt.max(1_000_000),
    /** Prompts (GRPO groups) per step. */
    promptsPerStep: positiveInt.max(1024).default(4),
    /** Sequences per forward/backward (gradients accumulated over the step's micro-batches). */
    microBatchSize: positiveInt.max(1024).default(8),
    /** Save a checkpoint every n steps (and at the end); 0 = only at the end. */
    checkpointEvery: z.int().min(0).default(0),
    /** Validate every n steps (and after the last); 0 = never. */
    validateEvery: z.int().min(0).default(0),
    /** RL prompts held out for validation (the first ones of a seeded shuffle). */
    validationSize: z.int().min(0).default(0),
    /** Data order, rollout seeds and the validation split. */
    seed: z.int().min(0).max(0xffffffff).default(0),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.validateEvery > 0 && c.validationSize === 0) {
      ctx.addIssue({ code: "custom", path: ["validationSize"], message: "validateEvery > 0 needs validationSize > 0" });
    }
  });

export type RlConfig = z.output<typeof RlConfigSchema>;
export type RlConfigInput = z.input<typeof RlConfigSchema>;

export class RlConfigError extends Error {
  override name = "RlConfigError";
}

/** Parses a config; the message names every bad field with its reason. */
export function parseRlConfig(input: unknown): RlConfig {
  const r = RlConfigSchema.safeParse(input ?? {});
  if (!r.success) throw new RlConfigError(`invalid RL config:\n${z.prettifyError(r.error)}`);
  return r.data;
}

function recipeOf(r: Readonly<Recipe>): z.input<typeof RecipeSchema> {
  return {
    thinkPrefix: r.thinkPrefix,
    answerSuffix: r.answerSuffix,
    nframesGating: r.nframesGating,
    anchorWeight: r.anchorWeight,
    rewardMode: r.rewardMode === "llm" ? "f1" : r.rewardMode,
    formatWeight: r.formatWeight,
  };
}

/** SPEC §2 PARA-GRPO recipe (think prefix, answer suffix, gating, anchor 0.5, f1, format 1.0). */
export const PARA_GRPO_PRESET: Readonly<{ recipe: z.input<typeof RecipeSchema> }> = Object.freeze({
  recipe: recipeOf(PARA_GRPO),
});
/** SPEC §2 vanilla GRPO baseline: every flag off, anchor 0, format 1.0. */
export const VANILLA_GRPO_PRESET: Readonly<{ recipe: z.input<typeof RecipeSchema> }> = Object.freeze({
  recipe: recipeOf(VANILLA_GRPO),
});
export const RL_PRESETS = { "para-grpo": PARA_GRPO_PRESET, "vanilla-grpo": VANILLA_GRPO_PRESET } as const;
export type RlPresetName = keyof typeof RL_PRESETS;

/** A preset's recipe with the run settings and any overrides (recipe fields merge). */
export function presetConfig(
  name: RlPresetName,
  overrides: Omit<RlConfigInput, "recipe"> & { recipe?: z.input<typeof RecipeSchema> },
): RlConfig {
  const p = RL_PRESETS[name];
  return parseRlConfig({ ...overrides, recipe: { ...p.recipe, ...overrides.recipe } });
}
