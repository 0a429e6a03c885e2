// The run page's chart request (`runs.metrics`) through tRPC's fetch handler, as the web route
// serves it: URL and input parsing, the membership check, the read, zod output validation, the
// transformer and the JSON body (the session lookup and Next.js are not in it). Used by
// bench/metrics (run.ts, trpc-hit.ts).
import type { AnyTRPCRouter } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import superjson from "superjson";

/** A reader of `runs.metrics` for this user in this project: resolves to the response's bytes. */
export function trpcChartReader(router: AnyTRPCRouter, projectId: string, userId: string) {
  return async (input: Record<string, unknown>): Promise<ArrayBuffer> => {
    const q = encodeURIComponent(JSON.stringify(superjson.serialize({ projectId, ...input })));
    const res = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request(`http://bench/api/trpc/runs.metrics?input=${q}`),
      router,
      createContext: async () => ({
        principal: { kind: "user" as const, userId },
        user: null,
        request: { transport: "trpc" as const, method: "", path: "", ip: null },
      }),
    });
    // The bytes a server would send; a browser's decoding is not the server's work.
    if (res.status !== 200) throw new Error(`runs.metrics answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return res.arrayBuffer();
  };
}
