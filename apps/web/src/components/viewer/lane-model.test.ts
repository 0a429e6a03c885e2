import { describe, expect, it } from "vitest";
import { packRows, parseWindowId, spanOf, stepWindow, type LaneWindow } from "./lane-model";

const w = (turn: number, call: number, startS: number, endS: number): LaneWindow => ({
  id: `${turn}.${call}`,
  turn,
  call,
  startS,
  endS,
  status: "OK",
  clamped: false,
  frameTimestamps: [],
  summary: null,
  error: null,
});

describe("lane model", () => {
  it("reads grounding spans from answers and predictions (SPEC §4 time range)", () => {
    expect(spanOf("[12.5, 20]")).toEqual({ startS: 12.5, endS: 20 });
    expect(spanOf("3-7.5")).toEqual({ startS: 3, endS: 7.5 });
    expect(spanOf("10.0 - 14.0")).toEqual({ startS: 10, endS: 14 });
    expect(spanOf("B")).toBeNull();
    expect(spanOf("9 - 4")).toBeNull();
  });

  it("steps through windows in time order, from the selection or from the current time", () => {
    const ordered = [w(0, 0, 1, 3), w(1, 0, 2, 4), w(0, 1, 5, 6)];
    expect(stepWindow(ordered, "0.0", 0, 1)?.id).toBe("1.0");
    expect(stepWindow(ordered, "0.1", 0, 1)?.id).toBe("0.1");
    expect(stepWindow(ordered, null, 2.5, 1)?.id).toBe("0.1");
    expect(stepWindow(ordered, null, 2.5, -1)?.id).toBe("1.0");
    expect(stepWindow([], null, 0, 1)).toBeNull();
    expect(parseWindowId("2.4")).toEqual({ turn: 2, call: 4 });
    expect(parseWindowId("x")).toBeNull();
  });

  it("stacks overlapping windows of a turn in separate rows", () => {
    const rows = packRows([w(0, 0, 0, 5), w(0, 1, 3, 8), w(0, 2, 6, 9)]);
    expect([rows.get("0.0"), rows.get("0.1"), rows.get("0.2")]).toEqual([0, 1, 0]);
  });
});
