// `npm run -w @paravt/db migrate`: creates the database if needed and applies pending migrations.
import { ensureDatabase, migrate } from "../src/migrate";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("DATABASE_URL is not set (e.g. postgresql://postgres@127.0.0.1:5432/paravt)");
  process.exit(2);
}
await ensureDatabase(url);
const res = await migrate(url);
console.log(
  res.applied.length
    ? `applied ${res.applied.length} migration(s): ${res.applied.join(", ")}`
    : `database up to date (${res.alreadyApplied} migration(s))`,
);
