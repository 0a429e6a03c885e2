import { describe, expect, it } from "vitest";
import { insertMention, matchMembers, mentionQuery, mentionedIds } from "./mentions";
import { reviewKeyAction } from "./review-keys";
import { formatScore, parseScore, scoreStep, stepScore } from "./score-input";

describe("reviewKeyAction", () => {
  it("maps the review keys and nothing else", () => {
    expect(reviewKeyAction("n")).toEqual({ kind: "next" });
    expect(reviewKeyAction("p")).toEqual({ kind: "prev" });
    expect(reviewKeyAction("c")).toEqual({ kind: "comment" });
    expect(reviewKeyAction("s")).toEqual({ kind: "score" });
    expect(reviewKeyAction("a")).toEqual({ kind: "status", status: "OPEN" });
    expect(reviewKeyAction("t")).toEqual({ kind: "status", status: "TRIAGED" });
    expect(reviewKeyAction("r")).toEqual({ kind: "status", status: "RESOLVED" });
    expect(reviewKeyAction("1")).toEqual({ kind: "tag", index: 0 });
    expect(reviewKeyAction("9")).toEqual({ kind: "tag", index: 8 });
    for (const k of ["0", "j", "l", " ", "[", "?", "N", "Escape"]) expect(reviewKeyAction(k)).toBeNull();
  });
});

describe("mentions", () => {
  const members = [
    { id: "u1", name: "Ada Lovelace", email: "ada@lab.org" },
    { id: "u2", name: "Alan Turing", email: "alan@lab.org" },
    { id: "u3", name: "Grace Hopper", email: "grace@lab.org" },
  ];

  it("finds the word after @ at the caret, not inside an address", () => {
    expect(mentionQuery("see @Ad", 7)).toEqual({ start: 4, query: "Ad" });
    expect(mentionQuery("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionQuery("mail ada@lab.org", 16)).toBeNull();
    expect(mentionQuery("@Ada said", 9)).toBeNull();
  });

  it("inserts the picked name and keeps ids only while their name is in the text", () => {
    const r = insertMention("ask @al about it", 7, 4, "Alan Turing");
    expect(r).toEqual({ text: "ask @Alan Turing  about it", caret: 17 });
    expect(matchMembers(members, "a").map((m) => m.id)).toEqual(["u1", "u2"]);
    expect(matchMembers(members, "hop").map((m) => m.id)).toEqual(["u3"]);
    expect(mentionedIds(r.text, members)).toEqual(["u2"]);
    expect(mentionedIds("no one", members)).toEqual([]);
  });
});

describe("score field", () => {
  it("steps about a twentieth of the range, rounded to 1, 2 or 5 times a power of ten", () => {
    expect(scoreStep(0, 1)).toBe(0.05);
    expect(scoreStep(1, 5)).toBe(0.2);
    expect(scoreStep(0, 5)).toBe(0.5);
    expect(scoreStep(1, 3)).toBe(0.1);
    expect(scoreStep(-1, 1)).toBe(0.1);
    expect(scoreStep(0, 100)).toBe(5);
    expect(scoreStep(0, 0)).toBe(1); // no range: plain steps, never 0
  });

  it("reads a typed value: empty clears, a number must lie in the range", () => {
    const range = { min: 0, max: 5 };
    expect(parseScore("", range)).toEqual({ ok: true, value: null });
    expect(parseScore(" 2.5 ", range)).toEqual({ ok: true, value: 2.5 });
    expect(parseScore("0", range)).toEqual({ ok: true, value: 0 });
    expect(parseScore("5", range)).toEqual({ ok: true, value: 5 });
    expect(parseScore("5.01", range)).toEqual({ ok: false, error: "Between 0 and 5" });
    expect(parseScore("-1", range)).toEqual({ ok: false, error: "Between 0 and 5" });
    expect(parseScore("abc", range)).toEqual({ ok: false, error: "Type a number" });
    expect(formatScore(2 / 3)).toBe("0.667");
    expect(formatScore(4)).toBe("4");
  });

  it("arrow keys step on the grid from the minimum and stay in the range", () => {
    const unit = { min: 0, max: 1 };
    expect(stepScore("", unit, 1)).toBe(0);
    expect(stepScore("", unit, -1)).toBe(1);
    expect(stepScore("0.1", unit, 1)).toBe(0.15);
    expect(stepScore("0.33", unit, 1)).toBe(0.4); // back onto the grid
    expect(stepScore("0.3", unit, -1)).toBe(0.25);
    expect(stepScore("1", unit, 1)).toBe(1);
    expect(stepScore("0", unit, -1)).toBe(0);
    expect(stepScore("x", unit, 1)).toBe(0);
    expect(stepScore("2", { min: 1, max: 5 }, 1)).toBe(2.2);
  });
});
