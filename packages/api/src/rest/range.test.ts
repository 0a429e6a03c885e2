import { describe, expect, it } from "vitest";
import { parseRange } from "./range";

describe("parseRange", () => {
  it("serves the whole file without a Range header", () => {
    expect(parseRange(null, 100)).toEqual({ kind: "full" });
  });
  it("reads bounded, open-ended and suffix ranges", () => {
    expect(parseRange("bytes=0-9", 100)).toEqual({ kind: "partial", start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ kind: "partial", start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ kind: "partial", start: 90, end: 99 });
    expect(parseRange("bytes=-500", 100)).toEqual({ kind: "partial", start: 0, end: 99 });
  });
  it("clamps an end past the file", () => {
    expect(parseRange("bytes=50-1000", 100)).toEqual({ kind: "partial", start: 50, end: 99 });
  });
  it("refuses a range starting at or past the end, and several ranges", () => {
    expect(parseRange("bytes=100-", 100).kind).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,5-9", 100)).toMatchObject({ kind: "unsatisfiable", reason: /multiple ranges/ });
    expect(parseRange("bytes=-0", 100).kind).toBe("unsatisfiable");
  });
  it("ignores what it cannot read", () => {
    expect(parseRange("items=0-5", 100)).toEqual({ kind: "full" });
    expect(parseRange("bytes=9-3", 100)).toEqual({ kind: "full" });
    expect(parseRange("bytes=abc", 100)).toEqual({ kind: "full" });
  });
});
