import { describe, expect, it } from "vitest";
import { insertMention, matchMembers, mentionQuery, mentionedIds } from "./mentions";
import { reviewKeyAction } from "./review-keys";

describe("reviewKeyAction", () => {
  it("maps the review keys and nothing else", () => {
    expect(reviewKeyAction("n")).toEqual({ kind: "next" });
    expect(reviewKeyAction("p")).toEqual({ kind: "prev" });
    expect(reviewKeyAction("c")).toEqual({ kind: "comment" });
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
