import { appRouter, createContext, reportIncident, retryAfterSeconds } from "@paravt/api";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { sameOriginOnly } from "../../../../lib/same-origin";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ headers: req.headers }),
    // A rate-limited token is told when to come back, as over REST (429 + Retry-After).
    responseMeta({ errors }) {
      const wait = errors.map(retryAfterSeconds).find((s) => s !== null);
      return wait ? { headers: new Headers({ "retry-after": String(wait) }) } : {};
    },
    onError({ error, path }) {
      // Expected errors (4xx) are answers, not incidents; the unexpected ones are logged once, with
      // the request id their answer gives (the error formatter asks for the same id).
      if (error.code === "INTERNAL_SERVER_ERROR") reportIncident(error, `tRPC ${path ?? "?"}`);
    },
  });
}

// Mutations are POSTs: one with the session cookie must come from our own pages (issue 37, item 12).
const post = sameOriginOnly(handler);

export { handler as GET, post as POST };
