// Numeric review scores (issue 41 item 15) through the reviews router on real Postgres and
// Redis: score configs managed like the taxonomy, values checked against their config's range,
// one value per review and config (the last writer wins, with who and when), the overview's
// mean and count, and the queue export's score columns.
import { db } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { restReviews } from "./index";
import { seedWrongAnswers } from "./reviews-seed";
import { callerFor, projectWithRoleCallers } from "./test-helpers";

process.env.REDIS_PREFIX = `paravt-test-review-scores-${process.pid}`;

async function refusal(p: Promise<unknown>): Promise<TRPCError | null> {
  try {
    await p;
    return null;
  } catch (err) {
    if (err instanceof TRPCError) return err;
    throw err;
  }
}
const codeOf = async (p: Promise<unknown>) => (await refusal(p))?.code ?? "OK";

describe("review scores", () => {
  let fx: Awaited<ReturnType<typeof projectWithRoleCallers>>;
  let projectId: string;
  let seeded: Awaited<ReturnType<typeof seedWrongAnswers>>;

  beforeAll(async () => {
    fx = await projectWithRoleCallers();
    projectId = fx.project.id;
    seeded = await seedWrongAnswers(projectId, "scored run", 4);
  });

  it("editors add and rename score configs, owners delete them (with their values); viewers only read", async () => {
    expect(await fx.asViewer.reviews.scoreConfigs({ projectId })).toEqual([]); // none seeded
    const c = await fx.asEditor.reviews.createScoreConfig({ projectId, name: "crop quality", min: 0, max: 5 });
    expect(c).toMatchObject({ name: "crop quality", min: 0, max: 5, description: "", uses: 0 });
    expect(
      await codeOf(fx.asEditor.reviews.createScoreConfig({ projectId, name: "crop quality", min: 0, max: 1 })),
    ).toBe("CONFLICT");
    const reversed = await refusal(fx.asEditor.reviews.createScoreConfig({ projectId, name: "x", min: 1, max: 1 }));
    expect(reversed?.code).toBe("BAD_REQUEST");
    expect(reversed?.message).toContain("The minimum must be below the maximum");
    expect(await codeOf(fx.asViewer.reviews.createScoreConfig({ projectId, name: "v", min: 0, max: 1 }))).toBe(
      "FORBIDDEN",
    );

    await fx.asEditor.reviews.updateScoreConfig({ projectId, configId: c.id, name: "crop usefulness" });
    await fx.asEditor.reviews.setScore({ projectId, episodeId: seeded.episodes[0]!.id, configId: c.id, value: 3 });
    expect((await fx.asViewer.reviews.scoreConfigs({ projectId })).find((x) => x.id === c.id)).toMatchObject({
      name: "crop usefulness",
      min: 0,
      max: 5,
      uses: 1,
    });

    expect(await codeOf(fx.asEditor.reviews.deleteScoreConfig({ projectId, configId: c.id }))).toBe("FORBIDDEN");
    await fx.asOwner.reviews.deleteScoreConfig({ projectId, configId: c.id });
    expect(await db().reviewScore.count({ where: { configId: c.id } })).toBe(0);
    expect((await fx.asViewer.reviews.review({ projectId, episodeId: seeded.episodes[0]!.id })).scores).toEqual([]);
  });

  it("a value must lie in its config's range; one value per review and config, the last writer wins", async () => {
    const c = await fx.asEditor.reviews.createScoreConfig({ projectId, name: "correctness", min: 0, max: 1 });
    const episodeId = seeded.episodes[1]!.id;
    for (const value of [1.5, -0.01]) {
      const err = await refusal(fx.asEditor.reviews.setScore({ projectId, episodeId, configId: c.id, value }));
      expect(err?.code).toBe("BAD_REQUEST");
      expect(err?.message).toBe(`"correctness" takes values from 0 to 1; ${value} is outside`);
    }
    // The bounds themselves are in the range.
    expect(await codeOf(fx.asEditor.reviews.setScore({ projectId, episodeId, configId: c.id, value: 0 }))).toBe("OK");

    const first = await fx.asEditor.reviews.setScore({ projectId, episodeId, configId: c.id, value: 0.25 });
    expect(first.scores).toEqual([
      { configId: c.id, value: 0.25, setBy: expect.objectContaining({ id: fx.editor.id }), setAt: expect.any(Date) },
    ]);
    const second = await fx.asOwner.reviews.setScore({ projectId, episodeId, configId: c.id, value: 0.75 });
    expect(second.scores).toHaveLength(1);
    expect(second.scores[0]).toMatchObject({ value: 0.75, setBy: { id: fx.owner.id } });
    expect(second.scores[0]!.setAt.getTime()).toBeGreaterThanOrEqual(first.scores[0]!.setAt.getTime());
    expect(second.updatedBy?.id).toBe(fx.owner.id);

    // Two reviewers set the first value of a fresh review at once: one row, one of their values.
    const fresh = seeded.episodes[2]!.id;
    await Promise.all([
      fx.asEditor.reviews.setScore({ projectId, episodeId: fresh, configId: c.id, value: 0.1 }),
      fx.asOwner.reviews.setScore({ projectId, episodeId: fresh, configId: c.id, value: 0.9 }),
    ]);
    const rows = await db().reviewScore.findMany({ where: { configId: c.id, review: { episodeId: fresh } } });
    expect(rows).toHaveLength(1);
    expect([0.1, 0.9]).toContain(rows[0]!.value);

    // null clears the value.
    const cleared = await fx.asEditor.reviews.setScore({ projectId, episodeId: fresh, configId: c.id, value: null });
    expect(cleared.scores).toEqual([]);

    // A config of another project is not found through this one.
    const other = await fx.asOwner.projects.create({ name: "Other scores", description: "" });
    const foreign = await fx.asOwner.reviews.createScoreConfig({
      projectId: other.id,
      name: "foreign",
      min: 0,
      max: 1,
    });
    expect(await codeOf(fx.asEditor.reviews.setScore({ projectId, episodeId, configId: foreign.id, value: 1 }))).toBe(
      "NOT_FOUND",
    );
  });

  it("viewers and READ tokens cannot score; a WRITE token can", async () => {
    const c = await fx.asEditor.reviews.createScoreConfig({ projectId, name: "permissions", min: 1, max: 3 });
    const episodeId = seeded.episodes[3]!.id;
    const input = { projectId, episodeId, configId: c.id, value: 2 };
    expect(await codeOf(fx.asViewer.reviews.setScore(input))).toBe("FORBIDDEN");
    expect(await codeOf(fx.asOutsider.reviews.setScore(input))).toBe("NOT_FOUND");
    const token = async (scopes: ("READ" | "WRITE")[]) => {
      const { token: t } = await fx.asOwner.tokens.create({ projectId, name: scopes.join("+"), scopes });
      return callerFor({ kind: "token", userId: fx.owner.id, tokenId: t.id, projectId, scopes });
    };
    expect(await codeOf((await token(["READ"])).reviews.setScore(input))).toBe("FORBIDDEN");
    const written = await (await token(["WRITE"])).reviews.setScore(input);
    expect(written.scores.find((s) => s.configId === c.id)?.value).toBe(2);
  });

  it("the overview gives each score's mean and count, over the project or one queue", async () => {
    const p = await fx.asOwner.projects.create({ name: "Score summary", description: "" });
    await db().membership.create({ data: { projectId: p.id, userId: fx.editor.id, role: "EDITOR" } });
    const run = await seedWrongAnswers(p.id, "summary run", 3);
    const a = await fx.asEditor.reviews.createScoreConfig({ projectId: p.id, name: "a", min: 0, max: 10 });
    const b = await fx.asEditor.reviews.createScoreConfig({ projectId: p.id, name: "b", min: 0, max: 1 });
    const [e1, e2, e3] = run.episodes.map((e) => e.id);
    await fx.asEditor.reviews.setScore({ projectId: p.id, episodeId: e1!, configId: a.id, value: 2 });
    await fx.asEditor.reviews.setScore({ projectId: p.id, episodeId: e2!, configId: a.id, value: 6 });
    await fx.asEditor.reviews.setScore({ projectId: p.id, episodeId: e3!, configId: a.id, value: 10 });
    const all = await fx.asEditor.reviews.overview({ projectId: p.id });
    expect(all.scores).toEqual([
      { configId: a.id, name: "a", min: 0, max: 10, mean: 6, n: 3 },
      { configId: b.id, name: "b", min: 0, max: 1, mean: null, n: 0 },
    ]);
    // A queue over the first two episodes only.
    const { queue } = await fx.asEditor.reviews.createQueue({
      projectId: p.id,
      runId: run.run.id,
      filter: { kind: "wrong" },
    });
    await db().reviewQueueItem.deleteMany({ where: { queueId: queue.id, episodeId: e3! } });
    const one = await fx.asEditor.reviews.overview({ projectId: p.id, queueId: queue.id });
    expect(one.scores[0]).toMatchObject({ configId: a.id, mean: 4, n: 2 });
  });

  it("the queue export has a score column per config (CSV) and the scores by name (JSON)", async () => {
    const p = await fx.asOwner.projects.create({ name: "Score export", description: "" });
    const run = await seedWrongAnswers(p.id, "export run", 2);
    const useful = await fx.asOwner.reviews.createScoreConfig({
      projectId: p.id,
      name: "useful, really",
      min: 1,
      max: 3,
    });
    await fx.asOwner.reviews.createScoreConfig({ projectId: p.id, name: "grounding", min: 0, max: 1 });
    await fx.asOwner.reviews.setScore({
      projectId: p.id,
      episodeId: run.episodes[0]!.id,
      configId: useful.id,
      value: 2.5,
    });
    const { queue } = await fx.asOwner.reviews.createQueue({
      projectId: p.id,
      runId: run.run.id,
      filter: { kind: "wrong" },
    });

    const get = (format: string) =>
      restReviews.exportQueue(
        new Request(`http://x/api/projects/${p.id}/reviews/queues/${queue.id}/export?format=${format}`),
        { params: Promise.resolve({ projectId: p.id, queueId: queue.id }) },
      );
    // The REST handler reads the session from headers; a signed-in owner's cookie is not at hand,
    // so sign in with a READ token of the owner, as a script would.
    const { secret } = await fx.asOwner.tokens.create({ projectId: p.id, name: "export", scopes: ["READ"] });
    const authed = (format: string) =>
      restReviews.exportQueue(
        new Request(`http://x/api/projects/${p.id}/reviews/queues/${queue.id}/export?format=${format}`, {
          headers: { authorization: `Bearer ${secret}` },
        }),
        { params: Promise.resolve({ projectId: p.id, queueId: queue.id }) },
      );
    expect((await get("csv")).status).toBe(401);

    const [header, row1, row2] = (await (await authed("csv")).text()).trim().split("\n");
    expect(header).toBe(
      'position,episode_id,sample_key,question,answer,prediction,correct,k,tool_calls,status,assignee,tags,comments,"score:useful, really",score:grounding',
    );
    expect(row1!.endsWith(",2.5,")).toBe(true);
    expect(row2!.endsWith(",,")).toBe(true);

    const json = (await (await authed("json")).json()) as {
      scoreConfigs: { name: string; min: number; max: number }[];
      items: { scores: Record<string, { value: number; setBy: string | null }> }[];
    };
    expect(json.scoreConfigs.map((c) => [c.name, c.min, c.max])).toEqual([
      ["useful, really", 1, 3],
      ["grounding", 0, 1],
    ]);
    expect(json.items[0]!.scores).toEqual({
      "useful, really": { value: 2.5, setBy: fx.owner.email, setAt: expect.any(String) },
    });
    expect(json.items[1]!.scores).toEqual({});
  });
});
