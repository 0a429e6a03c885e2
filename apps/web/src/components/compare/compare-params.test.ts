import { describe, expect, it } from "vitest";
import { compareHref, compareParamsFrom, toggleRun } from "./compare-params";

describe("compare URL state", () => {
  it("reads the sample and up to four distinct runs, dropping malformed ids", () => {
    const p = compareParamsFrom(new URLSearchParams("sample=s1&runs=a,b,,a,c d,e,f,g"));
    expect(p).toEqual({ sampleId: "s1", runIds: ["a", "b", "e", "f"] });
    expect(compareParamsFrom(new URLSearchParams("sample=../x"))).toEqual({ sampleId: null, runIds: [] });
  });

  it("writes a readable link that reads back to the same state", () => {
    const href = compareHref("p1", { sampleId: "s1", runIds: ["a", "b"] });
    expect(href).toBe("/projects/p1/compare?sample=s1&runs=a,b");
    expect(compareParamsFrom(new URLSearchParams(href.split("?")[1]))).toEqual({ sampleId: "s1", runIds: ["a", "b"] });
    expect(compareHref("p1", { sampleId: null, runIds: [] })).toBe("/projects/p1/compare");
  });

  it("toggles runs and keeps the four most recent choices", () => {
    expect(toggleRun(["a", "b"], "a")).toEqual(["b"]);
    expect(toggleRun(["a", "b", "c", "d"], "e")).toEqual(["b", "c", "d", "e"]);
  });
});
