import { describe, expect, it } from "vitest";
import { filtersFromParams, hasFilters, searchWith } from "./sample-filters";

describe("sample filters in the URL", () => {
  it("reads every filter from its parameter", () => {
    const f = filtersFromParams(new URLSearchParams("outcome=wrong&type=mcq&minCalls=1&maxCalls=3&k=8&duration=long"));
    expect(f).toEqual({
      outcome: "wrong",
      questionType: "mcq",
      minToolCalls: 1,
      maxToolCalls: 3,
      k: 8,
      duration: "long",
    });
    expect(hasFilters(f)).toBe(true);
  });

  it("drops values the API would refuse instead of sending them", () => {
    const f = filtersFromParams(new URLSearchParams("outcome=maybe&type=essay&minCalls=-1&k=0&duration=&maxCalls=x"));
    expect(f).toEqual({});
    expect(hasFilters(f)).toBe(false);
  });

  it("sets and clears filters, keeping the others", () => {
    const params = new URLSearchParams("outcome=wrong&k=8");
    expect(searchWith(params, { outcome: "error", minToolCalls: 2 })).toBe("?outcome=error&k=8&minCalls=2");
    expect(searchWith(params, { outcome: undefined, k: "" })).toBe("?");
    expect(filtersFromParams(new URLSearchParams(searchWith(params, { questionType: "tvg" }).slice(1)))).toEqual({
      outcome: "wrong",
      k: 8,
      questionType: "tvg",
    });
  });
});
