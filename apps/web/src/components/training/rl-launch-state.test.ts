import { describe, expect, it } from "vitest";
import {
  EXPECTED_GATED_K,
  initialRlForm,
  presetOverrides,
  recipeRows,
  rlCostPreview,
  rlCostText,
  rlStoredText,
  specDifferences,
  suiteMaxNewTokens,
  validateRlLaunch,
  withSuite,
  type RlFormState,
} from "./rl-launch-state";

const withOverrides = (s: RlFormState, o: Partial<RlFormState["overrides"]>): RlFormState => ({
  ...s,
  overrides: { ...s.overrides, ...o },
});

describe("rlCostPreview", () => {
  it("gating on: rollouts × (mean of {4,8,16,32,64} + crop upper bound)", () => {
    expect(EXPECTED_GATED_K).toBeCloseTo(24.8, 10);
    const s = withOverrides(
      { ...initialRlForm("r", "d"), steps: "10" },
      {
        promptsPerStep: "2",
        groupSize: "3",
        maxTurns: "2",
        maxParallel: "4",
      },
    );
    // 6 rollouts × (24.8 + 2·4·16 = 128) = 916.8
    expect(rlCostPreview(s)).toEqual({ rolloutsPerStep: 6, framesPerStep: 917, totalRollouts: 60, storedPerStep: 6 });
  });

  it("vanilla GRPO (gating off) counts K = 64 per rollout", () => {
    const s = withOverrides(
      { ...initialRlForm("r", "d", "vanilla-grpo"), steps: "5" },
      {
        promptsPerStep: "1",
        groupSize: "2",
        maxTurns: "0",
      },
    );
    expect(rlCostPreview(s)).toEqual({ rolloutsPerStep: 2, framesPerStep: 128, totalRollouts: 10, storedPerStep: 2 });
  });

  it("defaults: 32 rollouts per step and the text the form shows", () => {
    const p = rlCostPreview(initialRlForm("r", "d"));
    // 4 prompts × 8 = 32 rollouts; 32 × (24.8 + 3·5·16) = 8473.6
    expect(p).toEqual({ rolloutsPerStep: 32, framesPerStep: 8474, totalRollouts: 3200, storedPerStep: 32 });
    expect(rlCostText(p)).toBe("32 rollouts · ~8,474 frames per step · 3,200 total rollouts");
    expect(rlStoredText(p, "100")).toBe("Stores all 32 rollouts of each step as episodes (3,200 over the run).");
  });

  it("says how many rollouts a smaller budget stores: whole groups of 8, then none", () => {
    const s = { ...initialRlForm("r", "d"), keepRolloutsPerStep: "20" };
    const p = rlCostPreview(s);
    expect(p?.storedPerStep).toBe(16);
    expect(rlStoredText(p, s.steps)).toBe(
      "Stores 16 of 32 rollouts of each step as episodes, whole groups first (1,600 over the run).",
    );
    expect(rlStoredText(rlCostPreview({ ...s, keepRolloutsPerStep: "0" }), s.steps)).toMatch(/^Stores no rollouts/);
    expect(validateRlLaunch("p", { ...s, keepRolloutsPerStep: "1000" }).errors.keepRolloutsPerStep).toBe(
      "at most 999 rollouts per step",
    );
  });

  it("is null while a knob it needs is not a number", () => {
    expect(rlCostPreview(withOverrides(initialRlForm("r", "d"), { groupSize: "x" }))).toBeNull();
    expect(rlCostText(null)).toMatch(/Fix/);
  });
});

describe("validateRlLaunch", () => {
  it("the preset defaults parse, every override sent explicitly", () => {
    const v = validateRlLaunch("p1", initialRlForm("run", "d1"));
    expect(v.errors).toEqual({});
    expect(v.input?.overrides.groupSize).toBe(8);
    expect(v.input?.overrides.anchorWeight).toBe(0.5);
    expect(v.input?.modelId).toBeUndefined();
  });

  it("gives the shared schema's reason per field", () => {
    const s = withOverrides(
      { ...initialRlForm("", "d1"), steps: "0", seed: "abc" },
      {
        groupSize: "1",
        clip: "1.5",
        validateEvery: "5",
      },
    );
    const v = validateRlLaunch("p1", s);
    expect(v.input).toBeNull();
    expect(v.errors.name).toBeDefined();
    expect(v.errors.steps).toBe("at least 1 step");
    expect(v.errors.seed).toBe("Enter a number");
    expect(v.errors["overrides.groupSize"]).toBe("a GRPO group needs at least 2 rollouts");
    expect(v.errors["overrides.clip"]).toBe("the PPO clip must be in (0, 1)");
    expect(v.errors["overrides.validationSize"]).toBe("validateEvery > 0 needs validationSize > 0");
  });

  it("needs a dataset", () => {
    expect(validateRlLaunch("p1", initialRlForm("run", "")).errors.datasetId).toBe("Pick a needle suite");
  });
});

describe("presets", () => {
  it("vanilla turns every SPEC §2 flag off and the anchor to 0", () => {
    expect(presetOverrides("vanilla-grpo").anchorWeight).toBe("0");
    expect(presetOverrides("para-grpo").anchorWeight).toBe("0.5");
    const rows = Object.fromEntries(recipeRows("vanilla-grpo").map((r) => [r.label, r]));
    expect(rows["Think prefix"]).toMatchObject({ value: "off", differs: true });
    expect(rows["Frame gating"]).toMatchObject({ value: "off (K = 64)", differs: true });
    expect(rows["Format weight"]).toMatchObject({ differs: false });
  });
});

describe("max new tokens: what the suite needs, labelled against SPEC §3 (issue 41 item 1)", () => {
  const turnTokens = {
    tokenizer: { version: 2, hash: "h" },
    main: { turns: 8467, p50: 75, p99: 237, max: 270 },
    sub: { turns: 6246, p50: 63, p99: 114, max: 136 },
  };
  const measured = { kind: "needle-suite", dir: "/s", turnTokens };

  it("defaults to the suite's measured need, never the trainer's 64 that cut 14 of 16 turns", () => {
    const d = suiteMaxNewTokens(measured);
    expect(d).toMatchObject({ value: 320, measured: true });
    expect(d.reason).toMatch(/p99 main-agent turn is 237 tokens/);
    const form = initialRlForm("r", "d1", "para-grpo", d.value);
    expect(form.overrides.maxNewTokens).toBe("320");
    expect(validateRlLaunch("p1", form).input?.overrides.maxNewTokens).toBe(320);
    expect(presetOverrides("vanilla-grpo", d.value).maxNewTokens).toBe("320");
  });

  it("an unmeasured suite gets SPEC §3's 2048 and says why", () => {
    expect(suiteMaxNewTokens({ kind: "needle-suite", dir: "/s" })).toMatchObject({ value: 2048, measured: false });
    expect(initialRlForm("r", "d1").overrides.maxNewTokens).toBe("2048");
  });

  it("names every default that is not SPEC §3's value, and nothing when all are", () => {
    expect(specDifferences(initialRlForm("r", "d1").overrides)).toEqual([]);
    expect(specDifferences(initialRlForm("r", "d1", "para-grpo", 320).overrides)).toEqual([
      { key: "maxNewTokens", label: "Max new tokens", value: "320", spec: 2048 },
    ]);
    // Knobs SPEC §3 does not name (prompts per step, max turns) are never reported as differing.
    const s = withOverrides(initialRlForm("r", "d1"), { promptsPerStep: "2", maxTurns: "1", lr: "1e-5" });
    expect(specDifferences(s.overrides).map((d) => d.key)).toEqual(["lr"]);
  });

  it("another suite: the default follows it unless the person typed their own", () => {
    const form = initialRlForm("r", "d1", "para-grpo", 320);
    expect(withSuite(form, "d2", 320, 160).overrides.maxNewTokens).toBe("160");
    expect(withSuite(form, "d2", 320, 160).datasetId).toBe("d2");
    const typed = withOverrides(form, { maxNewTokens: "384" });
    expect(withSuite(typed, "d2", 320, 160).overrides.maxNewTokens).toBe("384");
  });
});
