// Input bounds and error hygiene (issue 37 item 11), one case per class the REST fuzzer
// (openapi-fuzz.int.test.ts) found: integers beyond int4 / int8, URLs whose escapes are not UTF-8,
// values the database refuses (NUL, unpaired surrogates, a taken name), JSON nested thousands deep,
// and unexpected errors, which answer "Internal server error (request <id>)" over REST and tRPC
// while the driver's message and the stack go to the log only. Real Postgres and Redis; REST
// through the same handlers the web routes use.
import { db, evals, projectAccess, tokens } from "@paravt/shared/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { httpStatusOf, toTRPCError } from "./errors";
import { handleRestRequest } from "./openapi";
import { exportQueue } from "./rest/reviews";
import { codeOf, projectWithRoleCallers } from "./test-helpers";
import { createTRPCRouter, publicProcedure } from "./trpc";

process.env.REDIS_PREFIX = `paravt-test-error-hygiene-${process.pid}`;

afterEach(() => vi.restoreAllMocks());
afterAll(() => tokens.settleTokenUses());

/** Driver text, stack frames and server paths. */
const LEAK = /prisma|Invalid `|\bP[12]\d{3}\b|violates|\bcolumn\b|relation "|\n\s+at |\/work\/|node_modules/i;

function rest(secret: string, method: string, path: string, body?: unknown) {
  return handleRestRequest(
    new Request(`http://localhost/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${secret}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    }),
  );
}

async function answer(res: Response) {
  const text = await res.text();
  return { status: res.status, text };
}

async function projectWithToken() {
  const fx = await projectWithRoleCallers();
  const projectId = fx.project.id;
  const { secret } = await fx.asOwner.tokens.create({
    projectId,
    name: "script",
    scopes: ["READ", "WRITE", "LAUNCH"],
  });
  return {
    fx,
    projectId,
    secret,
    call: (method: string, path: string, body?: unknown) => rest(secret, method, path, body),
  };
}

describe("integers are bounded to what Postgres stores", () => {
  it("answers 422 beyond int4, where the database used to answer 500 with its out-of-range message", async () => {
    const { fx, projectId, call } = await projectWithToken();
    const access = await projectAccess({ kind: "user", userId: fx.owner.id }, projectId);
    const run = await db().run.create({
      data: { projectId, kind: "rl", jobName: "train.rl", name: "rl", status: "SUCCEEDED" },
    });
    await db().metric.create({ data: { runId: run.id, name: "loss", step: 1, value: 0.5 } });
    const exportAfter = (step: string) =>
      call("GET", `/projects/${projectId}/runs/${run.id}/metrics/export?names=loss&format=csv&afterStep=${step}`);
    expect((await exportAfter("2147483647")).status).toBe(200);
    for (const step of ["2147483648", "-2147483649", "9223372036854775808"]) {
      const res = await answer(await exportAfter(step));
      expect(res.status, step).toBe(422);
      expect(res.text).not.toMatch(LEAK);
    }

    // A zoom window in steps (int4) or in seconds (a date out of range) stays within int4 too.
    const query = (range: unknown, x = "step") =>
      call("POST", `/projects/${projectId}/runs/${run.id}/metrics/query`, { names: ["loss"], x, range });
    expect((await query({ from: 0, to: 2147483647 })).status).toBe(200);
    expect((await query({ from: 0, to: 1e308 })).status).toBe(422);
    expect((await query({ from: 0, to: 1e300 }, "time")).status).toBe(422);

    // An imported eval run of one sample (the reference evaluator's output, SPEC §6).
    const dataset = await db().dataset.create({ data: { projectId, name: "d" } });
    await db().sample.create({
      data: { datasetId: dataset.id, key: "q1", question: "?", answer: "A", questionType: "mcq" },
    });
    const model = await db().model.create({ data: { projectId, name: "paper", kind: "EXTERNAL" } });
    const { run: evalRun } = await evals.importReference(access, {
      name: "reference",
      datasetId: dataset.id,
      modelId: model.id,
      mode: "direct",
      k: 8,
      file: {
        results: [{ id: "q1", answer: "A", pred: "A", correct: true, tool_calls: 0, score: 1, full_response: "A" }],
      },
    });
    const samples = (min: string) =>
      call("GET", `/projects/${projectId}/evals/runs/${evalRun.id}/samples?minToolCalls=${min}`);
    expect((await samples("2147483647")).status).toBe(200);
    expect((await samples("2147483648")).status).toBe(422);
  });

  it("refuses a bigint cursor beyond int8 as bad input, not as a database error", async () => {
    const { fx, projectId } = await projectWithToken();
    expect(await codeOf(fx.asOwner.tokens.audit({ projectId, cursor: "9223372036854775807" }))).toBe("OK");
    expect(await codeOf(fx.asOwner.tokens.audit({ projectId, cursor: "9999999999999999999" }))).toBe("BAD_REQUEST");
  });
});

describe("URLs whose percent-escapes are not UTF-8", () => {
  it("answer 400 on the REST API, in the path and in the query, before any routing", async () => {
    const { projectId, call } = await projectWithToken();
    for (const path of [
      "/projects/%ZZ/runs",
      `/projects/${projectId}/runs/%C0%AF`,
      `/projects/${projectId}/runs/%ED%A0%80`,
      `/projects/${projectId}/runs?limit=%`,
      `/projects/${projectId}/runs?limit=10&status=%E0%A4%A`,
    ]) {
      const res = await call("GET", path);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({
        code: "BAD_REQUEST",
        message: expect.stringMatching(/percent-encoding/),
      });
    }
    // Escapes that decode are answered as before (an unknown id: 404).
    expect((await call("GET", `/projects/${projectId}/runs/%E2%9C%93`)).status).toBe(404);
  });

  it("answer 400 on the byte-stream routes too", async () => {
    const { projectId, secret } = await projectWithToken();
    const res = await exportQueue(
      new Request(`http://localhost/api/projects/${projectId}/reviews/queues/missing/export?format=csv&x=%ZZ`, {
        headers: { authorization: `Bearer ${secret}` },
      }),
      { params: Promise.resolve({ projectId, queueId: "missing" }) },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "The query string is not valid percent-encoding (UTF-8)" });
  });
});

describe("what the database refuses is answered in our words", () => {
  it("NUL and unpaired surrogates in any text: 422 with the storable-text message", async () => {
    const { projectId, call } = await projectWithToken();
    for (const res of [
      await call("GET", `/projects/${projectId}/videos?query=a%00b`),
      await call("POST", `/projects/${projectId}/external-runs`, { clientId: "trainer-\ud800", name: "run" }),
      await call("POST", `/projects/${projectId}/external-runs`, { clientId: "trainer-\u0000", name: "run" }),
    ]) {
      const { status, text } = await answer(res);
      expect(status).toBe(422);
      expect(text).toMatch(/Text cannot contain NUL characters or unpaired surrogates/);
      expect(text).not.toMatch(LEAK);
    }
  });

  it("a unique key taken: 409; a row gone by the time it is written: 404", async () => {
    const { projectId, call } = await projectWithToken();
    const [a, b] = await Promise.all(
      ["first", "second"].map((name) => db().model.create({ data: { projectId, name, kind: "EXTERNAL" } })),
    );
    const { status, text } = await answer(
      await call("PATCH", `/projects/${projectId}/models/${b!.id}`, { name: a!.name }),
    );
    expect(status).toBe(409);
    expect(text).not.toMatch(LEAK);

    const gone = await db()
      .model.delete({ where: { id: "no-such-model" } })
      .catch((err: unknown) => err);
    const mapped = toTRPCError(gone)!;
    expect(httpStatusOf(mapped, "rest")).toBe(404);
    expect(mapped.message).not.toMatch(LEAK);
  });
});

describe("JSON nested thousands of levels deep", () => {
  it("is refused with 400 like a body that is not JSON; a few levels are fine", async () => {
    const { projectId, call } = await projectWithToken();
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const create = (config: string, clientId: string) =>
      call(
        "POST",
        `/projects/${projectId}/external-runs`,
        `{"clientId":"${clientId}","name":"run","config":${config}}`,
      );
    expect((await create(nested(10), "shallow")).status).toBe(200);
    const { status, text } = await answer(await create(nested(5000), "deep"));
    expect(status).toBe(400);
    expect(text).toMatch(/nests deeper than 64 levels/);
  });
});

describe("unexpected errors", () => {
  const requestId = /^Internal server error \(request ([0-9a-f]{8})\)$/;

  it("REST: 500 with a request id; the error itself is logged under that id", async () => {
    const { projectId, secret } = await projectWithToken();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = new Error('relation "secrets" does not exist at /work/main/secret.ts:1');
    // The body stream fails while the handler reads it (a client that hangs up mid-request).
    const body = new ReadableStream({ start: (c) => c.error(broken) });
    const res = await handleRestRequest(
      new Request(`http://localhost/api/v1/projects/${projectId}/runs/x/cancel`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}` },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(500);
    const json = (await res.json()) as { message: string; code: string };
    expect(json.code).toBe("INTERNAL_SERVER_ERROR");
    const id = json.message.match(requestId)?.[1];
    expect(id, json.message).toBeDefined();
    expect(log).toHaveBeenCalledWith(expect.stringContaining(`[request ${id}]`), broken);
  });

  it("tRPC: the driver's message and the stack stay on the server; logged once, with the id given", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = new Error('duplicate key value violates unique constraint "models_pkey" at /work/main/x.ts');
    const router = createTRPCRouter({
      boom: publicProcedure.meta({ scope: "ANY" }).query(() => {
        throw broken;
      }),
    });
    const res = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request("http://localhost/api/trpc/boom"),
      router,
      createContext: () => ({ principal: null, user: null }),
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(LEAK);
    expect(text).not.toMatch(/"stack"/);
    const { error } = JSON.parse(text) as { error: { json: { message: string } } };
    const id = error.json.message.match(requestId)?.[1];
    expect(id, error.json.message).toBeDefined();
    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(`[request ${id}] tRPC boom failed:`, broken);
  });
});
