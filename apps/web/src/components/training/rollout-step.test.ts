import { MAX_ROLLOUT_STEP } from "@paravt/shared";
import { describe, expect, it } from "vitest";
import { groupInspectorHref, groupOf, rewardTermEntries, rolloutStepFrom, rolloutStepSearch } from "./rollout-step";

describe("the rollouts panel's step in the URL", () => {
  it("reads a whole step and drops anything else", () => {
    const at = (q: string) => rolloutStepFrom(new URLSearchParams(q));
    expect(at("step=12")).toBe(12);
    expect(at("step=0")).toBe(0);
    expect(at("x=time&step=3&smooth=0.6")).toBe(3);
    for (const bad of ["", "step=", "step=-1", "step=1.5", "step=abc", "step=1e3", `step=${MAX_ROLLOUT_STEP + 1}`])
      expect(at(bad)).toBeNull();
  });

  it("sets and clears the step, keeping the dashboard's parameters", () => {
    const current = new URLSearchParams("x=time&from=1&to=5");
    expect(rolloutStepSearch(current, 7)).toBe("?x=time&from=1&to=5&step=7");
    expect(rolloutStepSearch(new URLSearchParams("step=7&x=time"), 8)).toBe("?step=8&x=time");
    expect(rolloutStepSearch(new URLSearchParams("step=7&x=time"), null)).toBe("?x=time");
    expect(rolloutStepSearch(new URLSearchParams("step=7"), null)).toBe("");
    expect(rolloutStepSearch(new URLSearchParams("runs=a,b"), 2)).toBe("?runs=a,b&step=2");
  });
});

describe("rewardTermEntries", () => {
  it("puts the SPEC §2 reward and its terms first, then the other stored fields by name", () => {
    const entries = rewardTermEntries({
      seed: 42,
      toolReward: 0.1,
      degenerate: false,
      reward: 1.6,
      formatCompliant: true,
      accReward: 1,
      formatReward: 0.5,
      step: 3,
    });
    expect(entries.map((e) => [e.label, e.value])).toEqual([
      ["total", "1.600"],
      ["accuracy", "1"],
      ["format", "0.500"],
      ["tool", "0.100"],
      ["degenerate", "no"],
      ["format compliant", "yes"],
      ["seed", "42"],
    ]);
  });

  it("shows the advantage after the reward terms and leaves the group's place to the group column", () => {
    const entries = rewardTermEntries({
      reward: 1,
      advantage: -0.75,
      group: 2,
      groupIndex: 5,
      groupSize: 8,
      seed: 1,
    });
    expect(entries.map((e) => [e.label, e.value])).toEqual([
      ["total", "1"],
      ["advantage", "-0.750"],
      ["seed", "1"],
    ]);
  });

  it("shows whatever a trainer stored, and nothing for no terms", () => {
    expect(rewardTermEntries(null)).toEqual([]);
    expect(rewardTermEntries({ judge: "f1", acc: 0.25 })).toEqual([
      { key: "acc", label: "acc", value: "0.250" },
      { key: "judge", label: "judge", value: "f1" },
    ]);
  });
});

describe("groupOf / groupInspectorHref", () => {
  it("reads the recorded group, null for older runs or anything else", () => {
    expect(groupOf({ group: 3 })).toBe(3);
    expect(groupOf({ reward: 1 })).toBeNull();
    expect(groupOf({ group: "3" })).toBeNull();
    expect(groupOf({ group: -1 })).toBeNull();
    expect(groupOf(null)).toBeNull();
  });
  it("links to a step's first group or to one group", () => {
    expect(groupInspectorHref("p", "r", 4, null)).toBe("/projects/p/runs/r/groups?step=4");
    expect(groupInspectorHref("p", "r", 4, 2)).toBe("/projects/p/runs/r/groups?step=4&group=2");
  });
});
