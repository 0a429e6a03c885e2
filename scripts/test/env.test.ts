// The start/test scripts' service discovery: fail fast with a message naming what to provide.
import net from "node:net";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- plain .mjs script without type declarations
import { resolveServices } from "../lib/env.mjs";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

const quiet = { log: () => undefined };

describe("resolveServices", () => {
  it("stops at once, naming DATABASE_URL and REDIS_URL, when neither the services nor Docker exist", async () => {
    const [pgPort, redisPort] = [await freePort(), await freePort()];
    const err = await resolveServices({ ...quiet, env: {}, pgPort, redisPort, docker: () => false }).catch(
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/No postgres or redis found/);
    expect(err.message).toContain("DATABASE_URL=");
    expect(err.message).toContain("REDIS_URL=");
    expect(err.message).toMatch(/docker/i);
  });

  it("rejects an explicit URL that nothing answers", async () => {
    const port = await freePort();
    const err = await resolveServices({ ...quiet, env: { DATABASE_URL: `postgresql://x@127.0.0.1:${port}/db` } }).catch(
      (e: Error) => e,
    );
    expect(err.message).toBe(
      `DATABASE_URL points at 127.0.0.1:${port}, but nothing answers there. Start the service or fix DATABASE_URL.`,
    );
  });

  it("uses local services on their ports when something answers there", async () => {
    const servers = [net.createServer(), net.createServer()];
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.listen(0, "127.0.0.1", r))));
    const [pgPort, redisPort] = servers.map((s) => (s.address() as net.AddressInfo).port);
    try {
      const res = await resolveServices({ ...quiet, env: {}, pgPort, redisPort, docker: () => false });
      expect(res.pgUrl).toBe(`postgresql://postgres@127.0.0.1:${pgPort}/postgres`);
      expect(res.redisUrl).toBe(`redis://127.0.0.1:${redisPort}/0`);
    } finally {
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    }
  });
});
