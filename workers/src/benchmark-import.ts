// Turns a local benchmark copy (read by @paravt/benchmarks in its published layout) into database
// rows: one Video per distinct video file (probed, then thumbnails / filmstrip, by the usual jobs)
// and one Sample per loaded question. Idempotent like the suite import: videos are found by
// (project, real path) and samples upserted by (dataset, key), so a retried or repeated import
// updates rows and never duplicates them. Samples are written 1000 per statement with
// `n/total samples` progress; a row equal to the stored one is not written again, so a retry
// skips what the killed attempt stored (issue 42 item 4). The import report (stats, skip reasons, the first skipped
// rows) is stored in `dataset.source.report` for the dataset page.
//
// Metadata written on each sample, besides the loader's own (README of @paravt/benchmarks):
// - `split`: the eval launch filters samples on `metadata.split`;
// - `durationCategory` (VideoMME, from the loader): the SPEC §5 by-duration summary reads it;
// - `benchmark`, and `durationS` when the benchmark publishes the video length.
// ParaVT parquet files (benchmark `paravt-parquet`, SPEC §6) come through the same path: `dir` is
// the file, `videoDir` the media root of its sentinel paths; rows whose video is missing are
// skipped with the root named, and `report.parquet` keeps the per-root path counts.
// VideoMME with subtitles: the loader already prefixes the SRT text into `question`, and
// `metadata.subtitles` stays the loader's boolean (whether an SRT was found). The eval knob
// `subtitles` only prefixes a *string* `metadata.subtitles`, so the text is never added twice.
import fs from "node:fs/promises";
import path from "node:path";
import { BenchmarkError, loadBenchmark, type Sample } from "@paravt/benchmarks";
import { Prisma } from "@paravt/db";
import { SKIPPED_ROWS_KEPT, ValidationError, type BenchmarkImportReport, type ImportSkippedRow } from "@paravt/shared";
import { confineToMediaRoots, db, runs, serverEnv, type datasets } from "@paravt/shared/server";
import { PermanentJobError, type RunContext } from "./job-context";

/** Skip reason added here (not a loader reason): the video's real path leaves MEDIA_ROOTS. */
export const OUTSIDE_MEDIA_ROOTS = "outside_media_roots";

/** Samples written per statement (bench/import: a 100,000-question copy is 100 statements). */
const UPSERT_BATCH = 1000;

async function confine(input: string, kind: "file" | "directory"): Promise<string> {
  try {
    return await confineToMediaRoots(input, serverEnv().MEDIA_ROOTS, kind);
  } catch (err) {
    if (err instanceof ValidationError) throw new PermanentJobError(err.message);
    throw err;
  }
}

async function load(src: datasets.BenchmarkImportSource) {
  // The paths were confined when the import was requested; the roots may have changed since.
  const isFile = (await fs.stat(src.dir).catch(() => null))?.isFile() ?? false;
  // A custom dataset may be one file; a ParaVT parquet import (SPEC §6) always is one.
  const fileInput = src.benchmark === "paravt-parquet" || (src.benchmark === "custom" && isFile);
  const dir = await confine(src.dir, fileInput ? "file" : "directory");
  const videoDir = src.videoDir === undefined ? undefined : await confine(src.videoDir, "directory");
  try {
    return await loadBenchmark({
      benchmark: src.benchmark,
      dir,
      ...(videoDir ? { videoDir } : {}),
      ...(src.split ? { split: src.split } : {}),
      ...(src.subtitles ? { subtitles: true } : {}),
    });
  } catch (err) {
    // A missing layout or an unreadable file will not get better on retry; the message names it.
    if (err instanceof BenchmarkError) throw new PermanentJobError(`Cannot import ${src.dir}: ${err.message}`);
    throw err;
  }
}

function relativeKey(sample: Sample, videoDir: string): string {
  const rel = path.relative(videoDir, sample.videoPath);
  return rel && !rel.startsWith("..") ? rel : path.basename(sample.videoPath);
}

export async function importBenchmarkInto(
  datasetId: string,
  src: datasets.BenchmarkImportSource,
  ctx: RunContext,
  progress: { from: number; to: number },
): Promise<string> {
  const dataset = await db().dataset.findUniqueOrThrow({ where: { id: datasetId } });
  const result = await load(src);
  const span = progress.to - progress.from;
  await ctx.progress(progress.from + span * 0.1, `Read ${result.stats.rows} rows`);

  // Every video is confined on its own: a symlink inside the benchmark folder may lead elsewhere.
  const skipped: ImportSkippedRow[] = result.skipped.map((r) => ({ ...r }));
  const byReason: Record<string, number> = { ...result.stats.byReason };
  const realPaths = new Map<string, string | Error>();
  for (const p of new Set(result.samples.map((s) => s.videoPath))) {
    try {
      realPaths.set(p, await confineToMediaRoots(p, serverEnv().MEDIA_ROOTS, "file"));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      realPaths.set(p, err);
    }
  }
  const kept: Sample[] = [];
  for (const s of result.samples) {
    const real = realPaths.get(s.videoPath);
    if (real instanceof Error) {
      // The loader keeps no row position on a sample; the key names the question.
      skipped.push({
        file: path.relative(result.stats.videoDir, s.videoPath),
        row: 0,
        key: s.key,
        reason: OUTSIDE_MEDIA_ROOTS,
        detail: real.message,
      });
      byReason[OUTSIDE_MEDIA_ROOTS] = (byReason[OUTSIDE_MEDIA_ROOTS] ?? 0) + 1;
    } else kept.push(s);
  }

  const videoIds = new Map<string, string>();
  let newVideos = 0;
  const distinct = [...new Set(kept.map((s) => s.videoPath))];
  for (const [i, p] of distinct.entries()) {
    const real = realPaths.get(p) as string;
    const where = { projectId_path: { projectId: dataset.projectId, path: real } };
    let video = await db().video.findUnique({ where });
    if (!video) {
      const sample = kept.find((s) => s.videoPath === p)!;
      video = await db().video.create({
        data: {
          projectId: dataset.projectId,
          name: `${dataset.name} / ${relativeKey(sample, result.stats.videoDir)}`,
          source: "PATH",
          path: real,
          sizeBytes: (await fs.stat(real)).size,
        },
      });
      newVideos++;
      await runs.launchSystemRun(dataset.projectId, {
        jobName: "video.probe",
        name: `Probe ${video.name}`,
        payload: { videoId: video.id },
      });
    }
    videoIds.set(p, video.id);
    if (i % 20 === 0 || i === distinct.length - 1) {
      await ctx.progress(
        progress.from + span * (0.1 + (0.4 * (i + 1)) / distinct.length),
        `Registered ${i + 1}/${distinct.length} videos`,
      );
    }
  }

  let stored = 0;
  for (let start = 0; start < kept.length; start += UPSERT_BATCH) {
    const batch = kept.slice(start, start + UPSERT_BATCH);
    await upsertSamples(
      datasetId,
      batch.map((s) => ({
        key: s.key,
        videoId: videoIds.get(s.videoPath) ?? null,
        question: s.question,
        options: s.options ?? null,
        answer: s.answer,
        questionType: s.questionType,
        metadata: {
          ...s.metadata,
          benchmark: s.benchmark,
          split: s.split,
          ...(s.durationS === undefined ? {} : { durationS: s.durationS }),
        },
      })),
    );
    stored += batch.length;
    await ctx.progress(progress.from + span * (0.5 + (0.5 * stored) / kept.length), `${stored}/${kept.length} samples`);
  }

  const { stats } = result;
  const report: BenchmarkImportReport = {
    rows: stats.rows,
    loaded: kept.length,
    skipped: skipped.length,
    byReason,
    byQuestionType: countBy(kept, (s) => s.questionType),
    byDurationCategory: countBy(kept, (s) =>
      typeof s.metadata.durationCategory === "string" ? s.metadata.durationCategory : null,
    ),
    files: stats.files,
    variant: stats.variant,
    videoDir: stats.videoDir,
    videos: distinct.length,
    newVideos,
    // Recounted over the samples kept (the loader's count includes rows skipped here).
    ...(stats.subtitles
      ? {
          subtitles: {
            withText: kept.filter((s) => s.metadata.subtitles === true).length,
            missing: kept.filter((s) => s.metadata.subtitles === false).length,
          },
        }
      : {}),
    // ParaVT parquet (SPEC §6): row kinds, SFT rows kept, and the video paths per sentinel root.
    ...(stats.parquet ? { parquet: stats.parquet } : {}),
    warnings: stats.warnings,
    skippedRows: skipped.slice(0, SKIPPED_ROWS_KEPT),
    importedAt: new Date().toISOString(),
  };
  const previous = (dataset.source ?? {}) as Record<string, unknown>;
  await db().dataset.update({
    where: { id: datasetId },
    data: {
      source: { ...previous, ...src, split: result.split, report } as unknown as Prisma.InputJsonValue,
    },
  });
  return `${kept.length} samples, ${skipped.length} skipped, ${distinct.length} videos (${newVideos} new)`;
}

function countBy<T>(items: readonly T[], keyOf: (item: T) => string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const k = keyOf(item);
    if (k !== null) out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

/** One sample as written: the columns of `samples` that an import sets. */
interface SampleRow {
  key: string;
  videoId: string | null;
  question: string;
  options: string[] | null;
  answer: string;
  questionType: string;
  metadata: Record<string, unknown>;
}

/**
 * Inserts or updates one batch of samples by (dataset, key) in ONE statement: the rows travel as
 * one JSON parameter (`jsonb_to_recordset`), not one upsert each. A row equal to the stored one is
 * not written again, so a retried or resumed import skips what an earlier attempt stored and a
 * repeated import of the same copy changes nothing. A key repeated within the batch keeps its
 * last row (one statement may not update a row twice), as consecutive upserts did.
 */
async function upsertSamples(datasetId: string, rows: readonly SampleRow[]): Promise<void> {
  const unique = [...new Map(rows.map((r) => [r.key, r])).values()];
  await db().$executeRaw`
    INSERT INTO samples AS s (id, dataset_id, key, video_id, question, options, answer, question_type, metadata)
    SELECT gen_random_uuid()::text, ${datasetId}::text, r.key, r."videoId", r.question, r.options, r.answer,
      r."questionType"::"QuestionType", r.metadata
    FROM jsonb_to_recordset(${JSON.stringify(unique)}::jsonb) AS r(key text, "videoId" text, question text,
      options jsonb, answer text, "questionType" text, metadata jsonb)
    ON CONFLICT (dataset_id, key) DO UPDATE SET video_id = EXCLUDED.video_id, question = EXCLUDED.question,
      options = EXCLUDED.options, answer = EXCLUDED.answer, question_type = EXCLUDED.question_type,
      metadata = EXCLUDED.metadata
    WHERE (s.video_id, s.question, s.options, s.answer, s.question_type, s.metadata)
      IS DISTINCT FROM (EXCLUDED.video_id, EXCLUDED.question, EXCLUDED.options, EXCLUDED.answer,
        EXCLUDED.question_type, EXCLUDED.metadata)`;
}
