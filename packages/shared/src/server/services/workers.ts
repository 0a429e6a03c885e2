// The live workers as one project's Jobs page shows them (issue 39 item 6). Workers are shared by
// every project of the deployment, so a project sees each worker and the jobs it runs for this
// project; jobs of other projects are only counted.
import type { LiveWorkersOutput } from "../../contracts/workers";
import { db } from "../db";
import { liveWorkers } from "../worker-registry";
import type { ProjectAccess } from "./access";

export async function projectWorkers(access: ProjectAccess): Promise<LiveWorkersOutput> {
  const { workers, unreadable } = await liveWorkers();
  const runIds = [...new Set(workers.flatMap((w) => w.active.map((a) => a.runId)))];
  const ours = new Set(
    runIds.length
      ? (
          await db().run.findMany({
            where: { id: { in: runIds }, projectId: access.projectId },
            select: { id: true },
          })
        ).map((r) => r.id)
      : [],
  );
  return {
    workers: workers.map((w) => {
      const active = w.active.filter((a) => ours.has(a.runId));
      return { ...w, active, otherJobs: w.active.length - active.length };
    }),
    unreadable,
  };
}
