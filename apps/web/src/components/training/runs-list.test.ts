import { describe, expect, it } from "vitest";
import { EMPTY_VIEW, runsViewFrom, runsViewSearch, toggleSelected, type RunsView } from "./runs-list";

const from = (q: string) => runsViewFrom(new URLSearchParams(q));

describe("the runs table's view in the URL", () => {
  it("round-trips every part of the view", () => {
    const view: RunsView = {
      kind: "all",
      status: "SUCCEEDED",
      columns: ["status", "config:overrides.klCoef", "last:train/loss", "best:loss", "eval:accuracy"],
      sort: { key: "last:train/loss", dir: "desc" },
      filter: 'preset=tiny loss<0.5 name="my run"',
      group: "config:preset",
      selected: ["cabc123", "cdef456"],
    };
    const search = runsViewSearch(view);
    expect(search).toContain("sort=-last:train%2Floss");
    expect(search).toContain("sel=cabc123,cdef456");
    expect(from(search.slice(1))).toEqual(view);
  });

  it("writes nothing for the default view, and reads nothing into it", () => {
    expect(runsViewSearch(EMPTY_VIEW)).toBe("");
    expect(from("")).toEqual(EMPTY_VIEW);
  });

  it("tells the default columns (no `col`) from none picked (one empty `col`)", () => {
    const none = runsViewSearch({ ...EMPTY_VIEW, columns: [] });
    expect(none).toBe("?col=");
    expect(from(none.slice(1)).columns).toEqual([]);
    expect(from("").columns).toBeNull();
  });

  it("keeps the other parameters of the address", () => {
    const search = runsViewSearch({ ...EMPTY_VIEW, kind: "rl" }, new URLSearchParams("kind=sft&foo=1&q=old"));
    expect(search).toBe("?foo=1&kind=rl");
  });

  it("drops what it does not know: kinds, statuses, columns, sorts, groups and run ids", () => {
    expect(
      from(
        "kind=job&status=running&col=bogus&col=name&col=status&col=status&sort=-nope&group=eval:nope&sel=ok1,bad%20id,,ok1",
      ),
    ).toEqual({ ...EMPTY_VIEW, columns: ["status"], selected: ["ok1"] });
    // The old Training tab's links still work.
    expect(from("kind=rl&status=RUNNING")).toEqual({ ...EMPTY_VIEW, kind: "rl", status: "RUNNING" });
  });

  it("keeps at most five runs picked to overlay", () => {
    expect(from("sel=a,b,c,d,e,f").selected).toEqual(["a", "b", "c", "d", "e"]);
    expect(toggleSelected(["a", "b", "c", "d", "e"], "f")).toEqual(["a", "b", "c", "d", "e"]);
    expect(toggleSelected(["a", "b"], "a")).toEqual(["b"]);
    expect(toggleSelected(["a"], "b")).toEqual(["a", "b"]);
  });
});
