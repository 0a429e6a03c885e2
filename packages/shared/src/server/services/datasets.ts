import path from "node:path";
import { Prisma, type QuestionType } from "@paravt/db";
import type { DatasetOutput, SampleOutput } from "../../contracts/datasets";
import { ConflictError, NotFoundError } from "../../errors";
import { db } from "../db";
import { serverEnv } from "../env";
import { confineToMediaRoots } from "../media-paths";
import type { ProjectAccess } from "./access";
import { launchRun } from "./runs";

/** Where a generated suite of a dataset is written (one directory per dataset). */
export function suiteDir(datasetId: string): string {
  return path.join(serverEnv().DATA_DIR, "suites", datasetId);
}

async function createDataset(access: ProjectAccess, name: string, description: string, source: Prisma.InputJsonValue) {
  try {
    return await db().dataset.create({ data: { projectId: access.projectId, name, description, source } });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new ConflictError(`A dataset named "${name}" already exists in this project`);
    }
    throw err;
  }
}

async function countsByType(datasetIds: string[]): Promise<Map<string, Record<string, number>>> {
  const rows = await db().sample.groupBy({
    by: ["datasetId", "questionType"],
    where: { datasetId: { in: datasetIds } },
    _count: { _all: true },
  });
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const m = out.get(r.datasetId) ?? {};
    m[r.questionType] = r._count._all;
    out.set(r.datasetId, m);
  }
  return out;
}

function toOutput(
  d: { id: string; name: string; description: string; source: Prisma.JsonValue; createdAt: Date },
  counts: Record<string, number>,
): DatasetOutput {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    source: (d.source ?? {}) as Record<string, unknown>,
    sampleCount: Object.values(counts).reduce((a, b) => a + b, 0),
    countsByType: counts,
    createdAt: d.createdAt,
  };
}

export async function listDatasets(access: ProjectAccess): Promise<DatasetOutput[]> {
  const rows = await db().dataset.findMany({ where: { projectId: access.projectId }, orderBy: { createdAt: "desc" } });
  const counts = await countsByType(rows.map((r) => r.id));
  return rows.map((r) => toOutput(r, counts.get(r.id) ?? {}));
}

export async function getDataset(access: ProjectAccess, datasetId: string): Promise<DatasetOutput> {
  const d = await db().dataset.findFirst({ where: { id: datasetId, projectId: access.projectId } });
  if (!d) throw new NotFoundError("Dataset");
  return toOutput(d, (await countsByType([d.id])).get(d.id) ?? {});
}

export async function listSamples(
  access: ProjectAccess,
  input: { datasetId: string; questionType?: QuestionType; cursor?: string; limit: number },
): Promise<{ items: SampleOutput[]; nextCursor: string | null }> {
  await getDataset(access, input.datasetId);
  const rows = await db().sample.findMany({
    where: { datasetId: input.datasetId, ...(input.questionType ? { questionType: input.questionType } : {}) },
    include: { video: { select: { name: true } } },
    orderBy: { key: "asc" },
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor }, skip: 0 } : {}),
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((s) => ({
      id: s.id,
      key: s.key,
      question: s.question,
      options: Array.isArray(s.options) ? (s.options as string[]) : null,
      answer: s.answer,
      questionType: s.questionType,
      videoId: s.videoId,
      videoName: s.video?.name ?? null,
      metadata: (s.metadata ?? {}) as Record<string, unknown>,
    })),
    nextCursor: rows.length > input.limit ? rows[input.limit]!.id : null,
  };
}

/** Creates the dataset and launches the job that renders the suite and imports it. */
export async function generateSuite(
  access: ProjectAccess,
  input: { name: string; seed: number; count: number; minMinutes: number; maxMinutes: number },
): Promise<{ dataset: DatasetOutput; runId: string }> {
  const config = { minMinutes: input.minMinutes, maxMinutes: input.maxMinutes };
  const dataset = await createDataset(
    access,
    input.name,
    `Needle suite: seed ${input.seed}, ${input.count} videos of ${input.minMinutes}-${input.maxMinutes} min`,
    { kind: "needle-suite", seed: input.seed, count: input.count, config },
  );
  const run = await launchRun(access, {
    jobName: "suite.generate",
    name: `Generate suite "${input.name}"`,
    payload: { datasetId: dataset.id },
    config: { datasetId: dataset.id, seed: input.seed, count: input.count, config },
  });
  return { dataset: toOutput(dataset, {}), runId: run.id };
}

/** Imports a suite directory that is already on the server, inside MEDIA_ROOTS. */
export async function importSuite(
  access: ProjectAccess,
  input: { name: string; path: string },
): Promise<{ dataset: DatasetOutput; runId: string }> {
  const dir = await confineToMediaRoots(input.path, serverEnv().MEDIA_ROOTS, "directory");
  const dataset = await createDataset(access, input.name, `Imported from ${dir}`, { kind: "needle-suite", dir });
  const run = await launchRun(access, {
    jobName: "dataset.import",
    name: `Import "${input.name}"`,
    payload: { datasetId: dataset.id },
    config: { datasetId: dataset.id, dir },
  });
  return { dataset: toOutput(dataset, {}), runId: run.id };
}
