import { describe, expect, it } from "vitest";
import { RUN_CHANGE_MAX_IDS, RUN_CHANGE_MAX_NAMES, runEventSchema, type RunEvent } from "../contracts/runs";
import { mergeRunChanges, mergeRunEvents } from "./run-event-merge";

const event = (over: Partial<RunEvent>): RunEvent => ({
  projectId: "p",
  runId: "r",
  kind: "sft",
  status: "RUNNING",
  progress: 0.1,
  message: "step 1/10",
  error: null,
  at: "2026-01-01T00:00:00.000Z",
  changed: {},
  ...over,
});

describe("mergeRunEvents", () => {
  it("keeps the later row and the union of both changes (step ranges, names, episodes, status)", () => {
    const a = event({
      status: "QUEUED",
      progress: 0,
      changed: { status: true, metrics: { names: ["loss", "lr"], fromStep: 3, toStep: 4 } },
    });
    const b = event({
      progress: 0.5,
      message: "step 5/10",
      at: "2026-01-01T00:00:01.000Z",
      changed: {
        metrics: { names: ["grad_norm", "loss"], fromStep: 5, toStep: 5 },
        episodes: { count: 2, ids: ["e1", "e2"] },
      },
    });
    const merged = mergeRunEvents(a, b);
    expect(merged).toEqual({
      ...b,
      changed: {
        status: true,
        metrics: { names: ["grad_norm", "loss", "lr"], fromStep: 3, toStep: 5 },
        episodes: { count: 2, ids: ["e1", "e2"] },
      },
    });
    expect(runEventSchema.parse(merged)).toEqual(merged);
    // Episodes add up; a later burst's range may start before (a backfill): the range covers both.
    const c = event({
      changed: { metrics: { names: ["loss"], fromStep: 1, toStep: 2 }, episodes: { count: 1, ids: ["e3"] } },
    });
    expect(mergeRunEvents(merged, c).changed).toEqual({
      status: true,
      metrics: { names: ["grad_norm", "loss", "lr"], fromStep: 1, toStep: 5 },
      episodes: { count: 3, ids: ["e1", "e2", "e3"] },
    });
  });

  it("names no series (any) once either side does or the union passes the cap; ids likewise", () => {
    const named = { metrics: { names: ["loss"], fromStep: 1, toStep: 1 } };
    expect(mergeRunChanges(named, { metrics: { fromStep: 2, toStep: 2 } })).toEqual({
      metrics: { fromStep: 1, toStep: 2 },
    });
    const many = (prefix: string) => Array.from({ length: RUN_CHANGE_MAX_NAMES }, (_, i) => `${prefix}${i}`);
    expect(
      mergeRunChanges(
        { metrics: { names: many("a"), fromStep: 1, toStep: 1 } },
        { metrics: { names: many("b"), fromStep: 1, toStep: 1 } },
      ),
    ).toEqual({ metrics: { fromStep: 1, toStep: 1 } });
    const ids = (prefix: string) => Array.from({ length: RUN_CHANGE_MAX_IDS }, (_, i) => `${prefix}${i}`);
    expect(
      mergeRunChanges({ episodes: { count: 100, ids: ids("a") } }, { episodes: { count: 100, ids: ids("b") } }),
    ).toEqual({
      episodes: { count: 200 },
    });
    expect(mergeRunChanges({ episodes: { count: 3 } }, { episodes: { count: 1, ids: ["x"] } })).toEqual({
      episodes: { count: 4 },
    });
  });

  it("keeps an unsaid change unsaid (a page refetches everything of the run)", () => {
    expect(mergeRunEvents(event({ changed: undefined }), event({ changed: { status: true } })).changed).toBeUndefined();
    expect("changed" in mergeRunEvents(event({}), event({ changed: undefined }))).toBe(false);
    expect(mergeRunChanges({}, {})).toEqual({});
  });

  it("keeps an out-of-order write's flag through the merge (charts read again)", () => {
    expect(
      mergeRunChanges(
        { metrics: { names: ["loss"], fromStep: 9, toStep: 9 } },
        { metrics: { names: ["loss"], fromStep: 3, toStep: 3, backfill: true } },
      ),
    ).toEqual({ metrics: { names: ["loss"], fromStep: 3, toStep: 9, backfill: true } });
  });
});
