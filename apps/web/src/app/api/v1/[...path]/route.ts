// The REST API for scripts (/api/v1/..., OpenAPI document at /api/v1/openapi.json): generated
// from the tRPC procedures' `meta.openapi` by packages/api (src/openapi.ts), with the same
// context (bearer token or session cookie), middlewares and services as /api/trpc.
import { handleRestRequest } from "@paravt/api";

export const dynamic = "force-dynamic";

function handler(req: Request) {
  return handleRestRequest(req);
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
