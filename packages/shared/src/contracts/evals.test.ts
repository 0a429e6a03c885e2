import { describe, expect, it } from "vitest";
import { z } from "zod";
import { evalLaunchInput, evalModelProblems, MAX_EVAL_RUNS_PER_LAUNCH } from "./evals";

const base = { projectId: "p", name: "n", modelIds: ["m"], datasetIds: ["d"], modes: ["direct"], ks: [64] };

function reasons(input: unknown): string {
  const r = evalLaunchInput.safeParse(input);
  return r.success ? "" : z.prettifyError(r.error);
}

describe("evalLaunchInput", () => {
  it("fills the SPEC §5 locked protocol when no knobs are given", () => {
    const v = evalLaunchInput.parse(base);
    expect(v.knobs).toEqual({
      temperature: 0,
      maxTokens: 2048,
      maxTurns: 3,
      maxParallel: 5,
      thinkPrefix: false,
      dispatch: "evaluator",
      subtitles: false,
      requestStyle: "workbench",
      videoChannel: "image_url",
    });
    expect(v.shardSize).toBe(25);
  });

  it("the reference request comes with its own dispatch, no think prefix and no prompt texts", () => {
    const knobs = { requestStyle: "reference", dispatch: "subagent", thinkPrefix: true, prompts: { system: "x" } };
    const r = reasons({ ...base, knobs });
    expect(r).toContain("The reference request returns crops to the main agent: use the evaluator's dispatch");
    expect(r).toContain("The reference evaluator forces no <think> prefix");
    expect(r).toContain("The reference request sends its own texts: no overrides");
    expect(reasons({ ...base, knobs: { requestStyle: "reference" } })).toBe("");
  });

  it("says what is wrong with a selection", () => {
    expect(reasons({ ...base, ks: [300] })).toContain("K must be between 1 and 256");
    expect(reasons({ ...base, ks: [1.5] })).toContain("K must be a whole number");
    expect(reasons({ ...base, datasetIds: [] })).toContain("Pick at least one dataset");
    expect(reasons({ ...base, modes: ["direct", "direct"] })).toContain("Modes are listed twice");
    expect(reasons({ ...base, modes: ["chatty"] })).toContain("modes");
    expect(reasons({ ...base, knobs: { temperature: -1 } })).toContain("Temperature must be >= 0");
    // 4 models x 4 datasets x 4 modes x 2 K = 128 runs.
    const big = {
      ...base,
      modelIds: ["a", "b", "c", "d"],
      datasetIds: ["1", "2", "3", "4"],
      modes: ["direct", "reasoning", "agentic_general", "agentic_minimal"],
      ks: [16, 64],
    };
    expect(reasons(big)).toContain(
      `makes 128 runs (models x datasets x modes x K); at most ${MAX_EVAL_RUNS_PER_LAUNCH}`,
    );
  });
});

describe("evalModelProblems", () => {
  it("refuses external models, which have no engine", () => {
    expect(
      evalModelProblems(
        [
          { name: "paper", kind: "EXTERNAL" },
          { name: "nano", kind: "NANO_CHECKPOINT" },
          { name: "qwen", kind: "OPENAI_COMPATIBLE" },
        ],
        ["agentic_general", "direct"],
      ),
    ).toEqual(['"paper" is an external model: it has no engine to run; import its reference outputs instead']);
  });
});
