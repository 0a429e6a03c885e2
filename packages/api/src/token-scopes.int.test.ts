// Token scopes on the procedures the REST contract test does not reach (issue 37 item 7): every
// tRPC-only procedure a token may call refuses a token holding every scope but its declared one
// (403 naming it), accepts one holding exactly it, people-only procedures refuse every token, the
// byte-stream reads want READ, and a router that forgets a declaration does not start. On the real
// test database and Redis; the REST operations are covered by openapi-contract.int.test.ts.
import type { TokenScope } from "@paravt/db";
import { createProjectWithRoles } from "@paravt/db/factories";
import { TOKEN_SCOPE_MEANING, TOKEN_SCOPES } from "@paravt/shared";
import { db, projectAccess, tokens, type Principal } from "@paravt/shared/server";
import { TRPCError, type AnyTRPCProcedure } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportQueue } from "./rest/reviews";
import { videoFile } from "./rest/videos";
import { appRouter } from "./root";
import { callerFor } from "./test-helpers";
import { createTRPCRouter, projectOwnerProcedure, protectedProcedure, type Meta } from "./trpc";

process.env.REDIS_PREFIX = `paravt-test-token-scopes-${process.pid}`;

type Fixture = Awaited<ReturnType<typeof createProjectWithRoles>>;
let fx: Fixture;
let projectId: string;
const secrets = new Map<string, string>();
const principals = new Map<string, Principal>();

/** The owner's token with these scopes (the owner's role never limits what is tested here). */
function asToken(scopes: readonly TokenScope[]) {
  return callerFor(principals.get([...scopes].sort().join("+"))!);
}

function secretOf(scopes: readonly TokenScope[]) {
  return secrets.get([...scopes].sort().join("+"))!;
}

const allBut = (scope: TokenScope) => TOKEN_SCOPES.filter((s) => s !== scope);

beforeAll(async () => {
  fx = await createProjectWithRoles(db());
  projectId = fx.project.id;
  const access = await projectAccess({ kind: "user", userId: fx.owner.id }, projectId);
  const sets: TokenScope[][] = [...TOKEN_SCOPES.map((s) => [s]), ...TOKEN_SCOPES.map(allBut), [...TOKEN_SCOPES]];
  for (const scopes of sets) {
    const key = [...scopes].sort().join("+");
    const { secret } = await tokens.createToken(access, {
      name: key,
      scopes,
      expiresInDays: 1,
      rateLimitPerMinute: 100_000,
    });
    secrets.set(key, secret);
    principals.set(key, (await tokens.principalFromToken(secret))!);
  }
});

afterAll(() => tokens.settleTokenUses());

/** The error a call ends with (subscriptions included: their middlewares run on the call). */
async function refusal(call: () => Promise<unknown>): Promise<TRPCError | null> {
  try {
    const out = await call();
    // A subscription's middlewares run when it is first read.
    if (out && typeof out === "object" && Symbol.asyncIterator in out) {
      const it = (out as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      await it.return?.();
    }
    return null;
  } catch (err) {
    if (err instanceof TRPCError) return err;
    throw err;
  }
}

/** Calls a procedure of appRouter by its dotted path. */
function invoke(caller: ReturnType<typeof callerFor>, path: string, input: unknown): Promise<unknown> {
  const fn = path.split(".").reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], caller);
  return (fn as (i: unknown) => Promise<unknown>)(input);
}

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>).map(
  ([path, p]) => ({
    path,
    meta: p._def.meta as Meta,
    type: p._def.type as string,
  }),
);
const trpcOnly = procedures.filter((p) => !p.meta.openapi);

describe("every procedure declares a token scope", () => {
  it("in appRouter: READ, WRITE, LAUNCH, ANY (whoami only) or PEOPLE", () => {
    expect(procedures.filter((p) => !p.meta.scope).map((p) => p.path)).toEqual([]);
    expect(procedures.filter((p) => p.meta.scope === "ANY").map((p) => p.path)).toEqual(["ingest.whoami"]);
    // Owner procedures and the project's creation are for signed-in people.
    expect(procedures.filter((p) => p.meta.scope === "PEOPLE").map((p) => p.path)).toEqual(
      expect.arrayContaining([
        "projects.create",
        "projects.update",
        "projects.delete",
        "members.add",
        "members.updateRole",
        "members.remove",
        "tokens.create",
        "tokens.list",
        "tokens.revoke",
        "tokens.audit",
        "reviews.deleteTag",
        "reviews.deleteQueue",
      ]),
    );
  });

  it("refuses at router creation a procedure without one, and a people-only one exposed over REST", () => {
    expect(() => createTRPCRouter({ forgot: protectedProcedure.query(() => 1) })).toThrow(
      /"forgot" declares no token scope/,
    );
    expect(() =>
      createTRPCRouter({
        leaky: projectOwnerProcedure
          .meta({ openapi: { method: "GET", path: "/projects/{projectId}/leaky", protect: true } })
          .query(() => 1),
      }),
    ).toThrow(/"leaky" is for people only/);
    expect(() => createTRPCRouter({ fine: protectedProcedure.meta({ scope: "READ" }).query(() => 1) })).not.toThrow();
  });
});

describe("tRPC-only procedures with a token", () => {
  const scoped = trpcOnly.filter((p): p is typeof p & { meta: { scope: TokenScope } } =>
    (TOKEN_SCOPES as readonly string[]).includes(p.meta.scope ?? ""),
  );

  it("covers the procedures that scripts reach only over tRPC", () => {
    expect(scoped.map((p) => p.path)).toEqual(
      expect.arrayContaining(["evals.compare", "evals.compareRun", "reviews.createTag", "runs.configDiff"]),
    );
  });

  for (const p of scoped) {
    const others = allBut(p.meta.scope);
    it(`${p.path} (${p.meta.scope}): 403 naming it to a ${others.join("+")} token`, async () => {
      // The scope is checked before the input is parsed: the bare project reference will do.
      const err = await refusal(() => invoke(asToken(others), p.path, { projectId }));
      expect(err?.code, p.path).toBe("FORBIDDEN");
      expect(err?.message).toBe(
        `This API token lacks the ${p.meta.scope} scope (${TOKEN_SCOPE_MEANING[p.meta.scope]})`,
      );
    });
  }

  it("lets a token with exactly the declared scope through", async () => {
    const read = asToken(["READ"]);
    expect(await read.evals.findSamples({ projectId, query: "nothing-like-this" })).toEqual([]);
    // Past the scope check, the unknown episode is what is refused.
    expect((await refusal(() => read.runs.episodeStep({ projectId, episodeId: "no-such-episode" })))?.code).toBe(
      "NOT_FOUND",
    );
    const tag = await asToken(["WRITE"]).reviews.createTag({ projectId, name: "scoped-tag" });
    expect(tag).toMatchObject({ name: "scoped-tag" });
    // LAUNCH passes the scope check (and the editor role); the unknown sample is what is refused.
    const launch = await refusal(() =>
      asToken(["LAUNCH"]).evals.compareRun({
        projectId,
        sampleId: "no-such-sample",
        models: [
          { modelId: "m1", mode: "direct", k: 8 },
          { modelId: "m2", mode: "direct", k: 8 },
        ],
      }),
    );
    expect(launch?.code).not.toBe("FORBIDDEN");
  });

  it("ANY: whoami answers a token of each single scope", async () => {
    for (const s of TOKEN_SCOPES) {
      expect(await asToken([s]).ingest.whoami()).toMatchObject({ token: { projectId, scopes: [s] } });
    }
  });

  it("PEOPLE: refused to a token holding every scope, with a readable reason", async () => {
    const all = asToken(TOKEN_SCOPES);
    for (const call of [
      () => all.projects.create({ name: "made by a token" }),
      () => all.tokens.list({ projectId }),
      () => all.tokens.create({ projectId, name: "minted", scopes: ["READ"] }),
      () => all.members.remove({ projectId, userId: fx.viewer.id }),
    ]) {
      const err = await refusal(call);
      expect(err?.code).toBe("FORBIDDEN");
      expect(err?.message).toBe("API tokens cannot do this: it is for signed-in people only");
    }
    expect(await db().project.count({ where: { name: "made by a token" } })).toBe(0);
  });

  it("leaves signed-in people to their roles", async () => {
    const owner = callerFor({ kind: "user", userId: fx.owner.id });
    expect(await owner.tokens.list({ projectId })).toHaveLength(secrets.size);
    expect(await owner.reviews.createTag({ projectId, name: "owner-tag" })).toMatchObject({ name: "owner-tag" });
    const viewer = callerFor({ kind: "user", userId: fx.viewer.id });
    expect((await refusal(() => viewer.reviews.createTag({ projectId, name: "viewer-tag" })))?.code).toBe("FORBIDDEN");
  });
});

describe("byte-stream reads want READ", () => {
  it("the video file and the review export refuse a WRITE+LAUNCH token (403 naming READ)", async () => {
    const video = await db().video.create({
      data: { projectId, name: "v.mp4", source: "PATH", path: "/nonexistent/v.mp4", status: "READY" },
    });
    const auth = (scopes: TokenScope[]) => ({ authorization: `Bearer ${secretOf(scopes)}` });
    const file = await videoFile(
      new Request(`http://localhost/api/videos/${video.id}/file`, { headers: auth(allBut("READ")) }),
      {
        params: Promise.resolve({ videoId: video.id }),
      },
    );
    expect(file.status).toBe(403);
    expect(await file.json()).toEqual({ error: "This API token lacks the READ scope (read data)" });

    const exported = await exportQueue(
      new Request(`http://localhost/api/projects/${projectId}/reviews/queues/q/export`, {
        headers: auth(allBut("READ")),
      }),
      { params: Promise.resolve({ projectId, queueId: "q" }) },
    );
    expect(exported.status).toBe(403);
    expect(await exported.json()).toEqual({ error: "This API token lacks the READ scope (read data)" });
    // With READ the same export gets past the scope check (the unknown queue is what is refused).
    const read = await exportQueue(
      new Request(`http://localhost/api/projects/${projectId}/reviews/queues/q/export`, { headers: auth(["READ"]) }),
      { params: Promise.resolve({ projectId, queueId: "q" }) },
    );
    expect(read.status).toBe(404);
  });
});
