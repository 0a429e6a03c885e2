import path from "node:path";
import { BENCHMARKS } from "@paravt/benchmarks";
import { Prisma, type QuestionType } from "@paravt/db";
import {
  importBenchmarkInput,
  IMPORTABLE_BENCHMARKS,
  type BenchmarkInfoOutput,
  type DatasetOutput,
  type ImportBenchmarkInput,
  type OptionStyle,
  type SampleOutput,
} from "../../contracts/datasets";
import { datasetSampleCard, type DatasetSampleCard, type DatasetSampleGridInput } from "../../contracts/sample-grid";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { serverEnv } from "../env";
import { confineToMediaRoots } from "../media-paths";
import type { ProjectAccess } from "./access";
import { launchRun } from "./runs";
import { cardVideo, clipText, questionLine } from "./sample-cards";

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

const visibleAtKOf = datasetSampleCard.shape.visibleAtK;

/**
 * One page of a dataset's sample grid (issue 41 item 13), in the samples table's order (key): the
 * card's texts clipped, its video's duration and sprites, and a needle suite's per-K visibility.
 */
export async function listSampleCards(
  access: ProjectAccess,
  input: Omit<DatasetSampleGridInput, "projectId">,
): Promise<{ items: DatasetSampleCard[]; nextCursor: string | null }> {
  await getDataset(access, input.datasetId);
  const rows = await db().sample.findMany({
    where: { datasetId: input.datasetId, ...(input.questionType ? { questionType: input.questionType } : {}) },
    select: {
      id: true,
      key: true,
      question: true,
      questionType: true,
      answer: true,
      metadata: true,
      video: { select: { id: true, durationS: true, assets: true } },
    },
    orderBy: { key: "asc" },
    take: input.limit + 1,
    ...(input.cursor ? { cursor: { id: input.cursor } } : {}),
  });
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((s) => {
      const visible = visibleAtKOf.safeParse((s.metadata as Record<string, unknown> | null)?.visibleAtK ?? null);
      return {
        sampleId: s.id,
        key: s.key,
        questionType: s.questionType,
        question: questionLine(s.question),
        answer: clipText(s.answer),
        video: cardVideo(s.video),
        visibleAtK: visible.success ? visible.data : null,
      };
    }),
    nextCursor: rows.length > input.limit ? rows[input.limit]!.id : null,
  };
}

/** Creates the dataset and launches the job that renders the suite and imports it. */
export async function generateSuite(
  access: ProjectAccess,
  input: {
    name: string;
    seed: number;
    count: number;
    minMinutes: number;
    maxMinutes: number;
    /** The suite's default when absent: letter-first. */
    optionStyle?: OptionStyle;
  },
): Promise<{ dataset: DatasetOutput; runId: string }> {
  const optionStyle = input.optionStyle ?? "letter-first";
  const config = { minMinutes: input.minMinutes, maxMinutes: input.maxMinutes, optionStyle };
  const dataset = await createDataset(
    access,
    input.name,
    `Needle suite: seed ${input.seed}, ${input.count} videos of ${input.minMinutes}-${input.maxMinutes} min, ${optionStyle} options`,
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

/** The loader registry of @paravt/benchmarks, for the import form (description, expected files). */
export function listBenchmarks(): BenchmarkInfoOutput[] {
  return BENCHMARKS.filter((b) => (IMPORTABLE_BENCHMARKS as readonly string[]).includes(b.id)).map((b) => ({
    id: b.id,
    title: b.title,
    description: b.description,
    splits: [...b.splits],
    defaultSplit: b.defaultSplit,
    questionType: b.questionType,
    metric: b.metric,
    supportsSubtitles: b.supportsSubtitles,
    source: b.source,
    files: b.files.map((f) => ({ ...f })),
    videoDirs: [...b.videoDirs],
    variants: [...b.variants],
  }));
}

/** The options of a benchmark import, as kept in `dataset.source` and in the import run's config. */
export interface BenchmarkImportSource {
  kind: "benchmark";
  benchmark: ImportBenchmarkInput["benchmark"];
  /** Real paths, confined to MEDIA_ROOTS when the import was requested (paravt-parquet: `dir` is the file). */
  dir: string;
  /** paravt-parquet: the media root of the SPEC §6 sentinel paths. */
  videoDir?: string;
  split?: string;
  subtitles: boolean;
}

/** What an import asks for (importBenchmarkInput's output; the optional fields may be absent). */
export type BenchmarkImportRequest = Omit<ImportBenchmarkInput, "projectId" | "videoDir" | "split"> & {
  videoDir?: string | undefined;
  split?: string | undefined;
};

/** A custom dataset may be one file, a ParaVT parquet import is one file; every other benchmark is a directory. */
async function confineBenchmarkDir(input: string, benchmark: string): Promise<string> {
  const roots = serverEnv().MEDIA_ROOTS;
  if (benchmark === "paravt-parquet") return confineToMediaRoots(input, roots, "file");
  if (benchmark !== "custom") return confineToMediaRoots(input, roots, "directory");
  try {
    return await confineToMediaRoots(input, roots, "directory");
  } catch (err) {
    if (err instanceof ValidationError && /is not a directory/.test(err.message)) {
      return confineToMediaRoots(input, roots, "file");
    }
    throw err;
  }
}

async function benchmarkSource(input: Omit<BenchmarkImportRequest, "name">): Promise<BenchmarkImportSource> {
  const info = BENCHMARKS.find((b) => b.id === input.benchmark);
  if (!info) throw new ValidationError(`Unknown benchmark ${input.benchmark}`);
  if (input.split && info.splits.length > 0 && !info.splits.includes(input.split)) {
    throw new ValidationError(`${info.title} has no split "${input.split}" (splits: ${info.splits.join(", ")})`);
  }
  if (input.subtitles && !info.supportsSubtitles) throw new ValidationError(`${info.title} has no subtitle variant`);
  const dir = await confineBenchmarkDir(input.path, input.benchmark);
  const videoDir = input.videoDir
    ? await confineToMediaRoots(input.videoDir, serverEnv().MEDIA_ROOTS, "directory")
    : undefined;
  return {
    kind: "benchmark",
    benchmark: input.benchmark,
    dir,
    ...(videoDir ? { videoDir } : {}),
    ...(input.split ? { split: input.split } : {}),
    subtitles: input.subtitles,
  };
}

async function launchBenchmarkImport(
  access: ProjectAccess,
  datasetId: string,
  name: string,
  src: BenchmarkImportSource,
) {
  return launchRun(access, {
    jobName: "dataset.import",
    name: `Import ${src.benchmark} "${name}"`,
    payload: { datasetId },
    config: { datasetId, ...src } as unknown as Prisma.InputJsonValue,
  });
}

/**
 * Imports a local benchmark copy (its published layout, @paravt/benchmarks) as a new dataset. The
 * directory and the video directory must be inside MEDIA_ROOTS (real paths, checked here before
 * anything is created); the worker re-checks every video path.
 */
export async function importBenchmark(
  access: ProjectAccess,
  input: BenchmarkImportRequest,
): Promise<{ dataset: DatasetOutput; runId: string }> {
  const src = await benchmarkSource(input);
  const dataset = await createDataset(access, input.name, `${src.benchmark} imported from ${src.dir}`, {
    ...src,
  } as unknown as Prisma.InputJsonValue);
  const run = await launchBenchmarkImport(access, dataset.id, input.name, src);
  return { dataset: toOutput(dataset, {}), runId: run.id };
}

/**
 * Imports a benchmark dataset again with the options it was imported with (paths re-checked against
 * MEDIA_ROOTS): samples are updated by key and videos found by path, so nothing is duplicated.
 */
export async function reimportBenchmark(access: ProjectAccess, datasetId: string): Promise<{ runId: string }> {
  const d = await db().dataset.findFirst({ where: { id: datasetId, projectId: access.projectId } });
  if (!d) throw new NotFoundError("Dataset");
  const stored = (d.source ?? {}) as Record<string, unknown>;
  if (stored.kind !== "benchmark") throw new ValidationError(`Dataset "${d.name}" was not imported from a benchmark`);
  const parsed = importBenchmarkInput.safeParse({
    projectId: access.projectId,
    name: d.name,
    benchmark: stored.benchmark,
    path: stored.dir,
    videoDir: stored.videoDir,
    split: stored.split,
    subtitles: stored.subtitles,
  });
  if (!parsed.success) throw new ValidationError(`The stored import options of "${d.name}" are not valid`);
  const run = await launchBenchmarkImport(access, d.id, d.name, await benchmarkSource(parsed.data));
  return { runId: run.id };
}
