import { describe, expect, it } from "vitest";
import {
  ACTIVE_POLL_MS,
  compareRefetchMs,
  comparisonLayout,
  isActiveStatus,
  nextPickers,
  pickersStartOpen,
} from "./compare-layout";

const col = (status: "QUEUED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED") => ({ run: { status } });

describe("comparison page layout and liveness", () => {
  it("polls while a compared run is queued or running, and stops once all have finished", () => {
    expect(compareRefetchMs(undefined)).toBe(false);
    expect(compareRefetchMs([])).toBe(false);
    expect(compareRefetchMs([col("SUCCEEDED"), col("QUEUED")])).toBe(ACTIVE_POLL_MS);
    expect(compareRefetchMs([col("RUNNING")])).toBe(ACTIVE_POLL_MS);
    expect(compareRefetchMs([col("SUCCEEDED"), col("FAILED"), col("CANCELLED")])).toBe(false);
    expect(isActiveStatus("RUNNING")).toBe(true);
    expect(isActiveStatus("SUCCEEDED")).toBe(false);
  });

  it("puts the table beside the player for two models and above it for three or four", () => {
    expect(comparisonLayout(1)).toBe("side");
    expect(comparisonLayout(2)).toBe("side");
    expect(comparisonLayout(3)).toBe("stacked");
    expect(comparisonLayout(4)).toBe("stacked");
  });

  it("folds the pickers when the page opens on a comparison", () => {
    expect(pickersStartOpen([])).toBe(true);
    expect(pickersStartOpen(["a", "b"])).toBe(false);
  });

  it("folds the pickers once the runs of a launch reach the URL, and keeps them open while picking", () => {
    // "Run now" on a sample with no run yet: the launch render still has no run in the URL.
    let p = nextPickers({ open: true, foldPending: true }, 0);
    expect(p).toEqual({ open: true, foldPending: true });
    p = nextPickers(p, 2);
    expect(p).toEqual({ open: false, foldPending: false });
    // Ticking existing runs one by one leaves them as they are (open).
    expect(nextPickers({ open: true, foldPending: false }, 1)).toEqual({ open: true, foldPending: false });
    // Dropping every run unfolds them.
    expect(nextPickers({ open: false, foldPending: false }, 0)).toEqual({ open: true, foldPending: false });
  });
});
