// Per-token rate limits and the audit log on the routes outside the REST API's procedures: the
// tRPC route tells a rate-limited token when to retry (Retry-After), and the byte-stream routes
// (here the review queue export) count against the same limit and leave audit rows.
import { createProjectWithRoles } from "@paravt/db/factories";
import { db, projectAccess, reviewQueues, reviewTaxonomy, tokens } from "@paravt/shared/server";
import { restReviews } from "@paravt/api";
import { describe, expect, it } from "vitest";
import { GET } from "../app/api/trpc/[trpc]/route";

async function tokenWithLimit(limit: number) {
  const fx = await createProjectWithRoles(db());
  const access = await projectAccess({ kind: "user", userId: fx.owner.id }, fx.project.id);
  const { token, secret } = await tokens.createToken(access, {
    name: `limit-${limit}`,
    scopes: ["READ"],
    expiresInDays: 1,
    rateLimitPerMinute: limit,
  });
  return { fx, access, token, auth: { authorization: `Bearer ${secret}` } };
}

/** Waits for the audit rows, which are written in the background after each answer. */
async function auditStatuses(tokenId: string, n: number): Promise<number[]> {
  for (let i = 0; i < 100; i++) {
    const rows = await db().tokenUse.findMany({ where: { tokenId }, orderBy: { id: "asc" } });
    if (rows.length >= n) return rows.map((r) => r.status);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("audit rows did not appear");
}

describe("token limits on the tRPC and byte-stream routes", () => {
  it("tRPC answers 429 with Retry-After past the token's limit", async () => {
    const { fx, auth } = await tokenWithLimit(2);
    const url = `http://localhost/api/trpc/projects.byId?input=${encodeURIComponent(JSON.stringify({ json: { projectId: fx.project.id } }))}`;
    expect((await GET(new Request(url, { headers: auth }))).status).toBe(200);
    expect((await GET(new Request(url, { headers: auth }))).status).toBe(200);
    const third = await GET(new Request(url, { headers: auth }));
    expect(third.status).toBe(429);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("the queue export counts against the limit and is audited", async () => {
    const { fx, access, token, auth } = await tokenWithLimit(2);
    await reviewTaxonomy.seedFailureTags(fx.project.id);
    const dataset = await db().dataset.create({ data: { projectId: fx.project.id, name: "d" } });
    const sample = await db().sample.create({
      data: { datasetId: dataset.id, key: "q1", question: "?", answer: "A", questionType: "mcq" },
    });
    const run = await db().run.create({
      data: { projectId: fx.project.id, kind: "rl", jobName: "train.rl", name: "r", status: "SUCCEEDED" },
    });
    await db().episode.create({
      data: { runId: run.id, sampleId: sample.id, k: 8, promptMode: "direct", status: "ERROR", error: "down" },
    });
    const { queue } = await reviewQueues.createQueue(access, { runId: run.id, filter: { kind: "error" } });
    const get = () =>
      restReviews.exportQueue(
        new Request(`http://localhost/api/projects/${fx.project.id}/reviews/queues/${queue.id}/export`, {
          headers: auth,
        }),
        { params: Promise.resolve({ projectId: fx.project.id, queueId: queue.id }) },
      );
    expect((await get()).status).toBe(200);
    expect((await get()).status).toBe(200);
    const refused = await get();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await auditStatuses(token.id, 3)).toEqual([200, 200, 429]);
  });
});
