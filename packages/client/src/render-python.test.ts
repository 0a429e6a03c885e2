// The Python SDK's REST client (sdk/python/paravt_workbench/api/_generated.py) is rendered from
// openapi.json: this fails when the document changed and `npm run -w @paravt/web openapi` was not
// run, so the Python types and paths never drift from the document (whose own freshness
// apps/web/src/server-tests/openapi-client.test.ts checks against the API).
import fs from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PYTHON_CLIENT_PATH, renderPythonClient } from "./render-python";

const client = path.resolve(import.meta.dirname, "..");
const generated = path.resolve(client, "..", "..", ...PYTHON_CLIENT_PATH.split("/"));
const stale = `stale: run \`npm run -w @paravt/web openapi\` and commit ${PYTHON_CLIENT_PATH}`;

async function committedDocument(): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(path.join(client, "openapi.json"), "utf8")) as Record<string, unknown>;
}

describe("Python client generation", () => {
  it("_generated.py is rendered from the committed openapi.json", async () => {
    const committed = await fs.readFile(generated, "utf8");
    expect(committed === renderPythonClient(await committedDocument()), stale).toBe(true);
  });

  it("renders one method per operation and notices a changed operation", async () => {
    const doc = await committedDocument();
    const text = renderPythonClient(doc);
    const paths = doc.paths as Record<string, Record<string, { operationId?: string }>>;
    const ids = Object.values(paths).flatMap((item) =>
      Object.values(item).flatMap((op) =>
        typeof op === "object" && op && "operationId" in op ? [op.operationId] : [],
      ),
    );
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(text).toContain(`OPERATIONS["${id}"]`);

    // A new query parameter must change the rendered text, or the staleness check above could not fail.
    const changed = structuredClone(doc) as typeof doc;
    const list = (changed.paths as Record<string, Record<string, { parameters: unknown[] }>>)[
      "/projects/{projectId}/runs"
    ]!.get!;
    list.parameters.push({ in: "query", name: "createdAfter", schema: { type: "string" } });
    const changedText = renderPythonClient(changed);
    expect(changedText).not.toBe(text);
    expect(changedText).toContain("created_after: Optional[str] = None");
  });
});
