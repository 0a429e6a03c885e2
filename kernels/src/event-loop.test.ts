// The async API must not block the event loop: a 5 ms interval keeps ticking while a forward and
// then a backward of a moderately sized model (the benchmark config) run in the core. A
// synchronous call would starve the interval for its whole duration (at most one late tick).
// One core thread and a batch grown until the forward takes >= 150 ms keep the measurement
// meaningful on fast and slow machines alike; the bounds leave room for a loaded CI machine.
import { afterAll, describe, expect, it } from "vitest";

import { createModel, getThreads, setThreads } from "./index";
import { makeBatch } from "./test-helpers";

const threadsBefore = getThreads();
afterAll(() => setThreads(threadsBefore));

async function during(call: () => Promise<unknown>) {
  const ticks: number[] = [];
  const timer = setInterval(() => ticks.push(performance.now()), 5);
  const start = performance.now();
  await call();
  const end = performance.now();
  clearInterval(timer);
  const marks = [start, ...ticks.filter((t) => t <= end), end];
  const maxGap = Math.max(...marks.slice(1).map((t, i) => t - marks[i]!));
  return { elapsed: end - start, ticks: marks.length - 2, maxGap };
}

describe("event loop", () => {
  it("keeps ticking during forward and during backward", async () => {
    setThreads(1);
    const model = createModel({ vocabSize: 512, context: 256, width: 128, layers: 4, heads: 4, frameDim: 48 });
    let batch = makeBatch(model.config, 1, 256);
    let fwd = await during(() => model.forward(batch));
    for (let size = 2; size <= 16 && fwd.elapsed < 150; size *= 2) {
      batch = makeBatch(model.config, size, 256);
      fwd = await during(() => model.forward(batch));
    }
    const bwd = await during(() => model.backward());
    expect(fwd.elapsed).toBeGreaterThanOrEqual(150);
    for (const m of [fwd, bwd]) {
      expect(m.ticks).toBeGreaterThan(m.elapsed / 5 / 4);
      expect(m.maxGap).toBeLessThan(m.elapsed / 2);
    }
  });
});
