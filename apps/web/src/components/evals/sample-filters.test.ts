import { describe, expect, it } from "vitest";
import { evalSampleGridInput, evalSampleListInput } from "@paravt/shared";
import {
  clearedSearch,
  comparisonFromParams,
  filtersFromParams,
  hasFilters,
  sampleQueryFilters,
  searchWith,
  searchWithView,
  viewFromParams,
} from "./sample-filters";

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

describe("table or grid, one set of filters", () => {
  it("keeps the view in the URL (?view=grid; the table is the default) beside the filters", () => {
    const params = new URLSearchParams("outcome=wrong&vs=run_b");
    expect(viewFromParams(params)).toBe("table");
    expect(searchWithView(params, "grid")).toBe("?outcome=wrong&vs=run_b&view=grid");
    expect(viewFromParams(new URLSearchParams("view=grid&k=8"))).toBe("grid");
    expect(viewFromParams(new URLSearchParams("view=cards"))).toBe("table");
    expect(searchWithView(new URLSearchParams("view=grid&k=8"), "table")).toBe("?k=8");
    // Clearing the filters keeps the view.
    expect(clearedSearch(new URLSearchParams("view=grid&k=8&vs=x&flipped=any"))).toBe("?view=grid");
    expect(clearedSearch(new URLSearchParams("k=8"))).toBe("?");
  });

  it("sends the same filters to the table and the grid, the flip only with a run to flip against", () => {
    const params = new URLSearchParams(
      "outcome=correct&type=tvg&minCalls=1&k=8&vs=run_b&flipped=right_to_wrong&view=grid",
    );
    const query = sampleQueryFilters(filtersFromParams(params), comparisonFromParams(params));
    expect(query).toEqual({
      outcome: "correct",
      questionType: "tvg",
      minToolCalls: 1,
      k: 8,
      flippedAgainst: "run_b",
      flipDirection: "right_to_wrong",
    });
    const ref = { projectId: "p", runId: "r" };
    // Both procedures accept it as is (the grid's input is the table's, extended).
    const table = evalSampleListInput.parse({ ...ref, ...query });
    const grid = evalSampleGridInput.parse({ ...ref, ...query, compareWith: "run_b" });
    const { limit: _t, ...tableFilters } = table;
    const { limit: _g, compareWith, ...gridFilters } = grid;
    expect(gridFilters).toEqual(tableFilters);
    expect(compareWith).toBe("run_b");
    // A comparison without a flip direction filters nothing.
    const noFlip = new URLSearchParams("vs=run_b");
    expect(sampleQueryFilters(filtersFromParams(noFlip), comparisonFromParams(noFlip))).toEqual({});
  });
});
