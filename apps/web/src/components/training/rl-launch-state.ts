// The RL launch form as plain data: what the inputs hold (strings, as typed), the launch input
// they make, the reasons the shared schema (rlLaunchInput) gives per field, the SPEC §2 recipe a
// preset sets, and the cost preview. Pure, so the form and its unit test see exactly what the API
// will be sent.
import { PARA_GRPO, VANILLA_GRPO, type Recipe } from "@paravt/protocol";
import {
  datasetTurnTokens,
  keptRolloutCount,
  maxNewTokensReason,
  measuredMaxNewTokens,
  rlLaunchInput,
  SPEC_MAX_NEW_TOKENS,
  type RL_PRESET_NAMES,
} from "@paravt/shared";

export type RlPresetName = (typeof RL_PRESET_NAMES)[number];

/**
 * The form's defaults: the trainer's RlConfigSchema defaults (packages/rl/src/config.ts is
 * server-only, so they are mirrored here), SPEC §3's where SPEC §3 gives a value (`SPEC3`).
 * maxNewTokens is the chosen suite's measured need (`suiteMaxNewTokens`); this 2048 (SPEC §3) is
 * only the fallback for a suite imported before its turns were measured.
 */
export const RL_DEFAULTS = {
  groupSize: 8,
  promptsPerStep: 4,
  maxNewTokens: SPEC_MAX_NEW_TOKENS,
  maxTurns: 3,
  maxParallel: 5,
  temperature: 0.7,
  validationTemperature: 0.6,
  lr: 2e-6,
  clip: 0.2,
  klCoef: 0.01,
  rewardBias: -0.2,
  rewardScale: 10,
  behaviourCap: 5,
  gradClip: 1,
  microBatchSize: 8,
  validateEvery: 0,
  validationSize: 0,
} as const;

export type OverrideKey = keyof typeof RL_DEFAULTS | "formatWeight" | "anchorWeight";

/** SPEC §3's reference value of each knob it names; the others are the workbench's own settings. */
export const SPEC3: Partial<Record<OverrideKey, number>> = {
  groupSize: 8,
  maxNewTokens: SPEC_MAX_NEW_TOKENS,
  temperature: 0.7,
  validationTemperature: 0.6,
  lr: 2e-6,
  clip: 0.2,
  klCoef: 0.01,
  rewardBias: -0.2,
  rewardScale: 10,
  behaviourCap: 5,
  gradClip: 1,
};

/** The suite's default max new tokens and why (from the dataset's `source.turnTokens`). */
export function suiteMaxNewTokens(source: unknown): { value: number; measured: boolean; reason: string } {
  const stats = datasetTurnTokens(source);
  return { value: measuredMaxNewTokens(stats), measured: stats !== null, reason: maxNewTokensReason(stats) };
}

/** Every override in the order the form shows them, with its label and why it matters. */
export const OVERRIDE_FIELDS: readonly { key: OverrideKey; label: string; hint: string }[] = [
  { key: "groupSize", label: "Group size", hint: "Rollouts per prompt (GRPO n)" },
  { key: "promptsPerStep", label: "Prompts per step", hint: "GRPO groups per update" },
  { key: "maxNewTokens", label: "Max new tokens", hint: "Per main-agent turn (SPEC: 2048)" },
  { key: "maxTurns", label: "Max turns", hint: "Tool rounds per episode" },
  { key: "maxParallel", label: "Max parallel", hint: "Crop calls per turn" },
  { key: "temperature", label: "Temperature", hint: "Training rollouts" },
  { key: "validationTemperature", label: "Validation temperature", hint: "Held-out rollouts" },
  { key: "lr", label: "Learning rate", hint: "Adam, constant" },
  { key: "clip", label: "PPO clip", hint: "Ratio clip, both sides" },
  { key: "klCoef", label: "KL coefficient", hint: "Against the frozen start policy" },
  { key: "rewardBias", label: "Reward bias", hint: "(r + bias) × scale" },
  { key: "rewardScale", label: "Reward scale", hint: "(r + bias) × scale" },
  { key: "behaviourCap", label: "Behaviour weight cap", hint: "Decoupled loss" },
  { key: "gradClip", label: "Gradient clip", hint: "Global norm" },
  { key: "microBatchSize", label: "Micro-batch size", hint: "Sequences per forward/backward" },
  { key: "validateEvery", label: "Validate every", hint: "Steps; 0 = never" },
  { key: "validationSize", label: "Validation size", hint: "Held-out prompts" },
  { key: "formatWeight", label: "Format weight", hint: "SPEC §2 R_fmt weight" },
  { key: "anchorWeight", label: "Anchor weight", hint: "SPEC §2 anchoring bonus" },
];

/** SPEC §2: the recipe each preset trains with. */
export const PRESET_RECIPES: Record<RlPresetName, Readonly<Recipe>> = {
  "para-grpo": PARA_GRPO,
  "vanilla-grpo": VANILLA_GRPO,
};
export const PRESET_LABEL: Record<RlPresetName, string> = {
  "para-grpo": "PARA-GRPO",
  "vanilla-grpo": "vanilla GRPO",
};

/** Rows of the read-only "what the preset changes" table. */
export function recipeRows(preset: RlPresetName): { label: string; value: string; differs: boolean }[] {
  const r = PRESET_RECIPES[preset];
  const other = PRESET_RECIPES[preset === "para-grpo" ? "vanilla-grpo" : "para-grpo"];
  const onOff = (b: boolean) => (b ? "on" : "off");
  return [
    { label: "Think prefix", value: onOff(r.thinkPrefix), differs: r.thinkPrefix !== other.thinkPrefix },
    { label: "Answer suffix", value: onOff(r.answerSuffix), differs: r.answerSuffix !== other.answerSuffix },
    {
      label: "Frame gating",
      value: r.nframesGating ? "K from {4, 8, 16, 32, 64}" : "off (K = 64)",
      differs: r.nframesGating !== other.nframesGating,
    },
    { label: "Anchor weight", value: String(r.anchorWeight), differs: r.anchorWeight !== other.anchorWeight },
    { label: "Format weight", value: String(r.formatWeight), differs: r.formatWeight !== other.formatWeight },
    { label: "Accuracy mode", value: r.rewardMode, differs: r.rewardMode !== other.rewardMode },
  ];
}

export interface RlFormState {
  name: string;
  datasetId: string;
  /** Empty: the committed default checkpoint. */
  modelId: string;
  preset: RlPresetName;
  steps: string;
  checkpointEvery: string;
  seed: string;
  /** Rollouts per step stored as episodes (the group inspector's budget). */
  keepRolloutsPerStep: string;
  overrides: Record<OverrideKey, string>;
}

/**
 * The knobs a preset fills in: the defaults (SPEC §3 where it gives a value), the suite's
 * measured max new tokens, and the preset's recipe weights (SPEC §2).
 */
export function presetOverrides(
  preset: RlPresetName,
  maxNewTokens: number = RL_DEFAULTS.maxNewTokens,
): Record<OverrideKey, string> {
  const r = PRESET_RECIPES[preset];
  const out = Object.fromEntries(Object.entries(RL_DEFAULTS).map(([k, v]) => [k, String(v)]));
  return {
    ...out,
    maxNewTokens: String(maxNewTokens),
    formatWeight: String(r.formatWeight),
    anchorWeight: String(r.anchorWeight),
  } as Record<OverrideKey, string>;
}

/** The knobs whose value is not SPEC §3's, with both values (the form's honest badge). */
export function specDifferences(
  overrides: Record<OverrideKey, string>,
): { key: OverrideKey; label: string; value: string; spec: number }[] {
  return OVERRIDE_FIELDS.flatMap((f) => {
    const spec = SPEC3[f.key];
    return spec !== undefined && Number(overrides[f.key]) !== spec
      ? [{ key: f.key, label: f.label, value: overrides[f.key], spec }]
      : [];
  });
}

/**
 * Another suite picked: max new tokens follows the new suite's measurement unless the person
 * typed their own value (it still equals the previous suite's default).
 */
export function withSuite(
  s: RlFormState,
  datasetId: string,
  previousDefault: number,
  nextDefault: number,
): RlFormState {
  const untouched = Number(s.overrides.maxNewTokens) === previousDefault;
  return {
    ...s,
    datasetId,
    overrides: untouched ? { ...s.overrides, maxNewTokens: String(nextDefault) } : s.overrides,
  };
}

const SCHEMA_DEFAULTS = rlLaunchInput
  .pick({ steps: true, checkpointEvery: true, seed: true, keepRolloutsPerStep: true })
  .parse({});

export function initialRlForm(
  name: string,
  datasetId: string,
  preset: RlPresetName = "para-grpo",
  maxNewTokens: number = RL_DEFAULTS.maxNewTokens,
): RlFormState {
  return {
    name,
    datasetId,
    modelId: "",
    preset,
    steps: String(SCHEMA_DEFAULTS.steps),
    checkpointEvery: String(SCHEMA_DEFAULTS.checkpointEvery),
    seed: String(SCHEMA_DEFAULTS.seed),
    keepRolloutsPerStep: String(SCHEMA_DEFAULTS.keepRolloutsPerStep),
    overrides: presetOverrides(preset, maxNewTokens),
  };
}

/** A typed number; NaN when the text is not one (validation then says "Enter a number"). */
function numberOf(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text.trim());
}

/** The launch input the form describes (not yet validated). Every override is sent explicitly. */
export function toRlLaunchInput(projectId: string, s: RlFormState) {
  return {
    projectId,
    datasetId: s.datasetId,
    ...(s.modelId ? { modelId: s.modelId } : {}),
    name: s.name,
    preset: s.preset,
    steps: numberOf(s.steps),
    checkpointEvery: numberOf(s.checkpointEvery),
    seed: numberOf(s.seed),
    keepRolloutsPerStep: numberOf(s.keepRolloutsPerStep),
    overrides: Object.fromEntries(Object.entries(s.overrides).map(([k, v]) => [k, numberOf(v)])),
  };
}

export interface RlValidation {
  input: ReturnType<typeof rlLaunchInput.parse> | null;
  /** First reason per field key: "name", "steps", "overrides.groupSize", ... */
  errors: Record<string, string>;
}

export function validateRlLaunch(projectId: string, s: RlFormState): RlValidation {
  const parsed = rlLaunchInput.safeParse(toRlLaunchInput(projectId, s));
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key =
        issue.path[0] === "overrides" ? `overrides.${String(issue.path[1])}` : String(issue.path[0] ?? "form");
      errors[key] ??= issue.message;
    }
  }
  // The schema's message for NaN is about types; say what the person has to do.
  const numbers: [string, string][] = [
    ["steps", s.steps],
    ["checkpointEvery", s.checkpointEvery],
    ["seed", s.seed],
    ["keepRolloutsPerStep", s.keepRolloutsPerStep],
    ...Object.entries(s.overrides).map(([k, v]): [string, string] => [`overrides.${k}`, v]),
  ];
  for (const [key, text] of numbers) if (!Number.isFinite(numberOf(text))) errors[key] = "Enter a number";
  if (!s.datasetId) errors.datasetId = "Pick a needle suite";
  const ok = parsed.success && Object.keys(errors).length === 0;
  return { input: ok ? parsed.data : null, errors };
}

/** SPEC §1.8: with gating on, K is uniform over {4, 8, 16, 32, 64} (mean 24.8); off: K = 64. */
export const GATED_KS = [4, 8, 16, 32, 64] as const;
export const EXPECTED_GATED_K = GATED_KS.reduce((a, b) => a + b, 0) / GATED_KS.length;
export const UNGATED_K = 64;
/** Frames one crop_video call samples at most (SPEC §1.4). */
export const FRAMES_PER_CROP = 16;

export interface RlCostPreview {
  rolloutsPerStep: number;
  /** Expected overview frames plus the crop-frame upper bound, per step. */
  framesPerStep: number;
  totalRollouts: number;
  /** Rollouts of a step stored as episodes (whole groups within the budget, `keptRolloutCount`). */
  storedPerStep: number;
}

/** Null while a knob it needs is not a positive number. */
export function rlCostPreview(s: RlFormState): RlCostPreview | null {
  const [prompts, group, turns, parallel, steps, keep] = [
    s.overrides.promptsPerStep,
    s.overrides.groupSize,
    s.overrides.maxTurns,
    s.overrides.maxParallel,
    s.steps,
    s.keepRolloutsPerStep,
  ].map(numberOf) as [number, number, number, number, number, number];
  if (![prompts, group, turns, parallel, steps, keep].every((n) => Number.isFinite(n) && n >= 0)) return null;
  const rolloutsPerStep = prompts * group;
  const expectedK = PRESET_RECIPES[s.preset].nframesGating ? EXPECTED_GATED_K : UNGATED_K;
  const cropFrames = turns * parallel * FRAMES_PER_CROP;
  return {
    rolloutsPerStep,
    framesPerStep: Math.round(rolloutsPerStep * (expectedK + cropFrames)),
    totalRollouts: rolloutsPerStep * steps,
    storedPerStep: Number.isInteger(prompts) ? keptRolloutCount(Array<number>(prompts).fill(group), keep) : 0,
  };
}

const fmt = (n: number) => n.toLocaleString("en-US");

/** "Stores all 32 rollouts of each step (3,200 episodes)" / "Stores 16 of 32 …: whole groups first". */
export function rlStoredText(p: RlCostPreview | null, steps: string): string {
  if (!p) return "";
  const total = fmt(p.storedPerStep * (Number(steps) || 0));
  if (p.storedPerStep === 0) return "Stores no rollouts (the group inspector stays empty).";
  if (p.storedPerStep >= p.rolloutsPerStep)
    return `Stores all ${fmt(p.rolloutsPerStep)} rollouts of each step as episodes (${total} over the run).`;
  return `Stores ${fmt(p.storedPerStep)} of ${fmt(p.rolloutsPerStep)} rollouts of each step as episodes, whole groups first (${total} over the run).`;
}

/** "32 rollouts · ~8,730 frames per step · 3,200 total rollouts". */
export function rlCostText(p: RlCostPreview | null): string {
  if (!p) return "Fix the highlighted fields to see the cost.";
  return `${fmt(p.rolloutsPerStep)} rollouts · ~${fmt(p.framesPerStep)} frames per step · ${fmt(p.totalRollouts)} total rollouts`;
}
