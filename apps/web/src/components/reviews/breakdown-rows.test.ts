import { describe, expect, it } from "vitest";
import { SEED_FAILURE_TAGS, type ReviewBreakdownOutput } from "@paravt/shared";
import { breakdownHeight, breakdownRows, countKey, TAG_LABEL_CHARS, truncateLabel } from "./breakdown-rows";

const counts = (pairs: [string, number][]) => pairs.map(([tagId, count]) => ({ tagId, name: `tag ${tagId}`, count }));

describe("breakdownRows", () => {
  it("gives every tag its own row with each run's count joined by tag id, not by position", () => {
    const data: ReviewBreakdownOutput = {
      runs: [
        {
          id: "a",
          name: "run a",
          tagged: 3,
          counts: counts([
            ["t1", 2],
            ["t2", 0],
            ["t3", 1],
          ]),
        },
        // Another order, and a tag the first run's taxonomy does not list.
        {
          id: "b",
          name: "run b",
          tagged: 1,
          counts: counts([
            ["t3", 5],
            ["t9", 7],
            ["t1", 1],
          ]),
        },
      ],
    };
    expect(breakdownRows(data)).toEqual([
      { tagId: "t1", tag: "tag t1", [countKey(0)]: 2, [countKey(1)]: 1 },
      { tagId: "t2", tag: "tag t2", [countKey(0)]: 0, [countKey(1)]: 0 },
      { tagId: "t3", tag: "tag t3", [countKey(0)]: 1, [countKey(1)]: 5 },
    ]);
    expect(breakdownRows({ runs: [] })).toEqual([]);
  });
});

describe("breakdown layout", () => {
  it("gives each tag a band tall enough for a one-line label (no label skipped)", () => {
    // 11 px labels need ~14 px plus recharts' 5 px minimum gap; two runs need room for two bars.
    expect(breakdownHeight(8, 1)).toBeGreaterThanOrEqual(8 * 24);
    expect(breakdownHeight(8, 2)).toBeGreaterThanOrEqual(8 * 34);
    expect(breakdownHeight(1, 1)).toBe(160);
  });

  it("keeps every seeded tag whole and cuts a long one with an ellipsis", () => {
    for (const tag of SEED_FAILURE_TAGS) expect(truncateLabel(tag)).toBe(tag);
    const long = "a very long failure tag that describes the whole failure mode in words";
    const cut = truncateLabel(long);
    expect(cut.length).toBeLessThanOrEqual(TAG_LABEL_CHARS);
    expect(cut.endsWith("…")).toBe(true);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(truncateLabel("abcdef", 4)).toBe("abc…");
  });
});
