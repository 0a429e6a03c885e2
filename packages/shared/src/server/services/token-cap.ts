// How many of a run's stored main-agent turns hit the generation cap (issue 41 item 1): the
// engine records each turn's `finish` ("length" = cut at maxTokens or the context) and its cap
// in the turn's `timings` (workers eval-sample `toResult`). The eval run page warns from it.
// The cap reported is that of the ordinary turns (a forced final answer has its own budget).
import type { TokenCapOutput } from "../../contracts/token-cap";
import { NotFoundError } from "../../errors";
import { db } from "../db";
import type { ProjectAccess } from "./access";

export async function runTokenCap(access: ProjectAccess, runId: string): Promise<TokenCapOutput> {
  const run = await db().run.findFirst({ where: { id: runId, projectId: access.projectId }, select: { id: true } });
  if (!run) throw new NotFoundError("Run");
  const [row] = await db().$queryRaw<{ turns: number; cut: number; max_tokens: number | null }[]>`
    SELECT count(*)::int AS turns,
           (count(*) FILTER (WHERE t.timings->>'finish' = 'length'))::int AS cut,
           max((t.timings->>'maxTokens')::int)
             FILTER (WHERE NOT t.forced_final AND jsonb_typeof(t.timings->'maxTokens') = 'number') AS max_tokens
    FROM turns t JOIN episodes e ON e.id = t.episode_id
    WHERE e.run_id = ${run.id}`;
  return { turns: row?.turns ?? 0, cut: row?.cut ?? 0, maxTokens: row?.max_tokens ?? null };
}
