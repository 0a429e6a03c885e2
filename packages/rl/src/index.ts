// @paravt/rl: the PARA-GRPO trainer core (issue 9, SPEC §1.8, §2, §3) on ParaVT-nano and the
// compute core. Server-only (node:crypto, node:fs, the episode runner).

export {
  parseRlConfig,
  PARA_GRPO_PRESET,
  presetConfig,
  RecipeSchema,
  RL_PRESETS,
  RlConfigError,
  RlConfigSchema,
  VANILLA_GRPO_PRESET,
  type RlConfig,
  type RlConfigInput,
  type RlPresetName,
} from "./config";
export { frameBudget, GATING_K, UNGATED_K, type GatedK } from "./gating";
export { computeAdvantages, mean, std, type AdvantageOptions } from "./advantages";
export {
  completionText,
  formatCompliant,
  RecordingBackend,
  RolloutEngines,
  runRollout,
  type RecordedGeneration,
  type RlPrompt,
  type Rollout,
  type RolloutOptions,
} from "./rollout";
export { policyBatch, trainSequence, type PolicyBatch, type TrainSequence } from "./sequences";
export {
  loadRlPrompts,
  mixSeed,
  policyUpdate,
  RL_STATE_FILE,
  RlTrainError,
  summarizeRollouts,
  trainRl,
  type KMetrics,
  type RlStepMetrics,
  type RlValidationMetrics,
  type RolloutPlace,
  type RolloutSummary,
  type TrainRlOptions,
  type TrainRlResult,
} from "./train-rl";
