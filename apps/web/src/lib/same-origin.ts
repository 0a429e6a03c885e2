// Cross-site request forgery guard of the cookie-authenticated API (issue 37, item 12).
//
// The session cookie rides along with any request a browser sends, including a plain form or
// fetch POST from another site (no preflight for a text/plain or octet-stream body), so a
// mutation authenticated by the cookie must prove it comes from our own pages. Browsers send
// `Origin` on every cross-origin POST (and on same-origin ones), which pages cannot forge; we
// compare it with the host the request was addressed to. Not done in a Next.js proxy
// (`src/proxy.ts`): a proxy makes Next.js buffer request bodies, cut at 10 MB by default, which
// would truncate video uploads.
//
// Let through: safe methods (reads; CORS keeps their answers from other sites), bearer-token calls
// (a page cannot add an Authorization header cross-origin without a preflight, which we never
// grant), requests without cookies (nothing ambient to abuse), and requests without `Origin`
// and without a cross-site `Sec-Fetch-Site` (scripts, curl, Playwright's request API: not a
// browser page, so not forgeable by one).
import { serverEnv } from "@paravt/shared/server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The hosts (`name:port`) a same-origin page of ours can have. */
function ownHosts(req: Request): Set<string> {
  const hosts = new Set<string>([new URL(req.url).host]);
  const host = req.headers.get("host");
  if (host) hosts.add(host.toLowerCase());
  // Set by a reverse proxy; a cross-site page cannot set it without a preflight.
  const forwarded = req.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  if (forwarded) hosts.add(forwarded.toLowerCase());
  // The configured public address, for a proxy that rewrites Host and sets no X-Forwarded-Host.
  hosts.add(new URL(serverEnv().APP_URL).host);
  return hosts;
}

/** Why `req` is refused as a cross-site mutation authenticated by a cookie, or null. */
export function crossSiteRefusal(req: Request): string | null {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return null;
  if (/^Bearer\s+\S+$/i.test(req.headers.get("authorization") ?? "")) return null;
  if (!req.headers.get("cookie")) return null;
  const origin = req.headers.get("origin");
  if (origin === null) {
    const site = req.headers.get("sec-fetch-site");
    return site === null || site === "same-origin" || site === "none"
      ? null
      : `a ${site} request may not use the session cookie`;
  }
  let host: string;
  try {
    // "null" (sandboxed frames, some redirects) does not parse and is refused.
    host = new URL(origin).host;
  } catch {
    return `origin ${origin} is not one of ours`;
  }
  return ownHosts(req).has(host) ? null : `origin ${origin} is not one of ours`;
}

/**
 * Wraps a route handler so that a cross-site mutation carrying the session cookie is answered
 * 403 before the handler runs (nothing read from its body, nothing stored).
 */
export function sameOriginOnly<A extends unknown[]>(
  handler: (req: Request, ...rest: A) => Response | Promise<Response>,
): (req: Request, ...rest: A) => Promise<Response> {
  return async (req, ...rest) => {
    const refusal = crossSiteRefusal(req);
    if (refusal) {
      return Response.json(
        { error: `Cross-site request refused: ${refusal}. Call the API from the workbench, or with an API token.` },
        { status: 403 },
      );
    }
    return handler(req, ...rest);
  };
}
