// OpenAIEngine against misbehaving endpoints over real localhost HTTP (issue 37): redirects are
// refused without following them or reading their body, and the first-byte / total timeouts
// bound an attempt that never gets headers or whose body stalls.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { videoFrameSampler } from "../frame-sampler";
import { runEpisode } from "../runner";
import { writeTinySuite } from "../test-support";
import { EngineError, type CompletionRequest } from "../types";
import { OpenAIEngine } from "./openai-engine";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];

/** A real HTTP server on a free port that records every request it receives. */
async function serve(handler: Handler): Promise<{ url: string; host: string; received: string[] }> {
  const received: string[] = [];
  const s = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const host = `127.0.0.1:${(s.address() as AddressInfo).port}`;
  return { url: `http://${host}`, host, received };
}

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
});

const req: CompletionRequest = { messages: [{ role: "user", content: "hi" }], maxTokens: 8, temperature: 0 };
/** What a cloud-metadata service would have answered, had the request been delivered there. */
const SECRET = "AccessKeyId=AKIA-FAKE-METADATA-DOCUMENT";
/** The body of the 3xx itself: it must not be read into the error either. */
const REDIRECT_BODY = "redirect-page-body-must-not-be-stored";

describe("OpenAIEngine: redirects never bypass the endpoint policy", () => {
  let forbidden: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    // Stands for the address the policy would refuse (e.g. 169.254.169.254): it must receive nothing.
    forbidden = await serve((_req, res) => res.end(SECRET));
  });

  for (const status of [307, 303, 302, 301, 308]) {
    it(`a ${status} is a non-retryable http error naming the Location host; the target receives nothing`, async () => {
      const endpoint = await serve((_req, res) => {
        res.writeHead(status, {
          location: `${forbidden.url}/latest/meta-data/?token=abc`,
          "content-type": "text/plain",
        });
        res.end(REDIRECT_BODY);
      });
      const checked: string[] = [];
      const retries: number[] = [];
      const engine = new OpenAIEngine({
        baseUrl: `${endpoint.url}/v1`,
        model: "m",
        apiKey: "sk-secret",
        baseDelayMs: 1,
        checkUrl: (u) => void checked.push(u.host),
        onRetry: (r) => retries.push(r.attempt),
      });
      const err = await engine.complete([req]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineError);
      expect(err).toMatchObject({ kind: "http", status, retryable: false });
      const message = (err as Error).message;
      expect(message).toContain(`HTTP ${status}`);
      expect(message).toContain(`redirect to ${forbidden.host} refused`);
      expect(message).not.toContain("meta-data"); // the host only, never the path or query
      expect(message).not.toContain(REDIRECT_BODY);
      expect(message).not.toContain(SECRET);
      expect(endpoint.received).toEqual(["POST /v1/chat/completions"]);
      expect(retries).toEqual([]);
      expect(checked).toEqual([endpoint.host]);
      expect(forbidden.received).toEqual([]);
    });
  }

  it("an episode against a 303 ends as an ERROR whose stored error holds no body text", async () => {
    const suite = await writeTinySuite();
    try {
      const endpoint = await serve((_req, res) => {
        res.writeHead(303, { location: `${forbidden.url}/computeMetadata/v1/` });
        res.end(REDIRECT_BODY);
      });
      const q = suite.plan.questions[0]!;
      const t = await runEpisode({
        engine: new OpenAIEngine({ baseUrl: `${endpoint.url}/v1`, model: "m", baseDelayMs: 1 }),
        input: {
          video: { file: `${suite.dir}/${q.video}`, path: q.video },
          question: q.question,
          questionType: q.type,
        },
        config: { mode: "direct", k: 4 },
        frames: videoFrameSampler(),
      });
      expect(t.status).toBe("error");
      expect(t.error).toMatchObject({ stage: "main_agent" });
      expect(t.error!.message).toContain(`HTTP 303`);
      expect(t.error!.message).toContain(`redirect to ${forbidden.host} refused`);
      const stored = JSON.stringify(t);
      expect(stored).not.toContain(SECRET);
      expect(stored).not.toContain(REDIRECT_BODY);
      expect(forbidden.received).toEqual([]);
    } finally {
      await suite.cleanup();
    }
  });
});

describe("OpenAIEngine: first-byte and total timeouts", () => {
  it("a server that never sends headers is a timeout after the first-byte bound (retried, then reported)", async () => {
    const hang = await serve(() => {});
    const retries: string[] = [];
    const engine = new OpenAIEngine({
      baseUrl: `${hang.url}/v1`,
      model: "m",
      firstByteTimeoutMs: 150,
      // The total bound is far beyond the test's own timeout: only the first-byte clock can end this.
      totalTimeoutMs: 3_600_000,
      retries: 1,
      baseDelayMs: 1,
      onRetry: (r) => retries.push(r.error.kind),
    });
    const err = await engine.complete([req]).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "EngineError", kind: "timeout", retryable: true });
    expect((err as Error).message).toBe(`no response headers from ${hang.url} within 150 ms (first-byte timeout)`);
    expect(retries).toEqual(["timeout"]);
    expect(hang.received).toHaveLength(2);
  }, 10_000);

  it("a server that sends headers then stalls the body is a timeout after the total bound", async () => {
    const stall = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"chatcmpl-1","choices":['); // and never the rest
    });
    const retries: string[] = [];
    const engine = new OpenAIEngine({
      baseUrl: `${stall.url}/v1`,
      model: "m",
      firstByteTimeoutMs: 100,
      totalTimeoutMs: 400,
      retries: 1,
      baseDelayMs: 1,
      onRetry: (r) => retries.push(r.error.kind),
    });
    const err = await engine.complete([req]).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "EngineError", kind: "timeout", retryable: true });
    expect((err as Error).message).toBe(
      `the response from ${stall.url} did not complete within 400 ms (total timeout)`,
    );
    expect(retries).toEqual(["timeout"]);
    expect(stall.received).toHaveLength(2);
  }, 10_000);

  it("validates the bounds: first byte at most the total and at most 300 s (Node's fetch header limit)", () => {
    expect(
      () => new OpenAIEngine({ baseUrl: "http://x/v1", model: "m", firstByteTimeoutMs: 5000, totalTimeoutMs: 1000 }),
    ).toThrow(/firstByteTimeoutMs cannot exceed totalTimeoutMs/);
    expect(() => new OpenAIEngine({ baseUrl: "http://x/v1", model: "m", firstByteTimeoutMs: 300_001 })).toThrow(
      /firstByteTimeoutMs/,
    );
    expect(() => new OpenAIEngine({ baseUrl: "http://x/v1", model: "m", retries: -1 })).toThrow(/retries/);
  });
});
