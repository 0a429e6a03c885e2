// The wall time of an ingested metric point against the server's clock (ingest-clock.ts): the
// boundaries of the tolerance, and the texts a trainer's warning quotes.
import { describe, expect, it } from "vitest";
import { CLOCK_SKEW_TOLERANCE_MS } from "../../contracts/ingest";
import { metricWallTime, spanText, withNotes } from "./ingest-clock";

const now = new Date("2026-11-20T12:00:00.000Z");
const created = new Date("2026-11-20T10:00:00.000Z");
const at = (ms: number) => new Date(ms).toISOString();

describe("metricWallTime", () => {
  it("keeps an `at` up to the tolerance ahead, and replaces one beyond it by the server's time", () => {
    const edge = at(now.getTime() + CLOCK_SKEW_TOLERANCE_MS);
    expect(metricWallTime(edge, now, created)).toEqual({ wallTime: new Date(edge) });
    const beyond = at(now.getTime() + CLOCK_SKEW_TOLERANCE_MS + 1);
    const out = metricWallTime(beyond, now, created);
    expect(out.wallTime).toEqual(now);
    expect(out.note?.code).toBe("clock_ahead");
    expect(out.note?.text).toBe(
      `at ${beyond} is 5 min ahead of the server's clock (more than the 5 min tolerance; the sending ` +
        `machine's clock runs ahead): stored at the server's time 2026-11-20T12:00:00.000Z`,
    );
  });

  it("keeps an `at` long before the run was created as given, and says so", () => {
    const edge = at(created.getTime() - CLOCK_SKEW_TOLERANCE_MS);
    expect(metricWallTime(edge, now, created)).toEqual({ wallTime: new Date(edge) });
    const epoch = "1970-01-01T00:00:00.000Z"; // a machine whose clock was never set
    const out = metricWallTime(epoch, now, created);
    expect(out.wallTime).toEqual(new Date(0));
    expect(out.note?.code).toBe("before_run");
    const days = Math.round(created.getTime() / 86_400_000);
    expect(out.note?.text).toMatch(
      new RegExp(`^at 1970-01-01T00:00:00.000Z is ${days} days before the run was created`),
    );
  });

  it("reads offsets as the same instant, and leaves a missing `at` to the database", () => {
    expect(metricWallTime("2026-11-20T13:03:00+01:00", now, created)).toEqual({
      wallTime: new Date("2026-11-20T12:03:00Z"),
    });
    expect(metricWallTime(undefined, now, created)).toEqual({});
  });
});

describe("spanText and withNotes", () => {
  it("sizes a span in the unit a reader wants", () => {
    expect([45e3, 119e3, 12 * 60e3, 5.5 * 3600e3, 3 * 86_400e3].map(spanText)).toEqual([
      "45 s",
      "119 s",
      "12 min",
      "5.5 h",
      "3 days",
    ]);
  });

  it("joins several reasons and keeps the first one's code", () => {
    const notes = [
      { code: "kept_stored_values" as const, text: "a" },
      { code: "clock_ahead" as const, text: "b" },
    ];
    expect(withNotes({ id: "x", status: "stored" }, notes)).toEqual({
      id: "x",
      status: "stored",
      reason: "a; b",
      code: "kept_stored_values",
    });
    expect(withNotes({ id: "x", status: "stored" }, [])).toEqual({ id: "x", status: "stored" });
  });
});
