// Empties the TEST Redis database before a test run (stale jobs of a killed run must not be
// picked up by the e2e worker). Refuses anything but the test prefixes.
import { Redis } from "ioredis";

const url = process.env.REDIS_URL;
const prefix = process.env.REDIS_PREFIX ?? "";
if (!url || !/^paravt-(test|e2e)$/.test(prefix)) {
  console.error(`flush-redis: refusing (REDIS_PREFIX=${prefix || "unset"} is not a test prefix)`);
  process.exit(2);
}
const redis = new Redis(url);
let cursor = "0";
let removed = 0;
do {
  const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
  cursor = next;
  if (keys.length) removed += await redis.del(...keys);
} while (cursor !== "0");
await redis.quit();
if (removed) console.log(`flush-redis: removed ${removed} stale keys under ${prefix}:*`);
