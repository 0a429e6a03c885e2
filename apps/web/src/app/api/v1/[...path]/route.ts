// The REST API for scripts (/api/v1/..., OpenAPI document at /api/v1/openapi.json): generated
// from the tRPC procedures' `meta.openapi` by packages/api (src/openapi.ts), with the same
// context (bearer token or session cookie), middlewares and services as /api/trpc.
import { handleRestRequest } from "@paravt/api";
import { sameOriginOnly } from "../../../../lib/same-origin";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return handleRestRequest(req);
}

// A mutation with the session cookie (the API reference's "Try it" without a token) must come
// from our own pages (issue 37, item 12); token calls are unaffected.
const mutation = sameOriginOnly(handler);

export { handler as GET, mutation as POST, mutation as PUT, mutation as PATCH, mutation as DELETE };
