import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { refreshQueries } from "./refresh-queries";

/**
 * A server value that changes while the page's first fetch of it is in flight, then a live event:
 * the page must end on the new value (it gets no further event to correct it).
 */
async function scenario(refresh: (qc: QueryClient) => Promise<void>): Promise<number | undefined> {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let server = 5; // e.g. the last stored step
  let release!: () => void;
  const firstAnswer = new Promise<void>((r) => (release = r));
  let calls = 0;
  const observer = new QueryObserver(qc, {
    queryKey: ["runs", "metrics"],
    queryFn: async () => {
      calls++;
      const seen = server; // read before the change: this fetch answers with the old value
      if (calls === 1) await firstAnswer;
      return seen;
    },
  });
  const unsubscribe = observer.subscribe(() => undefined); // active, like a mounted chart
  await new Promise((r) => setTimeout(r, 0));
  server = 6; // the last step lands, its event arrives while the first fetch is in flight
  const refreshed = refresh(qc);
  release();
  await refreshed;
  await qc
    .getQueryCache()
    .find({ queryKey: ["runs", "metrics"] })
    ?.promise?.catch(() => undefined);
  await new Promise((r) => setTimeout(r, 0));
  const data = observer.getCurrentResult().data;
  unsubscribe();
  qc.clear();
  return data;
}

describe("refreshQueries", () => {
  it("ends on the value after the event even when the event came during the first fetch", async () => {
    expect(await scenario((qc) => refreshQueries(qc, [["runs"]]))).toBe(6);
  });

  it("(why it exists) a plain invalidation joins the first fetch and keeps the stale value", async () => {
    expect(await scenario((qc) => qc.invalidateQueries({ queryKey: ["runs"] }))).toBe(5);
  });
});
