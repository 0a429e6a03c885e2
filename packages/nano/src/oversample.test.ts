import { planSuite } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { repeatTemplates } from "./oversample";
import { sftExamples } from "./sequence";

const plan = planSuite({ seed: 3, count: 4 });
const templateOf = new Map(plan.questions.map((q) => [q.id, q.template]));

describe("repeatTemplates", () => {
  it("repeats the named template's rows right after each original, named <id>~<copy>", () => {
    const out = repeatTemplates(plan.oracle, templateOf, { when: 3 });
    const when = plan.oracle.filter((r) => templateOf.get(r.questionId) === "when");
    expect(when.length).toBeGreaterThan(0);
    expect(out).toHaveLength(plan.oracle.length + 2 * when.length);
    const i = out.findIndex((r) => r.id === when[0]!.id);
    expect(out.slice(i, i + 3).map((r) => r.id)).toEqual([when[0]!.id, `${when[0]!.id}~2`, `${when[0]!.id}~3`]);
    expect(out[i + 1]).toEqual({ ...when[0]!, id: `${when[0]!.id}~2` });
    // Other templates pass through unchanged and in order.
    expect(out.filter((r) => templateOf.get(r.questionId) !== "when")).toEqual(
      plan.oracle.filter((r) => templateOf.get(r.questionId) !== "when"),
    );
  });

  it("adds main-agent examples with their own aliased paths, and no sub-agent sample twice", () => {
    const opts = { contextLength: 2048, thinkPrefix: true, aliasVideoPathsSeed: 1, ks: [8] };
    const base = sftExamples({ oracle: plan.oracle }, opts).examples;
    const more = sftExamples({ oracle: repeatTemplates(plan.oracle, templateOf, { when: 2 }) }, opts).examples;
    const whenRows = new Set(plan.oracle.filter((r) => templateOf.get(r.questionId) === "when").map((r) => r.id));
    const whenMain = base.filter((e) => e.kind === "main" && whenRows.has(e.rowId));
    expect(more.filter((e) => e.kind === "sub")).toHaveLength(base.filter((e) => e.kind === "sub").length);
    expect(more.filter((e) => e.kind === "main")).toHaveLength(
      base.filter((e) => e.kind === "main").length + whenMain.length,
    );
    const copy = more.find((e) => e.id === `${whenMain[0]!.id}~2`)!;
    expect(copy.frames).toEqual(whenMain[0]!.frames);
    // Same trajectory and frames, another aliased video path in the text.
    expect([...copy.ids]).not.toEqual([...whenMain[0]!.ids]);
  });

  it("refuses a template no question has and a row of another suite", () => {
    expect(() => repeatTemplates(plan.oracle, templateOf, { wehn: 2 })).toThrow(
      /no question of this suite has the template wehn/,
    );
    expect(() => repeatTemplates(plan.oracle, new Map([["x", "when"]]), { when: 2 })).toThrow(/unknown question/);
  });
});
