// The demo seed's one migration of its own rows (scripts/seed-demo.ts), apart from the seed so a
// test can run it: seed-demo.ts seeds on import.
import { db } from "@paravt/shared/server";

/**
 * Earlier seeds named the demo models after their training history, e.g. "nano-default (small, SFT
 * on the core 18800 steps + …)", a new name (and row) each time the default changed. The history
 * now lives in the checkpoint's lineage: the latest such row takes the short name, keeping its
 * runs, instead of a second model being added beside it. Returns the former name, or null.
 */
export async function renameFormerDemoModel(projectId: string, name: string): Promise<string | null> {
  if (await db().model.findUnique({ where: { projectId_name: { projectId, name } } })) return null;
  const former = await db().model.findFirst({
    where: { projectId, kind: "NANO_CHECKPOINT", name: { startsWith: `${name} (` } },
    orderBy: { createdAt: "desc" },
  });
  if (!former) return null;
  await db().model.update({ where: { id: former.id }, data: { name } });
  return former.name;
}
