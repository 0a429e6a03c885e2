// openEvalEngine: the engine an eval shard builds from a stored endpoint model takes the model's own
// timeouts and retries (issue 37 item 8) and, with the real endpoint policy, refuses a redirect to a
// cloud-metadata address without contacting it (item 2). Real Postgres rows, real HTTP servers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { db, models } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { openEvalEngine } from "./eval-sample";
import { projectWithOwnerAccess } from "./test-fixtures";

const servers: Server[] = [];
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: string[] = [];
  const s = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, received };
}
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const req = { messages: [{ role: "user" as const, content: "hi" }], maxTokens: 8, temperature: 0 };

describe("openEvalEngine with an endpoint model", () => {
  it("stores the defaults (120 s, 600 s, 2 retries) when the form leaves them out", async () => {
    const { access } = await projectWithOwnerAccess();
    const m = await models.createModel(access, {
      name: "defaults",
      config: { kind: "OPENAI_COMPATIBLE", baseUrl: "http://127.0.0.1:9/v1", servedModel: "m" },
    });
    expect(m.config).toEqual({
      baseUrl: "http://127.0.0.1:9/v1",
      servedModel: "m",
      firstByteTimeoutS: 120,
      totalTimeoutS: 600,
      retries: 2,
    });
    await expect(
      models.createModel(access, {
        name: "bad",
        config: {
          kind: "OPENAI_COMPATIBLE",
          baseUrl: "http://x/v1",
          servedModel: "m",
          firstByteTimeoutS: 50,
          totalTimeoutS: 10,
        },
      }),
    ).rejects.toThrow("The first-byte timeout cannot exceed the total timeout");
  });

  it("uses the model's first-byte timeout and retries: a server that never answers is a timeout after them", async () => {
    const hang = await serve(() => {});
    const { access } = await projectWithOwnerAccess();
    const created = await models.createModel(access, {
      name: "hangs",
      config: {
        kind: "OPENAI_COMPATIBLE",
        baseUrl: `${hang.url}/v1`,
        servedModel: "m",
        firstByteTimeoutS: 1,
        totalTimeoutS: 5,
        retries: 1,
      },
    });
    const row = await db().model.findUniqueOrThrow({ where: { id: created.id } });
    const engine = await openEvalEngine(row, null);
    const err = await engine.complete([req]).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "timeout", retryable: true });
    expect((err as Error).message).toBe(`no response headers from ${hang.url} within 1000 ms (first-byte timeout)`);
    expect(hang.received).toHaveLength(2); // the first attempt and one retry
  }, 20_000);

  it("a redirect to a cloud-metadata address is refused by its host, never followed", async () => {
    const redirecting = await serve((_req, res) => {
      res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/iam/" });
      res.end("redirect body");
    });
    const { access } = await projectWithOwnerAccess();
    const created = await models.createModel(access, {
      name: "redirects",
      config: { kind: "OPENAI_COMPATIBLE", baseUrl: `${redirecting.url}/v1`, servedModel: "m" },
    });
    const engine = await openEvalEngine(await db().model.findUniqueOrThrow({ where: { id: created.id } }), null);
    const err = await engine.complete([req]).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: "http", status: 307, retryable: false });
    expect((err as Error).message).toBe(
      `HTTP 307 from ${redirecting.url}: redirect to 169.254.169.254 refused (redirects are not followed; register the final URL)`,
    );
    expect(redirecting.received).toEqual(["POST /v1/chat/completions"]);
  });
});
