// Names and comments Postgres cannot store as typed (issue 37 item 1): a NUL byte (and an unpaired
// surrogate) is a validation error, 422 on REST and BAD_REQUEST on tRPC, never a 500 from the
// database. Real Postgres and Redis; REST through the same handler the web route uses.
import { db, tokens } from "@paravt/shared/server";
import { afterAll, describe, expect, it } from "vitest";
import { handleRestRequest } from "./openapi";
import { codeOf, projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-storable-input-${process.pid}`;

afterAll(() => tokens.settleTokenUses());

function rest(method: string, path: string, secret: string, body?: unknown) {
  return handleRestRequest(
    new Request(`http://localhost/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    }),
  );
}

describe("unstorable text in API input", () => {
  it("refuses NUL and unpaired surrogates in comments, names and ids; the same text without them is stored", async () => {
    const fx = await projectWithRoleCallers();
    const projectId = fx.project.id;
    const dataset = await db().dataset.create({ data: { projectId, name: "d" } });
    const sample = await db().sample.create({
      data: { datasetId: dataset.id, key: "q1", question: "?", answer: "A", questionType: "mcq" },
    });
    const run = await db().run.create({
      data: { projectId, kind: "eval", jobName: "eval.run", name: "r", status: "SUCCEEDED" },
    });
    const episode = await db().episode.create({
      data: { runId: run.id, sampleId: sample.id, k: 4, promptMode: "direct", status: "OK" },
    });
    const { secret } = await fx.asOwner.tokens.create({ projectId, name: "script", scopes: ["READ", "WRITE"] });
    const comments = `/projects/${projectId}/reviews/episodes/${episode.id}/comments`;

    const nul = await rest("POST", comments, secret, { body: "looks wrong\u0000" });
    expect(nul.status).toBe(422);
    expect(JSON.stringify(await nul.json())).toMatch(/NUL characters or unpaired surrogates/);
    expect((await rest("POST", comments, secret, { body: "half \ud800 pair" })).status).toBe(422);
    expect(await codeOf(fx.asEditor.reviews.comment({ projectId, episodeId: episode.id, body: "x\u0000" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(fx.asOwner.projects.update({ projectId, name: "pro\u0000ject" }))).toBe("BAD_REQUEST");
    expect(await codeOf(fx.asOwner.tokens.create({ projectId, name: "t\u0000", scopes: ["READ"] }))).toBe(
      "BAD_REQUEST",
    );
    // An id with a NUL is refused before any query (Postgres would refuse the parameter).
    expect((await rest("GET", `/projects/${projectId}/runs/r%00`, secret)).status).toBe(422);
    expect(await db().reviewComment.count({ where: { review: { episodeId: episode.id } } })).toBe(0);

    // A paired surrogate (an emoji) is fine.
    expect((await rest("POST", comments, secret, { body: "fine \ud83d\ude00" })).status).toBe(200);
    expect((await db().reviewComment.findFirstOrThrow({ where: { review: { episodeId: episode.id } } })).body).toBe(
      "fine \ud83d\ude00",
    );
  });
});
