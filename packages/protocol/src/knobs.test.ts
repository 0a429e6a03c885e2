import { describe, expect, it } from "vitest";
import { z } from "zod";
import { episodeKnobs, LAUNCH_KNOB_RANGES, LOCKED_KNOBS, refuseKnobConflicts, RUNNER_KNOB_RANGES } from "./knobs";

const knobs = (ranges = RUNNER_KNOB_RANGES) =>
  episodeKnobs(ranges)
    .extend({ prompts: z.record(z.string(), z.string()).optional() })
    .superRefine(refuseKnobConflicts);

function reasons(input: unknown, ranges = RUNNER_KNOB_RANGES): string[] {
  const r = knobs(ranges).safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe("episode knobs (SPEC §5)", () => {
  it("default to the locked protocol", () => {
    expect(knobs().parse({})).toEqual(LOCKED_KNOBS);
  });

  it("a launch's ranges lie inside the runner's", () => {
    expect(LAUNCH_KNOB_RANGES.maxTemperature).toBeLessThanOrEqual(RUNNER_KNOB_RANGES.maxTemperature);
    expect(LAUNCH_KNOB_RANGES.minTokens).toBeGreaterThanOrEqual(RUNNER_KNOB_RANGES.minTokens);
    expect(LAUNCH_KNOB_RANGES.maxTurns).toBeLessThanOrEqual(RUNNER_KNOB_RANGES.maxTurns);
    expect(LAUNCH_KNOB_RANGES.maxParallel).toBeLessThanOrEqual(RUNNER_KNOB_RANGES.maxParallel);
    expect(RUNNER_KNOB_RANGES.maxTokens).toBeUndefined();
  });

  it("names the bound of each range", () => {
    expect(reasons({ temperature: 3 }, LAUNCH_KNOB_RANGES)).toEqual(["Temperature must be <= 2"]);
    expect(reasons({ temperature: 3 })).toEqual([]);
    expect(reasons({ maxTokens: 8 }, LAUNCH_KNOB_RANGES)).toEqual(["At least 16 tokens"]);
    expect(reasons({ maxTokens: 0 })).toEqual(["At least 1 token"]);
    expect(reasons({ maxTokens: 40_000 }, LAUNCH_KNOB_RANGES)).toEqual(["At most 32768 tokens"]);
    expect(reasons({ maxTurns: 20 }, LAUNCH_KNOB_RANGES)).toEqual(["At most 16 tool rounds"]);
    expect(reasons({ maxParallel: 0 })).toEqual(["At least one call per turn"]);
  });

  it("the reference request: evaluator dispatch, no think prefix, preset or overrides; video_url is its own", () => {
    expect(reasons({ requestStyle: "reference" })).toEqual([]);
    expect(reasons({ requestStyle: "reference", prompts: {} })).toEqual([]);
    expect(
      reasons({
        requestStyle: "reference",
        dispatch: "subagent",
        thinkPrefix: true,
        promptPreset: "nano",
        prompts: { system: "x" },
      }),
    ).toEqual([
      "The reference request returns crops to the main agent: use the evaluator's dispatch",
      "The reference evaluator forces no <think> prefix",
      "The reference request sends its own texts: no overrides",
      "The reference request has its own wording: no prompt preset",
    ]);
    expect(reasons({ videoChannel: "video_url" })).toEqual(["The video_url channel is the reference request's"]);
    expect(reasons({ requestStyle: "reference", videoChannel: "video_url" })).toEqual([]);
  });
});
