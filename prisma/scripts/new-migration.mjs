// `npm run -w @paravt/db migration:new -- <name>`: writes migrations/<timestamp>_<name>/migration.sql,
// the SQL that takes the schema of the latest migration snapshot to the current schema.prisma.
// `prisma migrate dev` needs the native schema engine (not available offline), so the diff is
// computed between two datamodels; migrations/schema.snapshot.prisma is the datamodel the
// migrations produce and is updated together with each new migration.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runPrisma } from "./prisma-offline.mjs";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const name = (process.argv[2] ?? "").replace(/[^a-z0-9_]/gi, "_");
if (!name) {
  console.error("usage: npm run -w @paravt/db migration:new -- <name>");
  process.exit(2);
}
const snapshot = path.join(root, "migrations", "schema.snapshot.prisma");
const from = fs.existsSync(snapshot) ? ["--from-schema-datamodel", snapshot] : ["--from-empty"];
const sql = runPrisma(["migrate", "diff", ...from, "--to-schema-datamodel", "schema.prisma", "--script"]);
if (/-- This is an empty migration/.test(sql)) {
  console.log("schema.prisma has no changes since the last migration");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(root, "migrations", `${stamp}_${name}`);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "migration.sql"), sql);
fs.copyFileSync(path.join(root, "schema.prisma"), snapshot);
console.log(`wrote ${path.relative(root, dir)}/migration.sql — read it before committing`);
