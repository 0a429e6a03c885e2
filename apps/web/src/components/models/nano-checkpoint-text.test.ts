import { readFileSync } from "node:fs";
import { checkpointProvenance } from "@paravt/shared";
import { describe, expect, it } from "vitest";
import { headlineMeasurements, kText, lineageSummary, qualitySummary } from "./nano-checkpoint-text";

// The committed default checkpoint's own record, as models.list passes it on.
const DEFAULT = checkpointProvenance.parse(
  JSON.parse(
    readFileSync(new URL("../../../../../packages/nano/checkpoints/default/config.json", import.meta.url), "utf8"),
  ),
);

describe("a nano checkpoint in words", () => {
  it("sums the lineage up: stages, steps, the last stage", () => {
    expect(lineageSummary(DEFAULT.lineage!)).toBe(
      "18 stages, 48,640 steps; last: o1 (research/torch/train_sft.py, 3,343 steps, 2-core VM CPU)",
    );
    expect(lineageSummary(DEFAULT.lineage!.slice(0, 1))).toBe(
      "1 stage, 10,000 steps; last: scratch-fg (paravt nano train, 10,000 steps, 2-core VM CPU)",
    );
    expect(kText(DEFAULT.trainedKs!)).toBe("K = 4, 8, 16");
  });

  it("quotes the quality on its first suite with tools, one row per K", () => {
    expect(headlineMeasurements(DEFAULT.quality!).map((m) => [m.suite, m.k, m.tools])).toEqual([
      ["heldout120tf", 4, true],
      ["heldout120tf", 8, true],
      ["heldout120tf", 16, true],
    ]);
    expect(qualitySummary(DEFAULT.quality!)).toBe(
      "heldout120tf (2026-11-27, with tools): K = 4: compliance 1.000, score 0.323; " +
        "K = 8: compliance 1.000, score 0.314; K = 16: compliance 0.925, score 0.333",
    );
    const undated = {
      ...DEFAULT.quality!,
      date: null,
      measurements: [{ ...DEFAULT.quality!.measurements[2]!, tools: null }],
    };
    expect(qualitySummary(undated)).toBe("heldout120tf (undated): K = 8: compliance 1.000, score 0.314");
  });
});
