import { describe, expect, it } from "vitest";
import { extractLetter, extractTimeRange } from "./eval-extract";

describe("extractLetter (SPEC §4 MCQ letter A–J)", () => {
  it("takes a single letter inside <answer>", () => {
    expect(extractLetter("<think>A or B?</think><answer> C </answer>")).toBe("C");
  });

  it("else the first standalone A–J inside <answer>", () => {
    expect(extractLetter("<answer>Option (D) is right</answer>")).toBe("D");
  });

  it("falls through when <answer> holds no letter", () => {
    expect(extractLetter("<answer>none</answer> so B")).toBe("B");
  });

  it("else a one-letter reply", () => {
    expect(extractLetter("  J \n")).toBe("J");
  });

  it("else `answer is X` / `Answer: X`", () => {
    expect(extractLetter("I think the answer is F because E is wrong")).toBe("F");
    expect(extractLetter("Reasoning about A.\nAnswer: G")).toBe("G");
  });

  it("else the first standalone A–J", () => {
    expect(extractLetter("We choose H over K.")).toBe("H");
    expect(extractLetter("I choose H.")).toBe("I");
    expect(extractLetter("ÉA then C")).toBe("C");
  });

  it("else the first character (code point), or empty", () => {
    expect(extractLetter("xyz")).toBe("x");
    expect(extractLetter("😀 no")).toBe("😀");
    expect(extractLetter("   ")).toBe("");
  });
});

describe("extractTimeRange (SPEC §4 time range)", () => {
  it("prefers the inside of <time>…</time>", () => {
    expect(extractTimeRange("20 - 30 <time>00:19.7 - 00:25.6</time>")).toEqual([19.7, 25.6]);
  });

  it("reads MM:SS(.f) - MM:SS(.f) first, with dash, en dash or em dash", () => {
    expect(extractTimeRange("from 1:05 – 1:30")).toEqual([65, 90]);
    expect(extractTimeRange("01:00—01:10.5")).toEqual([60, 70.5]);
  });

  it("the MM:SS form needs end > start and end < 3600 (reference detail)", () => {
    expect(extractTimeRange("59:00 - 61:00")).toEqual([0, 61]);
  });

  it("then `s - e` in seconds, needing e > s", () => {
    expect(extractTimeRange("The event happens in the 24.3 - 30.4 seconds.")).toEqual([24.3, 30.4]);
    expect(extractTimeRange("between 30 - 20 and later")).toEqual([30, 20]);
  });

  it("then `start … N` with `end … M`, case-insensitive like Python re.I", () => {
    expect(extractTimeRange("Starting time: 12 and ENDING at 18")).toEqual([12, 18]);
    expect(extractTimeRange("ſtart 4 then finish 8")).toEqual([4, 8]);
    expect(extractTimeRange("begİnning 3 end 9")).toEqual([3, 9]);
  });

  it("then the first two numbers; null with fewer", () => {
    expect(extractTimeRange("around 5 and 9 s")).toEqual([5, 9]);
    expect(extractTimeRange("only 7")).toBeNull();
    expect(extractTimeRange("   ")).toBeNull();
  });

  it("reads Unicode digits like Python's \\d", () => {
    expect(extractTimeRange("٣ - ٥")).toEqual([3, 5]);
  });
});
