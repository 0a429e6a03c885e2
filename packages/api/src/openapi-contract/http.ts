// Requests of documented operations, sent through the real handlers the web app mounts: the
// REST API (/api/v1/...) and the upload byte stream (/api/projects/<id>/videos/upload).
import type { OpenAPIObject } from "trpc-to-openapi";
import { handleRestRequest } from "../openapi";
import { uploadVideo } from "../rest/videos";
import type { RestRequest } from "./types";

export const ORIGIN = "http://localhost";

export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** The path as documented, e.g. /projects/{projectId}/runs/{runId}. */
  path: string;
  /** The server URL the path is relative to (a path-level `servers` entry, else the document's). */
  server: string;
  tags: string[];
  pathParams: string[];
  hasInput: boolean;
  protected: boolean;
  /** Documented statuses, e.g. ["200", "401", ...]. */
  statuses: string[];
  operation: Record<string, unknown>;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export function documentedOperations(doc: OpenAPIObject): DocumentedOperation[] {
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const pathItem = item as Record<string, unknown> & { servers?: { url: string }[] };
    for (const method of METHODS) {
      const op = pathItem[method] as
        | (Record<string, unknown> & {
            operationId: string;
            tags?: string[];
            parameters?: { in: string; name: string }[];
            requestBody?: unknown;
            security?: unknown[];
            responses: Record<string, unknown>;
          })
        | undefined;
      if (!op) continue;
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        server: pathItem.servers?.[0]?.url ?? doc.servers?.[0]?.url ?? "",
        tags: op.tags ?? [],
        pathParams: [...path.matchAll(/\{(.+?)\}/g)].map((m) => m[1]!),
        hasInput: (op.parameters ?? []).some((p) => p.in !== "header") || op.requestBody !== undefined,
        protected: (op.security?.length ?? 0) > 0,
        statuses: Object.keys(op.responses),
        operation: op,
      });
    }
  }
  return out;
}

export function buildRequest(
  op: DocumentedOperation,
  spec: RestRequest,
  opts: { projectId: string; token?: string | null },
): Request {
  const params: Record<string, string | number> = { projectId: opts.projectId, ...spec.path };
  const path = op.path.replace(/\{(.+?)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`${op.operationId}: the fixture gives no value for {${name}}`);
    return encodeURIComponent(String(v));
  });
  const url = new URL(`${op.server}${path}`, ORIGIN);
  for (const [k, v] of Object.entries(spec.query ?? {})) {
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
  }
  const headers = new Headers(spec.raw?.headers);
  if (opts.token) headers.set("authorization", `Bearer ${opts.token}`);
  let body: Uint8Array | string | undefined;
  if (spec.raw) body = spec.raw.body.slice();
  else if (spec.body !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(spec.body);
  }
  return new Request(url, { method: op.method, headers, ...(body !== undefined ? { body } : {}) });
}

/** What the web app's routes do with a request: the REST API, or the upload route. */
export async function dispatch(req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  if (pathname.startsWith("/api/v1/")) return handleRestRequest(req);
  const upload = pathname.match(/^\/api\/projects\/([^/]+)\/videos\/upload$/);
  if (upload && req.method === "POST") {
    return uploadVideo(req, { params: Promise.resolve({ projectId: decodeURIComponent(upload[1]!) }) });
  }
  throw new Error(`No route for ${req.method} ${pathname}`);
}

/** Status and parsed JSON body (null when empty; the text when not JSON or a text/* answer). */
export async function send(req: Request): Promise<{ status: number; headers: Headers; body: unknown }> {
  const res = await dispatch(req);
  const text = await res.text();
  let body: unknown = null;
  // A text answer (text/csv) stays text, even when it would parse as JSON.
  if (!/json/.test(res.headers.get("content-type") ?? "json"))
    return { status: res.status, headers: res.headers, body: text };
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}
