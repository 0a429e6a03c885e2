import { describe, expect, it } from "vitest";
import {
  changedFromLocked,
  initialLaunchForm,
  nanoKAdvice,
  preview,
  previewText,
  validateLaunch,
  type LaunchFormState,
  type LaunchModel,
} from "./launch-form-state";

const measured = (k: number, formatCompliance: number, score: number) => ({
  suite: "heldout120tf",
  k,
  tools: true,
  questions: 360,
  formatCompliance,
  score,
});
/** As the default checkpoint's config.json says (packages/nano/checkpoints/default). */
const NANO_DEFAULT = {
  trainedKs: [4, 8, 16],
  quality: {
    date: "2026-11-27",
    method: "nano-quality",
    suites: [{ name: "heldout120tf", seed: 103, count: 120, options: "--option-style text-first" }],
    measurements: [
      measured(4, 1, 0.323),
      { ...measured(4, 0, 0.008), tools: false },
      measured(8, 1, 0.314),
      measured(16, 0.925, 0.333),
    ],
  },
};
const MODELS: LaunchModel[] = [
  { id: "m_nano", name: "nano", kind: "NANO_CHECKPOINT", nano: NANO_DEFAULT },
  { id: "m_ext", name: "ParaVT-8B (paper)", kind: "EXTERNAL" },
  { id: "m_vllm", name: "Qwen on vLLM", kind: "OPENAI_COMPATIBLE" },
  // A checkpoint whose config.json does not say what it was trained on (written before it could).
  { id: "m_old", name: "nano-old", kind: "NANO_CHECKPOINT", nano: { trainedKs: null, quality: null } },
  // Trained on every K of its suite, measured at K = 8 only, by an undated record.
  {
    id: "m_tiny",
    name: "nano-tiny",
    kind: "NANO_CHECKPOINT",
    nano: {
      trainedKs: [4, 8, 16, 32, 64],
      quality: { ...NANO_DEFAULT.quality, date: null, measurements: [{ ...measured(8, 0.25, 0), tools: null }] },
    },
  },
];
const DATASETS = [
  { id: "d_suite", sampleCount: 9 },
  { id: "d_big", sampleCount: 120 },
];

function form(patch: Partial<LaunchFormState> = {}): LaunchFormState {
  return { ...initialLaunchForm("smoke"), ...patch };
}

describe("launch form validation (evalLaunchInput + evalModelProblems)", () => {
  it("starts at the SPEC §5 locked knobs and asks for models and datasets", () => {
    const v = validateLaunch("p1", form(), MODELS);
    expect(v.input).toBeNull();
    expect(v.errors).toMatchObject({ modelIds: "Pick at least one model", datasetIds: "Pick at least one dataset" });
    expect(changedFromLocked(form())).toEqual([]);
  });

  it("gives the API's input for a valid selection, knobs included", () => {
    const v = validateLaunch(
      "p1",
      form({
        modelIds: ["m_nano"],
        datasetIds: ["d_suite"],
        modes: ["direct", "agentic_general"],
        ks: [8],
        sampleLimit: "3",
      }),
      MODELS,
    );
    expect(v.errors).toEqual({});
    expect(v.input).toMatchObject({
      projectId: "p1",
      modes: ["direct", "agentic_general"],
      ks: [8],
      sampleLimit: 3,
      shardSize: 25,
      knobs: {
        temperature: 0,
        maxTokens: 2048,
        maxTurns: 3,
        maxParallel: 5,
        dispatch: "evaluator",
        thinkPrefix: false,
      },
    });
  });

  it("puts readable reasons on the fields that are wrong", () => {
    const s = form({
      modelIds: ["m_nano"],
      datasetIds: ["d_suite"],
      ks: [64],
      otherKs: "300, abc",
      knobs: { temperature: "hot", maxTokens: "8", maxTurns: "3", maxParallel: "0" },
      sampleLimit: "0",
    });
    const v = validateLaunch("p1", s, MODELS);
    expect(v.input).toBeNull();
    expect(v.errors).toMatchObject({
      ks: "Not a number: abc",
      "knobs.temperature": "Enter a number",
      "knobs.maxTokens": "At least 16 tokens",
      "knobs.maxParallel": "At least one call per turn",
      sampleLimit: "The sample limit must be at least 1",
    });
    expect(validateLaunch("p1", { ...s, otherKs: "300" }, MODELS).errors.ks).toBe("K must be between 1 and 256");
  });

  it("refuses a model that cannot run, with the model named", () => {
    const v = validateLaunch("p1", form({ modelIds: ["m_ext"], datasetIds: ["d_suite"] }), MODELS);
    expect(v.input).toBeNull();
    expect(v.modelProblems.join()).toMatch(/"ParaVT-8B \(paper\)" is an external model/);
  });

  it("refuses a cross product over the per-launch limit", () => {
    const s = form({
      modelIds: ["m_nano", "m_vllm"],
      datasetIds: ["d_suite", "d_big"],
      modes: ["direct", "reasoning", "agentic_general", "agentic_minimal"],
      ks: [4, 8, 16, 32, 64],
    });
    expect(preview(s, DATASETS).runs).toBe(80);
    expect(validateLaunch("p1", s, MODELS).errors.modelIds).toMatch(/makes 80 runs .* at most 64 per launch/);
    // 64 is still allowed.
    expect(validateLaunch("p1", { ...s, ks: [4, 8, 16, 32] }, MODELS).input).not.toBeNull();
  });

  it("lists the knobs that leave the locked protocol", () => {
    const s = form({ thinkPrefix: true, knobs: { ...form().knobs, temperature: "0.7" } });
    expect(changedFromLocked(s)).toEqual(["temperature", "think prefix"]);
  });
});

describe("launch preview", () => {
  it("counts runs and samples after the sample limit", () => {
    const s = form({ modelIds: ["m_nano"], datasetIds: ["d_suite"], modes: ["direct", "agentic_general"], ks: [8] });
    expect(previewText(preview({ ...s, sampleLimit: "3" }, DATASETS))).toBe("2 runs × 3 samples = 6 episodes");
    expect(previewText(preview(s, DATASETS))).toBe("2 runs × 9 samples = 18 episodes");
  });

  it("shows a range when the datasets differ in size", () => {
    const s = form({ modelIds: ["m_nano"], datasetIds: ["d_suite", "d_big"], ks: [8, 64] });
    expect(previewText(preview(s, DATASETS))).toBe("4 runs × 9–120 samples = 258 episodes");
  });

  it("says what is missing when nothing is chosen", () => {
    expect(previewText(preview(form(), DATASETS))).toMatch(/^Pick models/);
  });
});

describe("nano K advice", () => {
  it("speaks when a nano checkpoint is asked for a K it was not trained on, with what was measured of it", () => {
    // The form starts at the SPEC §5 headline K = 64.
    expect(nanoKAdvice(form({ modelIds: ["m_nano"] }), MODELS)).toEqual({
      text:
        "nano: trained on K = 4, 8, 16, so K = 64 is untrained (not measured). Measured on heldout120tf " +
        "(2026-11-27, with tools): K = 4: compliance 1.000, score 0.323; K = 8: compliance 1.000, score 0.314; " +
        "K = 16: compliance 0.925, score 0.333.",
      // The best-measured trained K (4 and 8 tie at 1.000: the more frames).
      suggestedK: 8,
    });
    expect(nanoKAdvice(form({ modelIds: ["m_nano", "m_vllm"], ks: [8], otherKs: "32, 128" }), MODELS)?.text).toMatch(
      /^nano: trained on K = 4, 8, 16, so K = 32, 128 are untrained \(not measured\)\. Measured/,
    );
    expect(nanoKAdvice(form({ modelIds: ["m_nano"], ks: [4, 8, 16] }), MODELS)).toBeNull();
    expect(nanoKAdvice(form({ modelIds: ["m_vllm", "m_ext"] }), MODELS)).toBeNull();
  });

  it("says nothing of a checkpoint that does not record its trained K", () => {
    expect(nanoKAdvice(form({ modelIds: ["m_old"] }), MODELS)).toBeNull();
    expect(nanoKAdvice(form({ modelIds: ["m_old", "m_nano"], ks: [8, 64] }), MODELS)?.text).toMatch(/^nano: /);
  });

  it("names a measured untrained K and an undated record as such, and suggests a K all chosen share", () => {
    const tiny = { ...MODELS[4]!, nano: { ...MODELS[4]!.nano!, trainedKs: [4, 8] } };
    expect(nanoKAdvice(form({ modelIds: ["m_tiny"], ks: [8, 16, 32] }), [tiny])).toEqual({
      text:
        "nano-tiny: trained on K = 4, 8, so K = 16, 32 are untrained (not measured). Measured on heldout120tf " +
        "(undated): K = 8: compliance 0.250, score 0.000.",
      suggestedK: 8,
    });
    const both = nanoKAdvice(form({ modelIds: ["m_nano", "m_tiny"], ks: [64] }), MODELS);
    // nano-tiny was trained on 64: only nano speaks; the K both were trained on with the best
    // measured compliance over the two (K = 8: min(1.000, 0.250); 4 and 16 unmeasured for tiny).
    expect(both?.text).toMatch(/^nano: trained on K = 4, 8, 16, so K = 64 is untrained/);
    expect(both?.suggestedK).toBe(8);
    const k64: LaunchModel = {
      ...MODELS[0]!,
      nano: { ...NANO_DEFAULT, quality: { ...NANO_DEFAULT.quality, measurements: [measured(64, 0.267, 0.038)] } },
    };
    expect(nanoKAdvice(form({ modelIds: ["m_nano"], ks: [64] }), [k64])?.text).toBe(
      "nano: trained on K = 4, 8, 16, so K = 64 is untrained. Measured on heldout120tf (2026-11-27, with tools): " +
        "K = 64: compliance 0.267, score 0.038.",
    );
  });
});
