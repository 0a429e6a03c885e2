import type { GroupRolloutOutput } from "@paravt/shared";
import { describe, expect, it } from "vitest";
import { advantageBar, formatAdvantage, groupViewFrom, groupViewSearch, orderRollouts } from "./group-params";

const rollout = (rollout: number, groupIndex: number | null, advantage: number | null) =>
  ({ rollout, groupIndex, advantage }) as GroupRolloutOutput;

describe("group inspector URL", () => {
  it("reads step, group and order, refusing what is not a whole number in range", () => {
    expect(groupViewFrom(new URLSearchParams("step=4&group=2&order=advantage"))).toEqual({
      step: 4,
      group: 2,
      order: "advantage",
    });
    expect(groupViewFrom(new URLSearchParams("step=-1&group=1.5&order=x"))).toEqual({
      step: null,
      group: null,
      order: "group",
    });
    expect(groupViewFrom(new URLSearchParams("step=99999999999&group=1000")).step).toBeNull();
    expect(groupViewFrom(new URLSearchParams("group=1000")).group).toBeNull();
  });

  it("round-trips, and a new step drops the group", () => {
    const view = { step: 4, group: 2, order: "advantage" as const };
    expect(groupViewFrom(new URLSearchParams(groupViewSearch(view, {})))).toEqual(view);
    expect(groupViewSearch(view, { step: 5 })).toBe("?step=5&order=advantage");
    expect(groupViewSearch(view, { step: 5, group: 0 })).toBe("?step=5&group=0&order=advantage");
    expect(groupViewSearch(view, { order: "group" })).toBe("?step=4&group=2");
  });
});

describe("orderRollouts", () => {
  const rs = [rollout(2, 2, -0.5), rollout(0, 0, 0.1), rollout(1, 1, 1.3)];
  it("keeps the group's order, or sorts by advantage, highest first", () => {
    expect(orderRollouts(rs, "group").map((r) => r.rollout)).toEqual([0, 1, 2]);
    expect(orderRollouts(rs, "advantage").map((r) => r.rollout)).toEqual([1, 0, 2]);
  });
  it("puts unrecorded advantages last, in batch order", () => {
    const old = [rollout(1, null, null), rollout(0, null, null), rollout(2, 2, -3)];
    expect(orderRollouts(old, "advantage").map((r) => r.rollout)).toEqual([2, 0, 1]);
    expect(orderRollouts(old, "group").map((r) => r.rollout)).toEqual([0, 1, 2]);
  });
});

describe("advantage display", () => {
  it("signs and rounds, and says when there is none", () => {
    expect(formatAdvantage(1.2247)).toBe("+1.22");
    expect(formatAdvantage(-0.409)).toBe("−0.41");
    expect(formatAdvantage(-0.001)).toBe("0.00");
    expect(formatAdvantage(null)).toBe("not recorded");
  });
  it("scales bars to half the track at the largest magnitude", () => {
    expect(advantageBar(-2, 2)).toEqual({ side: "negative", pct: 50 });
    expect(advantageBar(1, 2)).toEqual({ side: "positive", pct: 25 });
    expect(advantageBar(0, 0)).toEqual({ side: "positive", pct: 0 });
  });
});
