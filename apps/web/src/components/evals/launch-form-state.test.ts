import { describe, expect, it } from "vitest";
import {
  changedFromLocked,
  initialLaunchForm,
  nanoKAdvice,
  preview,
  previewText,
  validateLaunch,
  type LaunchFormState,
} from "./launch-form-state";

const MODELS = [
  { id: "m_nano", name: "nano", kind: "NANO_CHECKPOINT" as const },
  { id: "m_ext", name: "ParaVT-8B (paper)", kind: "EXTERNAL" as const },
  { id: "m_vllm", name: "Qwen on vLLM", kind: "OPENAI_COMPATIBLE" as const },
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
  it("speaks when a nano checkpoint is asked for a K it was not trained on, and only then", () => {
    // The form starts at the SPEC §5 headline K = 64.
    expect(nanoKAdvice(form({ modelIds: ["m_nano"] }), MODELS)).toBe(
      "nano: ParaVT-nano is trained on K ≤ 16; at K = 64 expect mostly format failures (the default checkpoint: compliance 0.22 at K = 64, 0.96 at K = 8).",
    );
    expect(nanoKAdvice(form({ modelIds: ["m_nano", "m_vllm"], ks: [8], otherKs: "32, 128" }), MODELS)).toMatch(
      /^nano: .* at K = 32, 128 expect/,
    );
    expect(nanoKAdvice(form({ modelIds: ["m_nano"], ks: [4, 8, 16] }), MODELS)).toBeNull();
    expect(nanoKAdvice(form({ modelIds: ["m_vllm", "m_ext"] }), MODELS)).toBeNull();
  });
});
