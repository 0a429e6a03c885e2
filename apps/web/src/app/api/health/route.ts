import { db, redis } from "@paravt/shared/server";
import { health, pingRedis } from "./checks";

export const dynamic = "force-dynamic";

/**
 * Liveness for scripts and the start script: checks both backing services and answers within
 * about 1.5 s either way: 200 `{ ok: true, checks }`, or 503 naming what is down
 * (`{ ok: false, checks: { postgres: "ok", redis: "no answer within 1500 ms" }, error }`).
 */
export async function GET() {
  const res = await health({
    postgres: () => db().$queryRaw`SELECT 1`,
    redis: () => pingRedis(redis()),
  });
  return Response.json(res, { status: res.ok ? 200 : 503 });
}
