// Contract tests of the REST API, driven by its OpenAPI document (issue 11). For EVERY documented
// operation, through the real handlers (`handleRestRequest`, the upload route) against the real
// test database and Redis:
//   - a token with exactly the operation's scope, of the right project: 2xx, and the body is what
//     the document says (its response schema, date-time strings included);
//   - no token, or an unknown one: 401;
//   - a token one scope short (READ for writes, WRITE-only for launches): 403;
//   - a token of another project: 403;
//   - invalid parameters or body: 422 (a documented status for byte streams);
//   - an unknown id in the path: 404.
// How to build each operation's requests lives in openapi-contract/fixtures/<tag>.ts, keyed by
// operationId. An operation without a fixture fails here, so no operation ships untested.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TokenScope } from "@paravt/db";
import { evals, projectAccess, queue, tokens } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument, handleRestRequest } from "./openapi";
import { buildRequest, documentedOperations, ORIGIN, send, type DocumentedOperation } from "./openapi-contract/http";
import { schemaProblems } from "./openapi-contract/schema-check";
import type { FixtureTable, OperationFixture, RestRequest } from "./openapi-contract/types";
import { createWorld, type World } from "./openapi-contract/world";

const scratch = path.join(os.tmpdir(), `paravt-openapi-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-openapi-${process.pid}`;
process.env.MEDIA_ROOTS = path.join(scratch, "media");
process.env.DATA_DIR = path.join(scratch, "data");
fs.mkdirSync(process.env.MEDIA_ROOTS, { recursive: true });

async function loadFixtures(): Promise<FixtureTable> {
  const dir = fileURLToPath(new URL("./openapi-contract/fixtures", import.meta.url));
  const table: FixtureTable = {};
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const mod = (await import(path.join(dir, file))) as { fixtures?: FixtureTable };
    if (!mod.fixtures) throw new Error(`openapi-contract/fixtures/${file} exports no \`fixtures\` table`);
    for (const [operationId, fixture] of Object.entries(mod.fixtures)) {
      if (table[operationId]) throw new Error(`Two fixtures for ${operationId} (second in ${file})`);
      table[operationId] = fixture;
    }
  }
  return table;
}

const doc = buildOpenApiDocument();
const operations = documentedOperations(doc);
const fixtures = await loadFixtures();

let w: World;
let tokenOf: Record<TokenScope | "other", string>;

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
    other: await make(otherAccess, ["READ", "WRITE", "LAUNCH"]),
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

function responseSchema(op: DocumentedOperation, status: number): unknown {
  const res = (op.operation.responses as Record<string, { content?: Record<string, { schema?: unknown }> }>)[
    String(status)
  ];
  return res?.content?.["application/json"]?.schema;
}

/** The status is documented for the operation and the body matches its documented schema. */
function expectDocumented(op: DocumentedOperation, res: { status: number; body: unknown }) {
  expect(op.statuses, `${op.operationId} does not document ${res.status}`).toContain(String(res.status));
  const schema = responseSchema(op, res.status);
  if (schema !== undefined) expect(schemaProblems(schema, res.body, doc)).toEqual([]);
}

/** The scope one step below the operation's: the token that must be refused. */
const SCOPE_BELOW: Record<TokenScope, TokenScope | null> = { READ: null, WRITE: "READ", LAUNCH: "WRITE" };

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
});

function contract(op: DocumentedOperation, fx: OperationFixture) {
  it(`answers 2xx to a ${fx.scope} token of the project`, async () => {
    const res = await call(op, await fx.valid(w), tokenOf[fx.scope]);
    expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    expectDocumented(op, res);
    await fx.check?.(res.body, w);
  });

  it("answers 401 without a token and with an unknown one", async () => {
    for (const token of [null, "pvt_not-a-real-token"]) {
      const res = await call(op, await fx.valid(w), token);
      expect(res.status).toBe(401);
      expectDocumented(op, res);
    }
  });

  const below = SCOPE_BELOW[fx.scope];
  if (below) {
    it(`answers 403 to a ${below} token (it needs ${fx.scope})`, async () => {
      const res = await call(op, await fx.valid(w), tokenOf[below]);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expectDocumented(op, res);
    });
  }

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
      const res = await call(op, await fx.invalid!(w), tokenOf[fx.scope]);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expectDocumented(op, res);
    });
  }

  const ids = op.pathParams.filter((p) => p !== "projectId" && p.endsWith("Id"));
  if (ids.length > 0) {
    it(`answers 404 for an unknown ${ids.join(" / ")}`, async () => {
      for (const param of ids) {
        const spec = await fx.valid(w);
        const res = await call(op, { ...spec, path: { ...spec.path, [param]: `missing-${param}` } }, tokenOf[fx.scope]);
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
