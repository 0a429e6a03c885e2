// The typed client (@paravt/client) is generated from the API's OpenAPI document: this fails
// when a procedure changed and `npm run -w @paravt/web openapi` was not run, so the client's types
// never drift from what the server accepts and answers.
import fs from "node:fs/promises";
import path from "node:path";
import { buildOpenApiDocument } from "@paravt/api";
import { renderSchema } from "@paravt/client/render-schema";
import { describe, expect, it } from "vitest";

const client = path.resolve(import.meta.dirname, "..", "..", "..", "..", "packages", "client");
const stale = "stale: run `npm run -w @paravt/web openapi` and commit packages/client";

describe("@paravt/client generation", () => {
  it("openapi.json is the API's current document, and schema.ts is rendered from it", async () => {
    const committed = JSON.parse(await fs.readFile(path.join(client, "openapi.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(committed, stale).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    const schema = await fs.readFile(path.join(client, "src", "schema.ts"), "utf8");
    expect(schema === (await renderSchema(committed)), stale).toBe(true);
  });
});
