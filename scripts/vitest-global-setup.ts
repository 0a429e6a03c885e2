// Integration tests run against the TEST database (scripts/test.mjs sets DATABASE_URL to it);
// make sure it exists and is migrated before any test file starts.
import { ensureDatabase, migrate } from "../prisma/src/migrate";

export default async function setup(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) return; // unit-only runs need no database
  if (!/test/i.test(new URL(url).pathname)) {
    throw new Error(
      `refusing to run tests against ${new URL(url).pathname}: the test database name must contain "test"`,
    );
  }
  await ensureDatabase(url);
  await migrate(url);
}
