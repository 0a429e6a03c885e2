// Run events as live pages get them (issue 42 item 1), over the real Redis pub/sub: a burst of one
// run's events comes out as its first event, then one event with everything the rest changed
// (merged step range, names, episode count), while another run's event is not held back by it.
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { LiveRunMessage, RunEvent } from "../contracts/runs";
import { closeEventBus, onRunEvents, publishRunEvent, runEvents } from "./events";

afterAll(async () => {
  await closeEventBus();
});

function event(projectId: string, runId: string, step: number, changed: RunEvent["changed"]): RunEvent {
  return {
    projectId,
    runId,
    kind: "rl",
    status: "RUNNING",
    progress: step / 100,
    message: `step ${step}/100`,
    error: null,
    at: new Date().toISOString(),
    changed,
  };
}

async function take(it: AsyncIterator<LiveRunMessage>, n: number): Promise<LiveRunMessage[]> {
  const out: LiveRunMessage[] = [];
  while (out.length < n) out.push((await it.next()).value as LiveRunMessage);
  return out;
}

describe("runEvents coalescing", () => {
  it("merges a run's burst into one event after its first, and relays other runs at once", async () => {
    const projectId = `live-${randomUUID()}`;
    const abort = new AbortController();
    // A window far longer than the publishes below take, so the burst surely falls in one.
    const stream = runEvents(projectId, abort.signal, { coalesceMs: 2_000 })[Symbol.asyncIterator]();
    expect(await take(stream, 1)).toEqual([{ type: "subscribed" }]);
    // What every publisher sent, uncoalesced (the workers' own listeners keep getting each one).
    const raw: RunEvent[] = [];
    const stop = await onRunEvents(projectId, (e) => raw.push(e));

    const step = (s: number, extra: RunEvent["changed"] = {}) =>
      event(projectId, "a", s, { metrics: { names: ["loss"], fromStep: s, toStep: s }, ...extra });
    await publishRunEvent(step(1));
    await publishRunEvent(step(2, { episodes: { count: 8 } }));
    await publishRunEvent(event(projectId, "b", 7, { status: true }));
    await publishRunEvent(step(3, { episodes: { count: 8 } }));
    await publishRunEvent({ ...step(4), changed: { metrics: { names: ["val_loss"], fromStep: 4, toStep: 4 } } });

    const [first, other, merged] = await take(stream, 3);
    abort.abort();
    await stream.return?.(undefined);
    await stop();
    expect(first).toEqual({ type: "run", event: { ...step(1), at: expect.any(String) } });
    expect(other).toMatchObject({ type: "run", event: { runId: "b", changed: { status: true } } });
    expect(merged).toEqual({
      type: "run",
      event: {
        ...step(4),
        at: expect.any(String),
        changed: { metrics: { names: ["loss", "val_loss"], fromStep: 2, toStep: 4 }, episodes: { count: 16 } },
      },
    });
    expect(raw.map((e) => `${e.runId}:${e.message}`)).toEqual([
      "a:step 1/100",
      "a:step 2/100",
      "b:step 7/100",
      "a:step 3/100",
      "a:step 4/100",
    ]);
  });
});
