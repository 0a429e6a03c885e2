// Contract tests of the REST API, driven by its OpenAPI document (issue 11). For EVERY documented
// operation, through the real handlers (`handleRestRequest`, the upload route) against the real
// test database and Redis:
//   - a token with exactly the operation's scope, of the right project: 2xx, and the body is what
//     the document says (its response schema, date-time strings included);
//   - no token, or an unknown one: 401;
//   - a token with every scope EXCEPT the operation's: 403 naming the missing scope (scopes do not
//     include each other); the fixture's scope is the one the operation declares (x-token-scope,
//     from the procedure's meta.scope), so the docs, the check and this test agree;
//   - a token of another project: 403;
//   - invalid parameters or body: 422 (a documented status for byte streams);
//   - an unknown id in the path: 404.
// How to build each operation's requests lives in openapi-contract/fixtures/<tag>.ts, keyed by
// operationId. An operation without a fixture fails here, so no operation ships untested.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TokenScope } from "@paravt/db";
import { TOKEN_SCOPES } from "@paravt/shared";
import { evals, projectAccess, queue, tokens } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument, handleRestRequest, TOKEN_SCOPE_FIELD } from "./openapi";
import { buildRequest, documentedOperations, ORIGIN, send, type DocumentedOperation } from "./openapi-contract/http";
import { loadFixtures } from "./openapi-contract/load-fixtures";
import { schemaProblems } from "./openapi-contract/schema-check";
import type { OperationFixture, RestRequest } from "./openapi-contract/types";
import { createWorld, type World } from "./openapi-contract/world";
import { scopeDescription } from "./trpc";

const scratch = path.join(os.tmpdir(), `paravt-openapi-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-openapi-${process.pid}`;
process.env.MEDIA_ROOTS = path.join(scratch, "media");
process.env.DATA_DIR = path.join(scratch, "data");
fs.mkdirSync(process.env.MEDIA_ROOTS, { recursive: true });

const doc = buildOpenApiDocument();
const operations = documentedOperations(doc);
const fixtures = await loadFixtures();

let w: World;
let tokenOf: Record<TokenScope | "other", string>;
/** Per scope, a token holding every scope but that one. */
let allBut: Record<TokenScope, string>;

beforeAll(async () => {
  w = await createWorld();
  const make = async (access: Parameters<typeof tokens.createToken>[0], scopes: TokenScope[]) =>
    (
      await tokens.createToken(access, {
        name: scopes.join("+"),
        scopes,
        expiresInDays: 1,
        rateLimitPerMinute: 100_000,
      })
    ).secret;
  const otherOwner = (await import("@paravt/shared/server")).db().membership.findFirstOrThrow({
    where: { projectId: w.otherProjectId, role: "OWNER" },
  });
  const otherAccess = await projectAccess({ kind: "user", userId: (await otherOwner).userId }, w.otherProjectId);
  tokenOf = {
    READ: await make(w.ownerAccess, ["READ"]),
    WRITE: await make(w.ownerAccess, ["WRITE"]),
    LAUNCH: await make(w.ownerAccess, ["LAUNCH"]),
    other: await make(otherAccess, [...TOKEN_SCOPES]),
  };
  allBut = {
    READ: await make(w.ownerAccess, ["WRITE", "LAUNCH"]),
    WRITE: await make(w.ownerAccess, ["READ", "LAUNCH"]),
    LAUNCH: await make(w.ownerAccess, ["READ", "WRITE"]),
  };
});

afterAll(async () => {
  await tokens.settleTokenUses();
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function call(op: DocumentedOperation, spec: RestRequest, token: string | null) {
  return send(buildRequest(op, spec, { projectId: w.projectId, token }));
}

/** The documented schema of the answer's status and media type (a text answer is a string). */
function responseSchema(op: DocumentedOperation, status: number, mediaType: string): unknown {
  const res = (op.operation.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>)[
    String(status)
  ];
  expect(Object.keys(res?.content ?? { "application/json": {} }), `${op.operationId} ${status}`).toContain(mediaType);
  return res?.content?.[mediaType]?.schema;
}

/** The status and media type are documented for the operation and the body matches the schema. */
function expectDocumented(op: DocumentedOperation, res: { status: number; headers: Headers; body: unknown }) {
  expect(op.statuses, `${op.operationId} does not document ${res.status}`).toContain(String(res.status));
  const mediaType = (res.headers.get("content-type") ?? "application/json").split(";")[0]!.trim();
  const schema = responseSchema(op, res.status, mediaType);
  if (schema !== undefined) expect(schemaProblems(schema, res.body, doc)).toEqual([]);
}

describe("the OpenAPI document", () => {
  it("is served at /api/v1/openapi.json with a bearer security scheme", async () => {
    const res = await handleRestRequest(new Request(`${ORIGIN}/api/v1/openapi.json`));
    expect(res.status).toBe(200);
    const served = (await res.json()) as typeof doc;
    expect(served).toEqual(JSON.parse(JSON.stringify(doc)));
    expect(served.openapi).toBe("3.1.0");
    expect(served.components?.securitySchemes).toMatchObject({ bearer: { type: "http", scheme: "bearer" } });
  });

  it("has a fixture for every documented operation, and none for an undocumented one", () => {
    const documented = operations.map((op) => op.operationId);
    expect(documented.filter((id) => !fixtures[id])).toEqual([]);
    expect(Object.keys(fixtures).filter((id) => !documented.includes(id))).toEqual([]);
  });

  it("routes each URL to one operation at most (no two paths of one method overlap)", () => {
    const clashes: string[] = [];
    for (const [i, a] of operations.entries()) {
      for (const b of operations.slice(i + 1)) {
        if (a.method !== b.method) continue;
        const sa = `${a.server}${a.path}`.split("/");
        const sb = `${b.server}${b.path}`.split("/");
        const overlap =
          sa.length === sb.length &&
          sa.every((seg, k) => seg === sb[k] || seg.startsWith("{") || sb[k]!.startsWith("{"));
        if (overlap) clashes.push(`${a.method} ${a.path} ~ ${b.path}`);
      }
    }
    expect(clashes).toEqual([]);
  });

  it("gives every operation a summary, a tag and the bearer scheme", () => {
    for (const op of operations) {
      expect(op.operation.summary, op.operationId).toEqual(expect.any(String));
      expect(op.tags.length, op.operationId).toBeGreaterThan(0);
      expect(op.protected, op.operationId).toBe(true);
    }
  });

  it("names each operation's token scope, and its fixture tests that very scope", () => {
    const problems: string[] = [];
    for (const op of operations) {
      const scope = op.operation[TOKEN_SCOPE_FIELD] as TokenScope | "ANY" | undefined;
      if (!scope) {
        problems.push(`${op.operationId}: no ${TOKEN_SCOPE_FIELD}`);
        continue;
      }
      if (!String(op.operation.description).startsWith(scopeDescription(scope))) {
        problems.push(`${op.operationId}: the description does not start with "${scopeDescription(scope)}"`);
      }
      const fx = fixtures[op.operationId];
      if (fx && fx.scope !== scope) problems.push(`${op.operationId}: fixture scope ${fx.scope}, declared ${scope}`);
    }
    expect(problems).toEqual([]);
  });
});

function contract(op: DocumentedOperation, fx: OperationFixture) {
  const scope = fx.scope;
  /** The token the other cases use: exactly the operation's scope (READ where any token will do). */
  const own = () => tokenOf[scope === "ANY" ? "READ" : scope];

  if (scope === "ANY") {
    it("answers 2xx to a token of any single scope", async () => {
      for (const s of TOKEN_SCOPES) {
        const res = await call(op, await fx.valid(w), tokenOf[s]);
        expect(res.status, `${s}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(200);
        expect(res.status).toBeLessThan(300);
        expectDocumented(op, res);
        await fx.check?.(res.body, w);
      }
    });
  } else {
    it(`answers 2xx to a ${scope} token of the project`, async () => {
      const res = await call(op, await fx.valid(w), tokenOf[scope]);
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
      expect(res.status).toBeLessThan(300);
      expectDocumented(op, res);
      await fx.check?.(res.body, w);
    });

    const others = TOKEN_SCOPES.filter((s) => s !== scope).join("+");
    it(`answers 403 naming ${scope} to a ${others} token (every scope but ${scope})`, async () => {
      const res = await call(op, await fx.valid(w), allBut[scope]);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(JSON.stringify(res.body)).toContain(`This API token lacks the ${scope} scope`);
      expectDocumented(op, res);
    });
  }

  it("answers 401 without a token and with an unknown one, naming the token as the reason", async () => {
    for (const token of [null, "pvt_not-a-real-token"]) {
      const res = await call(op, await fx.valid(w), token);
      expect(res.status).toBe(401);
      // A script with a bad token is told so, not to sign in (issue 41 item 10).
      if (token) expect(JSON.stringify(res.body)).toContain("This API token is not valid");
      expectDocumented(op, res);
    }
  });

  if (op.pathParams.includes("projectId")) {
    it("answers 403 to a token of another project", async () => {
      const res = await call(op, await fx.valid(w), tokenOf.other);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(JSON.stringify(res.body)).toContain("This API token belongs to another project");
      expectDocumented(op, res);
    });
  }

  if (op.hasInput) {
    const status = fx.invalidStatus ?? 422;
    it(`answers ${status} to invalid parameters or body`, async () => {
      expect(fx.invalid, `${op.operationId} takes input: its fixture needs an invalid request`).toBeDefined();
      const res = await call(op, await fx.invalid!(w), own());
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expectDocumented(op, res);
    });
  }

  const ids = op.pathParams.filter((p) => p !== "projectId" && p.endsWith("Id"));
  if (ids.length > 0) {
    it(`answers 404 for an unknown ${ids.join(" / ")}`, async () => {
      for (const param of ids) {
        const spec = await fx.valid(w);
        const res = await call(op, { ...spec, path: { ...spec.path, [param]: `missing-${param}` } }, own());
        expect(res.status, `${param}: ${JSON.stringify(res.body)}`).toBe(404);
        expectDocumented(op, res);
      }
    });
  }
}

for (const op of operations) {
  describe(`${op.method} ${op.server}${op.path} (${op.operationId})`, () => {
    const fx = fixtures[op.operationId];
    if (!fx) {
      it("has a contract fixture", () => {
        expect.fail(
          `No fixture for operationId "${op.operationId}": add it to openapi-contract/fixtures/${op.tags[0] ?? "<tag>"}.ts`,
        );
      });
      return;
    }
    contract(op, fx);
  });
}
