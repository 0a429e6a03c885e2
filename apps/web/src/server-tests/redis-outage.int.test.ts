// Redis down must not hang the web (issue 37, item 5). A private redis-server, started here on a
// spare port and named by REDIS_URL for this file only, is frozen (SIGSTOP: the connection stays
// open and nothing answers) and then killed (SIGKILL: the connection drops and ioredis keeps
// reconnecting). Throughout, /api/health answers 503 naming Redis, and token calls, whose rate
// limit lives in Redis, are answered (the limiter fails open). The per-test timeouts are only
// bounds against a hang (before the fix these requests never returned), not speed figures.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { createProjectWithRoles } from "@paravt/db/factories";
import {
  createRedis,
  db,
  hitRateLimit,
  projectAccess,
  RateLimitUnavailableError,
  redis,
  tokens,
} from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "../app/api/health/route";
import { GET as trpcGet } from "../app/api/trpc/[trpc]/route";

let server: ChildProcess;
let port: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

beforeAll(async () => {
  port = await freePort();
  server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    server.once("error", reject);
    server.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    server.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("Ready to accept connections")) resolve();
    });
  });
  // Read lazily by serverEnv(): nothing in this file's worker has used the environment yet.
  process.env.REDIS_URL = `redis://127.0.0.1:${port}/0`;
  process.env.REDIS_PREFIX = `paravt-test-outage-${process.pid}`;
});

afterAll(() => {
  if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
  redis().disconnect();
});

async function tokenCall() {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
  const { secret } = await tokens.createToken(access, { name: "outage", scopes: ["READ"], expiresInDays: 1 });
  const url = `http://localhost/api/trpc/projects.byId?input=${encodeURIComponent(JSON.stringify({ json: { projectId: fx.project.id } }))}`;
  return () => trpcGet(new Request(url, { headers: { authorization: `Bearer ${secret}` } }));
}

describe("Redis outage", () => {
  it(
    "health, token calls and the limiter answer while Redis is up, frozen, then gone",
    { timeout: 30_000 },
    async () => {
      const call = await tokenCall();
      const direct = createRedis();
      // ioredis reports each failed reconnection as an "error" event; expected here.
      for (const c of [direct, redis()]) c.on("error", () => {});

      // Up: both checks pass, the limiter counts.
      const up = await health();
      expect(up.status).toBe(200);
      expect(await up.json()).toEqual({ ok: true, checks: { postgres: "ok", redis: "ok" } });
      expect((await call()).status).toBe(200);
      expect((await hitRateLimit("outage-direct", 5, { client: direct })).count).toBe(1);

      // Frozen: the connection is open and nothing answers; each wait is bounded.
      server.kill("SIGSTOP");
      try {
        const frozen = await health();
        expect(frozen.status).toBe(503);
        const body = (await frozen.json()) as { ok: boolean; checks: Record<string, string>; error: string };
        expect(body.ok).toBe(false);
        expect(body.checks.postgres).toBe("ok");
        expect(body.checks.redis).toMatch(/no answer within/);
        expect(body.error).toMatch(/^redis: /);
        expect((await call()).status).toBe(200);
        await expect(hitRateLimit("outage-direct", 5, { client: direct })).rejects.toBeInstanceOf(
          RateLimitUnavailableError,
        );
      } finally {
        server.kill("SIGCONT");
      }

      // Gone: the connection drops and ioredis keeps reconnecting.
      server.kill("SIGKILL");
      await new Promise((r) => server.once("exit", r));
      const gone = await health();
      expect(gone.status).toBe(503);
      expect(((await gone.json()) as { checks: Record<string, string> }).checks).toMatchObject({ postgres: "ok" });
      expect((await call()).status).toBe(200);
      await expect(hitRateLimit("outage-direct", 5, { client: direct })).rejects.toBeInstanceOf(
        RateLimitUnavailableError,
      );
      direct.disconnect();
    },
  );
});
