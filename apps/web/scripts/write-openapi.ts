// Writes the REST API's OpenAPI document to packages/client/openapi.json and regenerates the
// typed client's src/schema.ts from it (`npm run -w @paravt/web openapi`). Run it after changing
// a procedure's input, output or meta.openapi; src/server-tests/openapi-client.test.ts fails while
// either file is stale.
import fs from "node:fs/promises";
import path from "node:path";
import { buildOpenApiDocument } from "@paravt/api";
import { renderSchema } from "@paravt/client/render-schema";

const client = path.resolve(import.meta.dirname, "..", "..", "..", "packages", "client");
const doc = buildOpenApiDocument();
await fs.writeFile(path.join(client, "openapi.json"), `${JSON.stringify(doc, null, 2)}\n`);
await fs.writeFile(
  path.join(client, "src", "schema.ts"),
  await renderSchema(doc as unknown as Record<string, unknown>),
);
console.log(`wrote ${Object.keys(doc.paths ?? {}).length} paths to packages/client/openapi.json and src/schema.ts`);
