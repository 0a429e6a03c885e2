// The checker the contract test holds responses to: it must catch what a drifted document or
// response would look like (wrong type, missing or undocumented field, bad date, enum, refs).
import { describe, expect, it } from "vitest";
import { schemaProblems } from "./schema-check";

const doc = {
  components: {
    schemas: {
      Run: {
        type: "object",
        properties: {
          id: { type: "string" },
          status: { type: "string", enum: ["QUEUED", "SUCCEEDED"] },
          attempts: { type: "integer", minimum: 0 },
          startedAt: { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
          config: { type: "object", additionalProperties: {} },
        },
        required: ["id", "status", "attempts", "startedAt"],
        additionalProperties: false,
      },
    },
  },
};
const ref = { $ref: "#/components/schemas/Run" };
const good = { id: "r1", status: "QUEUED", attempts: 0, startedAt: "2026-01-02T03:04:05.678Z", config: { a: 1 } };

describe("schemaProblems", () => {
  it("accepts a value that matches, through $ref, anyOf and open records", () => {
    expect(schemaProblems(ref, good, doc)).toEqual([]);
    expect(schemaProblems({ type: "array", items: ref }, [good, { ...good, startedAt: null }], doc)).toEqual([]);
  });

  it("reports wrong types, missing and undocumented fields, enums, bounds and dates", () => {
    expect(schemaProblems(ref, { ...good, attempts: 1.5 }, doc)).toEqual(["$.attempts: expected integer, got number"]);
    expect(schemaProblems(ref, { ...good, attempts: -1 }, doc)).toEqual(["$.attempts: below minimum 0"]);
    const { status: _status, ...missing } = good;
    expect(schemaProblems(ref, missing, doc)).toEqual(['$: missing required "status"']);
    expect(schemaProblems(ref, { ...good, secret: "x" }, doc)).toEqual(['$: undocumented property "secret"']);
    expect(schemaProblems(ref, { ...good, status: "LOST" }, doc)).toEqual(["$.status: LOST not in enum"]);
    expect(schemaProblems(ref, { ...good, startedAt: "yesterday" }, doc)).toHaveLength(1);
    expect(schemaProblems({ type: "array", items: ref }, [good, 3], doc)).toEqual([
      "$[1]: expected object, got integer",
    ]);
  });

  it("fails on a $ref the document does not define", () => {
    expect(schemaProblems({ $ref: "#/components/schemas/Nope" }, {}, doc)).toEqual([
      "$: unresolved $ref #/components/schemas/Nope",
    ]);
  });
});
