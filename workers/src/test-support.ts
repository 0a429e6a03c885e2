// Polling helpers of the worker integration tests: jobs finish asynchronously in real workers,
// so tests wait on the rows (with a deadline and a message that says what never happened).
import { db } from "@paravt/shared/server";

export async function waitUntil<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The run once it is SUCCEEDED, FAILED or CANCELLED. */
export function waitForRun(runId: string, timeoutMs = 60_000) {
  return waitUntil(
    `run ${runId} to finish`,
    async () => {
      const r = await db().run.findUniqueOrThrow({ where: { id: runId } });
      return r.status === "SUCCEEDED" || r.status === "FAILED" || r.status === "CANCELLED" ? r : null;
    },
    timeoutMs,
  );
}

/** The video once it is READY or FAILED (after probe and assets). */
export function waitForVideoSettled(videoId: string, timeoutMs = 60_000) {
  return waitUntil(
    `video ${videoId} to be READY or FAILED`,
    async () => {
      const v = await db().video.findUniqueOrThrow({ where: { id: videoId } });
      return v.status === "READY" || v.status === "FAILED" ? v : null;
    },
    timeoutMs,
  );
}
