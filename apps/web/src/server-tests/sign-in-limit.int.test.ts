// Sign-in brute force (issue 37 item 10) through the real /api/auth route, better-auth and Redis,
// with no trusted proxy header (the default). A client used to get a fresh per-address bucket from
// each X-Forwarded-For it made up; now failed attempts are counted per account whatever the header
// says (10 per 15 minutes, then 429 with Retry-After), unknown emails exactly like known ones, and
// no forwarded header is believed anywhere. sign-in-limit-proxy.int.test.ts covers a trusted proxy.
import { auth, SIGN_IN_LIMITS } from "@paravt/auth";
import { createContext } from "@paravt/api";
import { db, redis, serverEnv } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as authPost } from "../app/api/auth/[...all]/route";

process.env.REDIS_PREFIX = `paravt-test-sign-in-${process.pid}`;
delete process.env.TRUSTED_PROXY_HEADER;
const PASSWORD = "right-password-123";
const MAX = SIGN_IN_LIMITS.account.max;
let app: string;
let n = 0;

beforeAll(() => {
  app = new URL(serverEnv().APP_URL).origin;
});

afterAll(async () => {
  const keys = await redis().keys(`${serverEnv().REDIS_PREFIX}:*`);
  if (keys.length) await redis().del(...keys);
});

/** A spoofed X-Forwarded-For, different on every request. */
function spoofed(): string {
  n++;
  return `203.0.${(n >> 8) & 255}.${n & 255}`;
}

function signIn(email: string, password: string, headers: Record<string, string> = {}) {
  return authPost(
    new Request(`${app}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app, "x-forwarded-for": spoofed(), ...headers },
      body: JSON.stringify({ email, password }),
    }),
  );
}

async function newUser(): Promise<string> {
  const email = `sign-in-${crypto.randomUUID()}@example.test`;
  await auth().api.signUpEmail({ body: { email, password: PASSWORD, name: "Sign-in" } });
  return email;
}

/** `count` wrong-password attempts, one after the other; their statuses. */
async function fail(email: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await signIn(email, `wrong-${i}-password`)).status);
  return statuses;
}

async function expectLimited(res: Response) {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_LIMITS.account.windowMs / 1000);
  const body = (await res.json()) as { code: string; message: string };
  expect(body.code).toBe("TOO_MANY_SIGN_IN_ATTEMPTS");
  expect(body.message).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/);
  return body;
}

// Every failed attempt costs a real password hash: generous bounds for a loaded machine.
describe("sign-in limit per account (no trusted proxy header)", { timeout: 120_000 }, () => {
  it("a rotating X-Forwarded-For does not escape it; the right password is refused too once over", async () => {
    const email = await newUser();
    expect(await fail(email, MAX)).toEqual(Array(MAX).fill(401));
    await expectLimited(await signIn(email, "wrong-again-password"));
    // Locked for the window: even the right password gets the same 429, and no session.
    await expectLimited(await signIn(email, PASSWORD));
    // The email is normalized as better-auth looks it up.
    await expectLimited(await signIn(email.toUpperCase(), PASSWORD));
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(await db().session.count({ where: { userId: user.id } })).toBe(1); // the sign-up's
  });

  it("an unknown email is counted and answered exactly like a known one", async () => {
    const known = await newUser();
    const unknown = `nobody-${crypto.randomUUID()}@example.test`;
    const answers = async (email: string) => {
      const out: [number, unknown][] = [];
      for (let i = 0; i <= MAX; i++) {
        const res = await signIn(email, `wrong-${i}-password`);
        const body = (await res.json()) as { message: string };
        out.push([res.status, body.message]);
      }
      return out;
    };
    const forKnown = await answers(known);
    const forUnknown = await answers(unknown);
    expect(forUnknown.map(([s]) => s)).toEqual([...Array(MAX).fill(401), 429]);
    // Same statuses and texts (the minutes of Retry-After may differ by one at a boundary).
    const text = (a: [number, unknown][]) => a.map(([s, m]) => [s, String(m).replace(/\d+ minutes?/, "N")]);
    expect(text(forUnknown)).toEqual(text(forKnown));
  });

  it("concurrent attempts cannot all pass one check: exactly the limit gets through", async () => {
    const email = await newUser();
    const statuses = await Promise.all(
      Array.from({ length: MAX + 5 }, (_, i) => signIn(email, `burst-${i}-password`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401)).toHaveLength(MAX);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it("a success is not a failure and does not wipe earlier ones", async () => {
    const email = await newUser();
    expect(await fail(email, MAX - 1)).toEqual(Array(MAX - 1).fill(401));
    const ok = await signIn(email, PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.headers.getSetCookie().join(";")).toMatch(/session_token=/);
    // The success gave back its slot: one more failure is allowed, then the limit.
    expect(await fail(email, 1)).toEqual([401]);
    await expectLimited(await signIn(email, "wrong-last-password"));
  });

  it("the demo account signs in", async () => {
    const demo = { email: "demo@paravt.local", password: "paravt-demo", name: "Demo Researcher" };
    if (!(await db().user.findUnique({ where: { email: demo.email } }))) {
      await auth().api.signUpEmail({ body: demo });
    }
    const res = await signIn(demo.email, demo.password);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { email: string } }).user.email).toBe(demo.email);
  });

  it("believes no forwarded header: no per-address buckets, no address on sessions or token audit", async () => {
    const email = await newUser();
    expect((await signIn(email, PASSWORD, { "x-paravt-client-address": "192.0.2.55" })).status).toBe(200);
    for (let i = 0; i < 3; i++) await signIn(`nobody-${i}-${crypto.randomUUID()}@example.test`, "wrong-password");
    expect(await redis().keys(`${serverEnv().REDIS_PREFIX}:ratelimit:sign-in:address:*`)).toEqual([]);
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    const sessions = await db().session.findMany({ where: { userId: user.id }, orderBy: { createdAt: "asc" } });
    expect(sessions.map((s) => s.ipAddress ?? "")).toEqual(["", ""]);
    const ctx = await createContext({ headers: new Headers({ "x-forwarded-for": "203.0.113.9" }) });
    expect(ctx.request?.ip).toBeNull();
  });

  it("fails open when Redis is down: attempts are answered by better-auth, the skip logged", async () => {
    const email = await newUser();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    redis().disconnect();
    try {
      expect(await fail(email, MAX + 2)).toEqual(Array(MAX + 2).fill(401));
      expect((await signIn(email, PASSWORD)).status).toBe(200);
      expect(errors.mock.calls.some((c) => String(c[0]).startsWith("sign-in limits not checked"))).toBe(true);
    } finally {
      errors.mockRestore();
      await redis().connect();
    }
  });
});
