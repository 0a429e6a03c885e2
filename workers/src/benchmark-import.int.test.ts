// Benchmark imports through the job system (dataset.import with kind "benchmark"): a tiny
// VideoMME-layout directory (real parquet with LIST columns, real H.264 videos so probing
// succeeds) becomes a dataset with samples and a report of the skipped rows; a re-import updates
// and duplicates nothing; paths outside MEDIA_ROOTS are refused, directly or through a symlink.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parquetWriteFile } from "hyparquet-writer";
import { datasets, db, queue, runs } from "@paravt/shared/server";
import { generateTestVideo } from "@paravt/video";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { importReportOf, projectWithOwnerAccess } from "./test-fixtures";
import { waitForRun, waitForVideoSettled } from "./test-support";

const mediaRoot = path.join(os.tmpdir(), `paravt-bench-media-${process.pid}`);
const outside = path.join(os.tmpdir(), `paravt-bench-outside-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-bench-${process.pid}`;
process.env.MEDIA_ROOTS = mediaRoot;

interface Row {
  question_id: string;
  videoID: string;
  duration: string;
  question: string;
  options: string[];
  answer: string;
}
const L = (...o: string[]) => o.map((t, i) => `${"ABCD"[i]}. ${t}`);
const row = (id: string, video: string, duration: string, question: string, answer = "A"): Row => ({
  question_id: id,
  videoID: video,
  duration,
  question,
  options: L("red", "green", "blue", "black"),
  answer,
});

type SchemaElement = Parameters<typeof parquetWriteFile>[0]["schema"] extends (infer E)[] | undefined ? E : never;

/** The Hugging Face export's shape: string columns plus `options` as a 3-level LIST column. */
async function writeVideoMmeParquet(dir: string, rows: readonly Row[]): Promise<void> {
  const file = path.join(dir, "videomme", "test-00000-of-00001.parquet");
  await fs.mkdir(path.dirname(file), { recursive: true });
  const str = (name: string): SchemaElement => ({
    name,
    type: "BYTE_ARRAY",
    converted_type: "UTF8",
    repetition_type: "OPTIONAL",
  });
  const scalar = ["question_id", "videoID", "duration", "question", "answer"] as const;
  parquetWriteFile({
    filename: file,
    schema: [
      { name: "root", num_children: scalar.length + 1 },
      ...scalar.map(str),
      { name: "options", repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
      { name: "list", repetition_type: "REPEATED", num_children: 1 },
      str("element"),
    ],
    columnData: [
      ...scalar.map((name) => ({ name, data: rows.map((r) => r[name]) })),
      { name: "options", data: rows.map((r) => r.options) },
    ] as never,
  });
}

const ROWS: Row[] = [
  row("001-1", "vidA", "short", "What colour is the square?"),
  row("001-2", "vidA", "short", "What colour is the background?", "B"),
  row("002-1", "vidB", "medium", "What moves first?", "C"),
  row("003-1", "vidMissing", "long", "Not there?"),
  row("001-3", "vidA", "short", "Fifth option?", "E"),
  row("001-1", "vidA", "short", "Same key again?"),
  row("004-1", "vidOut", "long", "A symlink that leaves the media roots?"),
];

let workers: RunningWorkers;
let benchDir: string;

beforeAll(async () => {
  benchDir = path.join(mediaRoot, "Video-MME");
  const video = { durationS: 2, width: 64, height: 48, fps: 10, keyframeIntervalS: 1 };
  await generateTestVideo(path.join(benchDir, "data", "vidA.mp4"), video);
  await generateTestVideo(path.join(benchDir, "data", "vidB.mp4"), video);
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(outside, "vidOut.mp4"), "not inside the media roots");
  await fs.symlink(path.join(outside, "vidOut.mp4"), path.join(benchDir, "data", "vidOut.mp4"));
  await fs.mkdir(path.join(benchDir, "subtitle"));
  await fs.writeFile(
    path.join(benchDir, "subtitle", "vidA.srt"),
    "1\n00:00:00,000 --> 00:00:01,000\n<font color=white>a red square</font>\n",
  );
  await writeVideoMmeParquet(benchDir, ROWS);
  workers = startWorkers({ queues: ["cpu"], concurrency: 2, quiet: true });
}, 120_000);

afterAll(async () => {
  await workers.close();
  await queue("cpu").obliterate({ force: true });
  await fs.rm(mediaRoot, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

describe("benchmark import (dataset.import, kind benchmark)", () => {
  it(
    "imports a VideoMME copy with its skip report, probes the videos, and a re-import updates without duplicating",
    { timeout: 120_000 },
    async () => {
      const { fx, access } = await projectWithOwnerAccess();
      const { dataset, runId } = await datasets.importBenchmark(access, {
        name: "Video-MME local",
        benchmark: "videomme",
        path: benchDir,
        subtitles: false,
      });
      const run = await waitForRun(runId);
      expect(run.error).toBeNull();
      expect(run.message).toBe("3 samples, 4 skipped, 2 videos (2 new)");

      const samples = await db().sample.findMany({
        where: { datasetId: dataset.id },
        include: { video: true },
        orderBy: { key: "asc" },
      });
      expect(samples.map((s) => s.key)).toEqual(["001-1", "001-2", "002-1"]);
      const first = samples[0]!;
      expect(first.question).toBe("What colour is the square?\nA. red\nB. green\nC. blue\nD. black");
      expect(first.options).toEqual(["red", "green", "blue", "black"]);
      expect(samples.map((s) => s.answer)).toEqual(["A", "B", "C"]);
      expect(first.metadata).toMatchObject({ split: "test", durationCategory: "short", benchmark: "videomme" });
      expect(samples[2]!.metadata).toMatchObject({ durationCategory: "medium" });
      expect(first.video?.path).toBe(await fs.realpath(path.join(benchDir, "data", "vidA.mp4")));
      expect(first.video?.source).toBe("PATH");
      expect(samples[1]!.videoId).toBe(first.videoId);

      const report = await importReportOf(dataset.id);
      expect(report).toMatchObject({ rows: 7, loaded: 3, skipped: 4, videos: 2, newVideos: 2 });
      expect(report.byReason).toEqual({
        missing_video: 1,
        unknown_answer: 1,
        duplicate_key: 1,
        outside_media_roots: 1,
      });
      expect(report.byDurationCategory).toEqual({ short: 2, medium: 1 });
      expect(report.skippedRows.map((r) => [r.key, r.reason])).toEqual(
        expect.arrayContaining([
          ["003-1", "missing_video"],
          ["001-3", "unknown_answer"],
          ["001-1", "duplicate_key"],
          ["004-1", "outside_media_roots"],
        ]),
      );
      expect(report.skippedRows.find((r) => r.key === "004-1")!.detail).toMatch(/symbolic link/);
      expect(report.files).toEqual(["videomme/test-00000-of-00001.parquet"]);

      // The registered videos are probed by the usual jobs (real H.264, so they become READY).
      const ready = await waitForVideoSettled(first.videoId!);
      expect(ready.status).toBe("READY");
      expect(ready.durationS).toBeCloseTo(2, 0);

      // The published file changes (a corrected question): re-importing updates it in place.
      await writeVideoMmeParquet(benchDir, [
        { ...ROWS[0]!, question: "Which colour is the square?" },
        ...ROWS.slice(1),
      ]);
      const again = await datasets.reimportBenchmark(access, dataset.id);
      const r2 = await waitForRun(again.runId);
      expect(r2.message).toBe("3 samples, 4 skipped, 2 videos (0 new)");
      expect(await db().sample.count({ where: { datasetId: dataset.id } })).toBe(3);
      expect(await db().video.count({ where: { projectId: fx.project.id } })).toBe(2);
      const updated = await db().sample.findUniqueOrThrow({
        where: { datasetId_key: { datasetId: dataset.id, key: "001-1" } },
      });
      expect(updated.id).toBe(first.id);
      expect(updated.question).toMatch(/^Which colour is the square\?\n/);
      expect((await importReportOf(dataset.id)).newVideos).toBe(0);

      // The subtitle variant into a second dataset: same videos, the SRT text in the question.
      const subs = await datasets.importBenchmark(access, {
        name: "Video-MME local (subtitles)",
        benchmark: "videomme",
        path: benchDir,
        subtitles: true,
      });
      expect((await waitForRun(subs.runId)).message).toBe("3 samples, 4 skipped, 2 videos (0 new)");
      const withSubs = await db().sample.findMany({ where: { datasetId: subs.dataset.id }, orderBy: { key: "asc" } });
      expect(withSubs[0]!.question).toMatch(/^This video's subtitles are listed below:\na red square\n/);
      expect(withSubs[0]!.metadata).toMatchObject({ split: "test_subtitles", subtitles: true });
      // vidB has no SRT: its question stays plain and metadata.subtitles is not text (the eval
      // knob `subtitles` only prefixes a string, so nothing is prefixed twice).
      expect(withSubs[2]!.question).toMatch(/^What moves first\?/);
      expect(withSubs[2]!.metadata).toMatchObject({ subtitles: false });
      expect((await importReportOf(subs.dataset.id)).subtitles).toEqual({ withText: 2, missing: 1 });
    },
  );

  it("refuses a directory outside the media roots, directly or through a symlink, before creating anything", async () => {
    const { fx, access } = await projectWithOwnerAccess();
    const input = { name: "x", benchmark: "videomme" as const, subtitles: false };
    await expect(datasets.importBenchmark(access, { ...input, path: outside })).rejects.toThrow(
      /outside the media roots/,
    );
    const link = path.join(mediaRoot, `escape-${fx.project.id}`);
    await fs.symlink(outside, link);
    await expect(datasets.importBenchmark(access, { ...input, path: link })).rejects.toThrow(/symbolic link/);
    await expect(datasets.importBenchmark(access, { ...input, path: benchDir, videoDir: outside })).rejects.toThrow(
      /outside the media roots/,
    );
    await expect(datasets.importBenchmark(access, { ...input, path: benchDir, split: "train" })).rejects.toThrow(
      /has no split "train"/,
    );
    expect(await db().dataset.count({ where: { projectId: fx.project.id } })).toBe(0);
    expect(await runs.listRuns(access, { limit: 10 })).toHaveLength(0);
  });

  it("fails an import whose directory lacks the published layout with what was looked for, once", async () => {
    const { fx, access } = await projectWithOwnerAccess();
    const empty = path.join(mediaRoot, `empty-${fx.project.id}`);
    await fs.mkdir(empty);
    const { dataset, runId } = await datasets.importBenchmark(access, {
      name: "empty",
      benchmark: "lvbench",
      path: empty,
      subtitles: false,
    });
    const run = await waitForRun(runId);
    expect(run.status).toBe("FAILED");
    expect(run.attempts).toBe(1);
    expect(run.error).toMatch(/video_info\.meta\.jsonl/);
    expect(await db().sample.count({ where: { datasetId: dataset.id } })).toBe(0);
  });
});
