// Sign-in brute force (issue 37 item 10) behind a trusted reverse proxy: TRUSTED_PROXY_HEADER is
// x-forwarded-for, so the client address is the header's right-most entry (the one the proxy
// appended) and whatever the client put left of it changes nothing. Failed attempts from one
// address are limited across accounts (30 per 15 minutes); the per-account limit still applies;
// better-auth (sessions' ipAddress, its own limiter) and the token audit see that same address.
import { auth, CLIENT_ADDRESS_HEADER, SIGN_IN_LIMITS } from "@paravt/auth";
import { createContext } from "@paravt/api";
import { db, redis, serverEnv } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as authPost } from "../app/api/auth/[...all]/route";

process.env.REDIS_PREFIX = `paravt-test-sign-in-proxy-${process.pid}`;
process.env.TRUSTED_PROXY_HEADER = "x-forwarded-for";
let app: string;
let n = 0;

beforeAll(() => {
  app = new URL(serverEnv().APP_URL).origin;
});

afterAll(async () => {
  const keys = await redis().keys(`${serverEnv().REDIS_PREFIX}:*`);
  if (keys.length) await redis().del(...keys);
});

/** What a proxy forwards: the client's own (made-up, rotating) header, then the peer it saw. */
function viaProxy(address: string): string {
  n++;
  return `10.${(n >> 8) & 255}.${n & 255}.1, ${address}`;
}

function signIn(email: string, password: string, address: string, headers: Record<string, string> = {}) {
  return authPost(
    new Request(`${app}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app, "x-forwarded-for": viaProxy(address), ...headers },
      body: JSON.stringify({ email, password }),
    }),
  );
}

const unknownEmail = () => `spray-${crypto.randomUUID()}@example.test`;

// Every failed attempt costs a real password hash: generous bounds for a loaded machine.
describe("sign-in limit per address (TRUSTED_PROXY_HEADER=x-forwarded-for)", { timeout: 120_000 }, () => {
  it("limits failed attempts from one address across accounts, whatever the client adds to the header", async () => {
    const address = "198.51.100.20";
    const max = SIGN_IN_LIMITS.address.max;
    for (let i = 0; i < max; i++) expect((await signIn(unknownEmail(), "wrong-password", address)).status).toBe(401);
    const res = await signIn(unknownEmail(), "wrong-password", address);
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_LIMITS.address.windowMs / 1000);
    expect(((await res.json()) as { code: string }).code).toBe("TOO_MANY_SIGN_IN_ATTEMPTS");
    // Another address is another bucket.
    expect((await signIn(unknownEmail(), "wrong-password", "198.51.100.21")).status).toBe(401);
  });

  it("counts the addresses of one IPv6 /64 together", async () => {
    for (const address of ["2001:db8:5:6::1", "2001:db8:5:6:ffff::2"]) {
      expect((await signIn(unknownEmail(), "wrong-password", address)).status).toBe(401);
    }
    const key = `${serverEnv().REDIS_PREFIX}:ratelimit:sign-in:address:2001:db8:5:6::/64`;
    expect(await redis().get(key)).toBe("2");
  });

  it("still limits one account across addresses", async () => {
    const email = unknownEmail();
    const max = SIGN_IN_LIMITS.account.max;
    for (let i = 0; i < max; i++) expect((await signIn(email, "wrong-password", `192.0.2.${i + 1}`)).status).toBe(401);
    expect((await signIn(email, "wrong-password", "192.0.2.200")).status).toBe(429);
  });

  it("better-auth and the token audit see the proxy's address, never the client's claims", async () => {
    const email = `proxied-${crypto.randomUUID()}@example.test`;
    await auth().api.signUpEmail({ body: { email, password: "right-password-123", name: "Proxied" } });
    const res = await signIn(email, "right-password-123", "198.51.100.30", { [CLIENT_ADDRESS_HEADER]: "192.0.2.99" });
    expect(res.status).toBe(200);
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const session = await db().session.findFirstOrThrow({ where: { userId: user.id, ipAddress: { not: "" } } });
    expect(session.ipAddress).toBe("198.51.100.30");
    const ctx = await createContext({ headers: new Headers({ "x-forwarded-for": "203.0.113.9, 198.51.100.31" }) });
    expect(ctx.request?.ip).toBe("198.51.100.31");
  });
});
