// Regenerates src/schema.ts (the client's types) from openapi.json with openapi-typescript.
// openapi.json itself is written from the API's own document by apps/web/scripts/write-openapi.ts;
// `npm run -w @paravt/web openapi` does both. A test fails when either is stale.
import fs from "node:fs/promises";
import path from "node:path";
import { renderSchema } from "../src/render-schema";

const root = path.join(import.meta.dirname, "..");
const doc = JSON.parse(await fs.readFile(path.join(root, "openapi.json"), "utf8")) as Record<string, unknown>;
await fs.writeFile(path.join(root, "src", "schema.ts"), await renderSchema(doc));
console.log("wrote packages/client/src/schema.ts");
