// API tokens on the REST API and tRPC (issue 11), on real Postgres and Redis: the per-token rate
// limit (a fixed one-minute window in Redis; 429 with Retry-After beyond it), the audit log (one
// row per call with method, path, status and ip; tokens.audit for owners), and the REST input
// conversion leaving the tRPC contract as strict as it was.
import { db, hitRateLimit, tokens } from "@paravt/shared/server";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createContext } from "./context";
import { handleRestRequest } from "./openapi";
import { createCaller } from "./root";
import { callerFor, codeOf, projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-openapi-tokens-${process.pid}`;
// The audit's ip is the address a trusted proxy reports (clientAddress): here one that appends
// to X-Forwarded-For, so the right-most entry is the client.
process.env.TRUSTED_PROXY_HEADER = "x-forwarded-for";

afterEach(() => vi.restoreAllMocks());
afterAll(() => tokens.settleTokenUses());

function rest(method: string, path: string, secret: string | null, init: { body?: unknown; ip?: string } = {}) {
  const headers = new Headers();
  if (secret) headers.set("authorization", `Bearer ${secret}`);
  if (init.ip) headers.set("x-forwarded-for", init.ip);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  return handleRestRequest(
    new Request(`http://localhost/api/v1${path}`, {
      method,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    }),
  );
}

/** A tRPC caller with the context the web app's tRPC route builds for a bearer token. */
async function trpcAs(secret: string) {
  return createCaller(await createContext({ headers: new Headers({ authorization: `Bearer ${secret}` }) }));
}

async function projectWithToken(opts: { scopes?: ("READ" | "WRITE" | "LAUNCH")[]; rateLimitPerMinute?: number } = {}) {
  const fx = await projectWithRoleCallers();
  const { token, secret } = await fx.asOwner.tokens.create({
    projectId: fx.project.id,
    name: "script",
    scopes: opts.scopes ?? ["READ"],
    ...(opts.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: opts.rateLimitPerMinute } : {}),
  });
  return { fx, projectId: fx.project.id, token, secret };
}

describe("rate limit", () => {
  it("counts a fixed window per key: the call after the limit is refused until the window ends", async () => {
    const key = `unit-${process.pid}-${Date.now()}`;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit(key, 3));
    expect(results.map((r) => [r.allowed, r.count])).toEqual([
      [true, 1],
      [true, 2],
      [true, 3],
      [false, 4],
    ]);
    expect(results[3]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(results[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await hitRateLimit(`${key}-other`, 3)).allowed).toBe(true);
  });

  it("answers 429 with Retry-After to a token over its limit, over REST and tRPC alike", async () => {
    const { fx, projectId, secret } = await projectWithToken({ rateLimitPerMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await rest("GET", `/projects/${projectId}/runs`, secret)).status);
    expect(statuses).toEqual([200, 200, 200]);

    const refused = await rest("GET", `/projects/${projectId}/runs`, secret);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await refused.json()).toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringContaining("3 requests per minute"),
    });
    // The same counter covers tRPC calls of the token.
    expect(await codeOf((await trpcAs(secret)).runs.list({ projectId }))).toBe("TOO_MANY_REQUESTS");

    // Another token of the project has its own window; a browser session has none.
    const other = await fx.asOwner.tokens.create({ projectId, name: "other", scopes: ["READ"] });
    expect((await rest("GET", `/projects/${projectId}/runs`, other.secret)).status).toBe(200);
    expect(await codeOf(fx.asViewer.runs.list({ projectId }))).toBe("OK");
  });

  it("is set when the token is made: 600 per minute unless chosen, 1..100000", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const made = await fx.asOwner.tokens.create({ projectId, name: "default", scopes: ["READ"] });
    expect(made.token.rateLimitPerMinute).toBe(600);
    const fast = await fx.asOwner.tokens.create({
      projectId,
      name: "fast",
      scopes: ["READ"],
      rateLimitPerMinute: 5000,
    });
    expect((await fx.asOwner.tokens.list({ projectId })).find((t) => t.id === fast.token.id)?.rateLimitPerMinute).toBe(
      5000,
    );
    expect((await tokens.principalFromToken(fast.secret)) as { rateLimitPerMinute?: number }).toMatchObject({
      rateLimitPerMinute: 5000,
    });
    for (const bad of [0, 100_001, 1.5]) {
      const input = { projectId, name: "bad", scopes: ["READ" as const], rateLimitPerMinute: bad };
      expect(await codeOf(fx.asOwner.tokens.create(input))).toBe("BAD_REQUEST");
    }
  });
});

describe("audit log", () => {
  it("writes one row per token call with the method, path, status and ip the caller had", async () => {
    const { projectId, token, secret } = await projectWithToken({ scopes: ["READ"] });
    const ip = "203.0.113.7, 10.0.0.1";
    expect((await rest("GET", `/projects/${projectId}/runs?limit=5`, secret, { ip })).status).toBe(200);
    expect((await rest("GET", `/projects/${projectId}/runs/missing-run`, secret)).status).toBe(404);
    expect((await rest("GET", `/projects/${projectId}/runs?limit=abc`, secret)).status).toBe(422);
    expect((await rest("POST", `/projects/${projectId}/runs/missing-run/cancel`, secret)).status).toBe(403);
    const trpc = await trpcAs(secret);
    await trpc.runs.list({ projectId });
    expect(await codeOf(trpc.runs.list({ projectId, limit: 0 }))).toBe("BAD_REQUEST");
    await tokens.settleTokenUses();

    // Rows are written in the background, so their insertion order is not the calls' order.
    const rows = await db().tokenUse.findMany({ where: { tokenId: token.id }, orderBy: { at: "asc" } });
    expect(rows.map((r) => [r.method, r.path, r.status, r.ip]).sort()).toEqual(
      [
        // The proxy's entry, not what the client claimed before it.
        ["GET", `/api/v1/projects/${projectId}/runs`, 200, "10.0.0.1"],
        ["GET", `/api/v1/projects/${projectId}/runs/missing-run`, 404, null],
        ["GET", `/api/v1/projects/${projectId}/runs`, 422, null],
        ["POST", `/api/v1/projects/${projectId}/runs/missing-run/cancel`, 403, null],
        ["query", "runs.list", 200, null],
        // tRPC keeps its own status for an invalid input.
        ["query", "runs.list", 400, null],
      ].sort(),
    );
    expect(rows.every((r) => r.projectId === projectId)).toBe(true);
  });

  it("records refusals for another project and rate-limited calls, and nothing for sessions", async () => {
    const { projectId, token, secret } = await projectWithToken({ rateLimitPerMinute: 1 });
    const other = await projectWithRoleCallers();
    expect((await rest("GET", `/projects/${other.project.id}/runs`, secret)).status).toBe(403);
    expect((await rest("GET", `/projects/${projectId}/runs`, secret)).status).toBe(429);
    const session = await projectWithRoleCallers();
    await session.asOwner.runs.list({ projectId: session.project.id });
    await tokens.settleTokenUses();
    expect(await db().tokenUse.count({ where: { projectId: session.project.id } })).toBe(0);
    const rows = await db().tokenUse.findMany({ where: { tokenId: token.id }, orderBy: { id: "asc" } });
    expect(rows.map((r) => r.status).sort()).toEqual([403, 429]);
    expect(rows.every((r) => r.projectId === projectId)).toBe(true);
  });

  it("records token calls that never reach a procedure: unknown path or method, a body that is not JSON", async () => {
    // READ for the routed GET below: scopes do not include each other.
    const { projectId, token, secret } = await projectWithToken({ scopes: ["READ", "WRITE"] });
    expect((await rest("GET", `/projects/${projectId}/no-such-thing`, secret)).status).toBe(404);
    expect((await rest("DELETE", `/projects/${projectId}/runs`, secret)).status).toBe(404);
    const broken = await handleRestRequest(
      new Request(`http://localhost/api/v1/projects/${projectId}/runs/r/cancel`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${secret}`,
          "content-type": "application/json",
          "x-forwarded-for": "198.51.100.4",
        },
        body: "{not json",
      }),
    );
    expect(broken.status).toBe(400);
    // A routed call still has exactly one row; a bad token and a session leave none.
    expect((await rest("GET", `/projects/${projectId}/runs`, secret)).status).toBe(200);
    expect((await rest("GET", `/projects/${projectId}/no-such-thing`, "pvt_not-a-token")).status).toBe(404);
    await tokens.settleTokenUses();
    const rows = await db().tokenUse.findMany({ where: { tokenId: token.id } });
    expect(rows.map((r) => [r.method, r.path, r.status, r.ip]).sort()).toEqual(
      [
        ["GET", `/api/v1/projects/${projectId}/no-such-thing`, 404, null],
        ["DELETE", `/api/v1/projects/${projectId}/runs`, 404, null],
        ["POST", `/api/v1/projects/${projectId}/runs/r/cancel`, 400, "198.51.100.4"],
        ["GET", `/api/v1/projects/${projectId}/runs`, 200, null],
      ].sort(),
    );
    expect(await db().tokenUse.count({ where: { projectId, tokenId: { not: token.id } } })).toBe(0);
  });

  it("never fails a call when its row cannot be written (logged instead)", async () => {
    const fx = await projectWithRoleCallers();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    // A principal of a token that does not exist: the row's foreign key fails, the call does not.
    const ghost = callerFor({
      kind: "token",
      userId: fx.owner.id,
      tokenId: "no-such-token",
      projectId: fx.project.id,
      scopes: ["READ"],
    });
    expect(await codeOf(ghost.projects.byId({ projectId: fx.project.id }))).toBe("OK");
    await tokens.settleTokenUses();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("token audit: could not record"), expect.anything());
    expect(await db().tokenUse.count({ where: { tokenId: "no-such-token" } })).toBe(0);
  });

  it("is shown to owners by tokens.audit, newest first, a page at a time, per token", async () => {
    const { fx, projectId, token, secret } = await projectWithToken();
    const second = await fx.asOwner.tokens.create({ projectId, name: "second", scopes: ["READ"] });
    // Settled after each call so that rows of calls milliseconds apart cannot swap places.
    for (let i = 0; i < 3; i++) {
      await rest("GET", `/projects/${projectId}/runs?limit=${i + 1}`, secret);
      await tokens.settleTokenUses();
    }
    await rest("GET", `/projects/${projectId}/videos`, second.secret);
    await tokens.settleTokenUses();

    const first = await fx.asOwner.tokens.audit({ projectId, limit: 3 });
    expect(first.items.map((u) => [u.token.name, u.path])).toEqual([
      ["second", `/api/v1/projects/${projectId}/videos`],
      ["script", `/api/v1/projects/${projectId}/runs`],
      ["script", `/api/v1/projects/${projectId}/runs`],
    ]);
    expect(first.nextCursor).not.toBeNull();
    const rest2 = await fx.asOwner.tokens.audit({ projectId, limit: 3, cursor: first.nextCursor! });
    expect(rest2.items).toHaveLength(1);
    expect(rest2.nextCursor).toBeNull();
    const ids = [...first.items, ...rest2.items].map((u) => u.id);
    expect(new Set(ids).size).toBe(4);

    const one = await fx.asOwner.tokens.audit({ projectId, tokenId: token.id });
    expect(one.items).toHaveLength(3);
    expect(one.items[0]).toMatchObject({ method: "GET", status: 200, token: { id: token.id, prefix: token.prefix } });

    expect(await codeOf(fx.asEditor.tokens.audit({ projectId }))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.tokens.audit({ projectId }))).toBe("NOT_FOUND");
    expect(await codeOf((await trpcAs(secret)).tokens.audit({ projectId }))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOwner.tokens.audit({ projectId, tokenId: "missing-token" }))).toBe("NOT_FOUND");
    expect(await codeOf(fx.asOwner.tokens.audit({ projectId, cursor: "abc" }))).toBe("BAD_REQUEST");
    // Not part of the REST API.
    expect((await rest("GET", `/projects/${projectId}/tokens/audit`, secret)).status).toBe(404);
  });
});

describe("REST input conversion", () => {
  it("turns query strings into typed values for REST only: tRPC still refuses strings for numbers", async () => {
    const { fx, projectId, secret } = await projectWithToken({ scopes: ["READ", "WRITE"] });
    const res = await rest("GET", `/projects/${projectId}/runs?limit=2&status=QUEUED`, secret);
    expect(res.status).toBe(200);
    // The REST call above must not have switched the shared schema to coercion.
    const loose = { projectId, limit: "2" } as unknown as { projectId: string; limit: number };
    expect(await codeOf(fx.asViewer.runs.list(loose))).toBe("BAD_REQUEST");

    const episode = await db().episode.findFirst({ select: { id: true } });
    const setTag = `/projects/${projectId}/reviews/episodes/${episode?.id ?? "e"}/tags/t`;
    const body = await (await rest("PUT", setTag, secret, { body: { on: "yes" } })).json();
    expect(body).toMatchObject({ code: "BAD_REQUEST", issues: [expect.objectContaining({ path: ["on"] })] });
    const yes = { projectId, episodeId: "e", tagId: "t", on: "yes" } as unknown as {
      projectId: string;
      episodeId: string;
      tagId: string;
      on: boolean;
    };
    expect(await codeOf(fx.asEditor.reviews.setTag(yes))).toBe("BAD_REQUEST");
  });

  it("answers 400 to a body that is not JSON and accepts a body-less POST as {}", async () => {
    const { projectId, secret } = await projectWithToken({ scopes: ["WRITE"] });
    const broken = await handleRestRequest(
      new Request(`http://localhost/api/v1/projects/${projectId}/runs/r/cancel`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: "{not json",
      }),
    );
    expect(broken.status).toBe(400);
    // No body, no Content-Type: the run is looked up (and not found), not refused as 415.
    expect((await rest("POST", `/projects/${projectId}/runs/missing/cancel`, secret)).status).toBe(404);
  });
});

describe("a refused token is named as the reason (issue 41 item 10)", () => {
  it("answers 401 saying the token is unknown, revoked or expired, never 'Sign in first', over REST, tRPC and byte streams", async () => {
    const { fx, projectId, token, secret } = await projectWithToken();
    const expiring = await fx.asOwner.tokens.create({ projectId, name: "old", scopes: ["READ"] });
    await db().apiToken.update({ where: { id: expiring.token.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await fx.asOwner.tokens.revoke({ projectId, tokenId: token.id });
    const cases: [string, RegExp][] = [
      ["pvt_not-a-real-token", /^This API token is not valid/],
      ["not-even-a-pvt-token", /^This API token is not valid/],
      [secret, /^This API token was revoked$/],
      [expiring.secret, /^This API token expired on \d{4}-\d\d-\d\dT/],
    ];
    for (const [bad, reason] of cases) {
      const res = await rest("GET", `/projects/${projectId}/runs`, bad);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toMatch(reason);
      const trpc = await trpcAs(bad);
      await expect(trpc.runs.list({ projectId })).rejects.toMatchObject({
        code: "UNAUTHORIZED",
        message: expect.stringMatching(reason),
      });
      const { uploadVideo } = await import("./rest/videos");
      const upload = await uploadVideo(
        new Request(`http://localhost/api/projects/${projectId}/videos/upload`, {
          method: "POST",
          headers: { authorization: `Bearer ${bad}` },
          body: new Uint8Array([1, 2, 3]),
        }),
        { params: Promise.resolve({ projectId }) },
      );
      expect(upload.status).toBe(401);
      expect(((await upload.json()) as { error: string }).error).toMatch(reason);
    }
    // Without any token or session a caller is still told to sign in.
    const anonymous = await rest("GET", `/projects/${projectId}/runs`, null);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { message: string }).message).toBe("Sign in first");
  });
});
