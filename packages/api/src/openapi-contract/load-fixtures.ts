// The contract fixtures of every file of fixtures/, keyed by operationId (the contract test and the
// fuzz test build their requests from them).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FixtureTable } from "./types";

export async function loadFixtures(): Promise<FixtureTable> {
  const dir = fileURLToPath(new URL("./fixtures", import.meta.url));
  const table: FixtureTable = {};
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const mod = (await import(path.join(dir, file))) as { fixtures?: FixtureTable };
    if (!mod.fixtures) throw new Error(`openapi-contract/fixtures/${file} exports no \`fixtures\` table`);
    for (const [operationId, fixture] of Object.entries(mod.fixtures)) {
      if (table[operationId]) throw new Error(`Two fixtures for ${operationId} (second in ${file})`);
      table[operationId] = fixture;
    }
  }
  return table;
}
