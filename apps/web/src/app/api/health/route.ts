import { db, redis } from "@paravt/shared/server";

export const dynamic = "force-dynamic";

/** Liveness for scripts and the start script: checks both backing services. */
export async function GET() {
  try {
    await db().$queryRaw`SELECT 1`;
    await redis().ping();
    return Response.json({ ok: true });
  } catch (err) {
    return Response.json({ ok: false, error: (err as Error).message }, { status: 503 });
  }
}
