import { describe, expect, it } from "vitest";
import { z } from "zod";
import { syncFirst } from "./common";

const page = () =>
  z.object({ items: z.array(z.object({ id: z.string(), n: z.number().int() })), next: z.string().nullable() });

describe("syncFirst", () => {
  it("answers parseAsync with what zod's own parseAsync answers", async () => {
    const value = { items: [{ id: "a", n: 1, extra: true }], next: null };
    expect(await syncFirst(page()).parseAsync(value)).toEqual(await page().parseAsync(value));
    expect(await syncFirst(page()).parseAsync(value)).toEqual({ items: [{ id: "a", n: 1 }], next: null });
  });

  it("refuses what parseAsync refuses, with the same issues", async () => {
    const bad = {
      items: [
        { id: "a", n: 1.5 },
        { id: 3, n: 1 },
      ],
      next: 4,
    };
    const mine = await syncFirst(page())
      .parseAsync(bad)
      .catch((e: unknown) => e);
    const theirs = await page()
      .parseAsync(bad)
      .catch((e: unknown) => e);
    expect(mine).toBeInstanceOf(z.ZodError);
    expect((mine as z.ZodError).issues).toEqual((theirs as z.ZodError).issues);
    expect((mine as z.ZodError).issues.map((i) => i.path.join("."))).toEqual(["items.0.n", "items.1.id", "next"]);
  });

  it("still runs async refinements, asynchronously", async () => {
    let calls = 0;
    const schema = syncFirst(
      z.object({ name: z.string() }).refine(async (v) => {
        calls++;
        return v.name !== "taken";
      }, "taken"),
    );
    expect(await schema.parseAsync({ name: "free" })).toEqual({ name: "free" });
    await expect(schema.parseAsync({ name: "taken" })).rejects.toThrow("taken");
    // The synchronous try called the refinement, met its promise and gave up; the async parse
    // called it again: twice per value (the documented cost of syncFirst on async checks).
    expect(calls).toBe(4);
  });

  it("leaves the synchronous parse as it is", () => {
    const schema = syncFirst(page());
    expect(() => schema.parse({ items: [], next: 1 })).toThrow(z.ZodError);
  });
});
