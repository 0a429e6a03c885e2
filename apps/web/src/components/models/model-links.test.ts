import { describe, expect, it } from "vitest";
import { modelLinks, preselectedModelIds } from "./model-links";

describe("model links", () => {
  it("links a trained model to its run, its evaluations and the eval form with it pre-selected", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    expect(
      modelLinks("p1", {
        id: "m1",
        producedByRunId: "r1",
        evaluations: [{ groupId: "g2", name: "second", createdAt: at }],
      }),
    ).toEqual({
      producedBy: "/projects/p1/runs/r1",
      evaluations: [{ href: "/projects/p1/evals/g2", label: "second" }],
      evaluate: "/projects/p1/evals?model=m1",
    });
  });

  it("has no producing run for a model added by hand", () => {
    expect(modelLinks("p1", { id: "m2", producedByRunId: null, evaluations: [] }).producedBy).toBeNull();
  });

  it("reads the pre-selected models from the URL", () => {
    expect(preselectedModelIds(new URLSearchParams("model=m1&model=&model=m2&model=m1"))).toEqual(["m1", "m2"]);
    expect(preselectedModelIds(new URLSearchParams(""))).toEqual([]);
  });
});
