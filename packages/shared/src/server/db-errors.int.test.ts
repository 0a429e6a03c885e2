// databaseRefusal against what the real Postgres and Prisma throw (issue 37 item 11): each kind of
// refusal a request can cause, told apart from a query Prisma refuses and from any other error.
import { createProjectWithRoles } from "@paravt/db/factories";
import { describe, expect, it } from "vitest";
import { databaseRefusal } from "./db-errors";
import { db } from "./db";

async function refusalOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return databaseRefusal(err);
  }
  throw new Error("the query succeeded");
}

async function project() {
  return (await createProjectWithRoles(db())).project;
}

describe("databaseRefusal", () => {
  it("names text Postgres cannot store: NUL in text and in jsonb, an unpaired surrogate in a model or raw query", async () => {
    const { id: projectId } = await project();
    const text = { kind: "value", text: true };
    expect(await refusalOf(db().video.findMany({ where: { name: "a\u0000b" } }))).toMatchObject(text);
    expect(
      await refusalOf(db().model.create({ data: { projectId, name: "m", kind: "EXTERNAL", config: { a: "\u0000" } } })),
    ).toMatchObject(text);
    expect(await refusalOf(db().video.findMany({ where: { name: "a\ud800" } }))).toMatchObject(text);
    expect(await refusalOf(db().$executeRaw`SELECT hashtext(${"a\ud800"})`)).toMatchObject(text);
    expect(await refusalOf(db().$executeRaw`SELECT hashtext(${"a\u0000"})`)).toMatchObject(text);
  });

  it("names a number beyond int4 as a value out of range, not as text", async () => {
    expect(await refusalOf(db().metric.findMany({ where: { step: { gt: 2 ** 31 } } }))).toMatchObject({
      kind: "value",
      text: false,
    });
  });

  it("names a taken unique key, a reference to nothing and a row that is gone", async () => {
    const { id: projectId } = await project();
    await db().model.create({ data: { projectId, name: "taken", kind: "EXTERNAL" } });
    expect(await refusalOf(db().model.create({ data: { projectId, name: "taken", kind: "EXTERNAL" } }))).toEqual({
      kind: "unique",
    });
    expect(
      await refusalOf(db().model.create({ data: { projectId: "no-such-project", name: "x", kind: "EXTERNAL" } })),
    ).toEqual({ kind: "reference" });
    expect(await refusalOf(db().model.delete({ where: { id: "no-such-model" } }))).toEqual({ kind: "missing" });
  });

  it("tells a query Prisma refuses, and anything else, from a refused value", async () => {
    // A float where Prisma needs an integer: our query is wrong, whatever the input was.
    expect(await refusalOf(db().metric.findMany({ where: { step: { gt: 1e308 } } }))).toEqual({ kind: "query" });
    expect(databaseRefusal(new Error('relation "x" does not exist'))).toBeNull();
    expect(databaseRefusal(null)).toBeNull();
  });
});
