import { describe, expect, it } from "vitest";
import { curlCommand, exampleFor, operationsByTag, requestUrl, typeLabel, type OpenApiDoc } from "./openapi-view";

const doc: OpenApiDoc = {
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  servers: [{ url: "/api/v1" }],
  tags: [{ name: "runs" }, { name: "videos" }],
  paths: {
    "/projects/{projectId}/videos/upload": {
      servers: [{ url: "/api" }],
      post: { operationId: "videos-upload", tags: ["videos"], responses: {} },
    },
    "/projects/{projectId}/runs": {
      get: {
        operationId: "runs-list",
        tags: ["runs"],
        parameters: [
          { in: "path", name: "projectId", required: true, schema: { type: "string" } },
          { in: "query", name: "limit", schema: { type: "integer", minimum: 1 } },
          { in: "query", name: "names", schema: { type: "array", items: { type: "string" } } },
        ],
        responses: {},
      },
      post: { operationId: "runs-create", tags: ["runs"], responses: {} },
    },
  },
  components: {
    schemas: {
      Knobs: { type: "object", properties: { k: { type: "integer", default: 64 } }, required: ["k"] },
    },
  },
};

describe("operationsByTag", () => {
  it("groups by first tag in the document's order, with path-level servers", () => {
    const groups = operationsByTag(doc);
    expect(groups.map((g) => [g.tag, g.operations.map((o) => `${o.method} ${o.server}${o.path}`)])).toEqual([
      ["runs", ["get /api/v1/projects/{projectId}/runs", "post /api/v1/projects/{projectId}/runs"]],
      ["videos", ["post /api/projects/{projectId}/videos/upload"]],
    ]);
  });
});

describe("requestUrl", () => {
  const runsList = operationsByTag(doc)[0]!.operations[0]!;

  it("fills path parameters, skips empty query values and repeats list values", () => {
    expect(requestUrl(runsList, { projectId: "p 1", limit: "5", names: "loss, reward" })).toEqual({
      url: "/api/v1/projects/p%201/runs?limit=5&names=loss&names=reward",
      missing: [],
    });
    expect(requestUrl(runsList, { projectId: "p", limit: " " }).url).toBe("/api/v1/projects/p/runs");
  });

  it("names the missing path parameters", () => {
    expect(requestUrl(runsList, {}).missing).toEqual(["projectId"]);
  });
});

describe("exampleFor", () => {
  it("fills required fields with defaults, first enum values and lower bounds", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string" },
        mode: { type: "string", enum: ["direct", "agentic"] },
        ks: { type: "array", items: { type: "integer", minimum: 1 }, minItems: 1 },
        knobs: { $ref: "#/components/schemas/Knobs" },
        when: { anyOf: [{ type: "null" }, { type: "string", format: "date-time" }] },
        optional: { type: "boolean" },
      },
      required: ["name", "mode", "ks", "knobs", "when"],
    };
    expect(exampleFor(doc, schema)).toEqual({
      name: "string",
      mode: "direct",
      ks: [1],
      knobs: { k: 64 },
      when: "1970-01-01T00:00:00.000Z",
    });
  });
});

describe("typeLabel and curl", () => {
  it("labels arrays, nullable types and refs", () => {
    expect(typeLabel(doc, { type: "array", items: { type: "string" } })).toBe("array of string");
    expect(typeLabel(doc, { type: ["string", "null"] })).toBe("string | null");
    expect(typeLabel(doc, { $ref: "#/components/schemas/Knobs" })).toBe("object");
  });

  it("quotes a JSON body for the shell", () => {
    const op = operationsByTag(doc)[0]!.operations[1]!;
    expect(curlCommand("http://h", op, "/api/v1/x", { json: `{"a":"it's"}` })).toBe(
      `curl -X POST "http://h/api/v1/x" \\\n  -H "Authorization: Bearer $PARAVT_TOKEN" \\\n  -H "Content-Type: application/json" \\\n  -d '{"a":"it'\\''s"}'`,
    );
  });
});
