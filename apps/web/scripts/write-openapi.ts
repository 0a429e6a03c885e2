// Writes the REST API's OpenAPI document to packages/client/openapi.json and regenerates both typed
// clients from it (`npm run -w @paravt/web openapi`): the TypeScript client's src/schema.ts and the
// Python SDK's sdk/python/paravt_workbench/api/_generated.py. Run it after changing a procedure's input,
// output or meta.openapi; src/server-tests/openapi-client.test.ts and
// packages/client/src/render-python.test.ts fail while a file is stale.
import fs from "node:fs/promises";
import path from "node:path";
import { buildOpenApiDocument } from "@paravt/api";
import { PYTHON_CLIENT_PATH, renderPythonClient } from "@paravt/client/render-python";
import { renderSchema } from "@paravt/client/render-schema";

const root = path.resolve(import.meta.dirname, "..", "..", "..");
const client = path.join(root, "packages", "client");
const doc = buildOpenApiDocument();
await fs.writeFile(path.join(client, "openapi.json"), `${JSON.stringify(doc, null, 2)}\n`);
await fs.writeFile(
  path.join(client, "src", "schema.ts"),
  await renderSchema(doc as unknown as Record<string, unknown>),
);
// The Python client is rendered from the document as written (JSON), as its staleness test reads it.
await fs.writeFile(
  path.join(root, ...PYTHON_CLIENT_PATH.split("/")),
  renderPythonClient(JSON.parse(JSON.stringify(doc)) as Record<string, unknown>),
);
console.log(
  `wrote ${Object.keys(doc.paths ?? {}).length} paths to packages/client/openapi.json, src/schema.ts and ${PYTHON_CLIENT_PATH}`,
);
