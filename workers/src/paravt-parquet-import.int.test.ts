// ParaVT parquet imports (SPEC §6) through the job system: `datasets.importBenchmark` with
// benchmark "paravt-parquet" -> dataset.import on a real worker -> Postgres. RL rows whose sentinel
// paths (`longvt_source/…`, `museg/…`, `selfqa/…`) resolve under the media root become samples;
// a missing video, an unknown path shape and a symlink leaving MEDIA_ROOTS are skipped with their
// reasons; the report keeps the per-root path counts; a re-import updates and duplicates nothing.
// SFT rows without a label are reported, not imported. Parquet files are written by the test.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { datasets, db, queue, runs } from "@paravt/shared/server";
import { generateTestVideo } from "@paravt/video";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PRESENT_VIDEOS,
  SYSTEM_TURN,
  userTurn,
  writeRlParquet,
  writeSftParquet,
  type RlFixtureRow,
} from "../../packages/benchmarks/test/paravt-parquet-fixtures";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { importReportOf, projectWithOwnerAccess } from "./test-fixtures";
import { waitForRun, waitForVideoSettled } from "./test-support";

const mediaRoot = path.join(os.tmpdir(), `paravt-pq-media-${process.pid}`);
const outside = path.join(os.tmpdir(), `paravt-pq-outside-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-pq-${process.pid}`;
process.env.MEDIA_ROOTS = mediaRoot;

const MCQ = "What does the man pick up?\nA. a cup\nB. a phone\nAnswer with the option's letter.";

function rlRows(mcqQuestion = MCQ): RlFixtureRow[] {
  const extra = (answer: string, question_type: string) => JSON.stringify({ answer, question_type });
  return [
    {
      id: "lv-1",
      prompt: [SYSTEM_TURN, userTurn(mcqQuestion)],
      videos: [{ video: "longvt_source/yt/abc.mp4" }],
      extra_info: extra("B", "mcq"),
    },
    {
      id: "ch-1",
      prompt: [userTurn("When does the door open?")],
      videos: [{ video: "museg/charades/AB12C.mp4" }],
      extra_info: extra("[0.5, 1.5]", "tvg"),
    },
    {
      id: "et-1",
      prompt: [userTurn("What is cooked?")],
      videos: [{ video: "museg/et_instruct_164k/clip 7.mp4" }],
      extra_info: extra("an omelette", "oe"),
    },
    {
      id: "sq-1",
      prompt: [userTurn("Is it day?")],
      videos: [{ video: "selfqa/q/001.mp4" }],
      extra_info: extra("yes", "oe"),
    },
    {
      id: "lv-missing",
      prompt: [userTurn("Where?")],
      videos: [{ video: "longvt_source/yt/gone.mp4" }],
      extra_info: extra("here", "oe"),
    },
    {
      id: "odd",
      prompt: [userTurn("What?")],
      videos: [{ video: "clips/elsewhere.mp4" }],
      extra_info: extra("that", "oe"),
    },
    {
      id: "escape",
      prompt: [userTurn("Out?")],
      videos: [{ video: "selfqa/q/link.mp4" }],
      extra_info: extra("no", "oe"),
    },
  ];
}

let workers: RunningWorkers;
let rlFile: string;

beforeAll(async () => {
  const first = path.join(mediaRoot, PRESENT_VIDEOS[0]);
  await generateTestVideo(first, { durationS: 2, width: 64, height: 48, fps: 10, keyframeIntervalS: 1 });
  for (const rel of PRESENT_VIDEOS.slice(1)) {
    await fs.mkdir(path.dirname(path.join(mediaRoot, rel)), { recursive: true });
    await fs.copyFile(first, path.join(mediaRoot, rel));
  }
  await fs.mkdir(outside, { recursive: true });
  await fs.writeFile(path.join(outside, "out.mp4"), "not inside the media roots");
  await fs.symlink(path.join(outside, "out.mp4"), path.join(mediaRoot, "selfqa/q/link.mp4"));
  rlFile = await writeRlParquet(path.join(mediaRoot, "train.parquet"), rlRows(), "string");
  workers = startWorkers({ queues: ["cpu"], concurrency: 2, quiet: true });
}, 120_000);

afterAll(async () => {
  await workers.close();
  await queue("cpu").obliterate({ force: true });
  await fs.rm(mediaRoot, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

describe("ParaVT parquet import (dataset.import, benchmark paravt-parquet)", () => {
  it(
    "imports RL rows with sentinel paths, reports skips per root, and a re-import duplicates nothing",
    { timeout: 120_000 },
    async () => {
      const { fx, access } = await projectWithOwnerAccess();
      const { dataset, runId } = await datasets.importBenchmark(access, {
        name: "LongVT RL",
        benchmark: "paravt-parquet",
        path: rlFile,
        videoDir: mediaRoot,
        subtitles: false,
      });
      const run = await waitForRun(runId);
      expect(run.error).toBeNull();
      expect(run.message).toBe("4 samples, 3 skipped, 4 videos (4 new)");

      const samples = await db().sample.findMany({
        where: { datasetId: dataset.id },
        include: { video: true },
        orderBy: { key: "asc" },
      });
      expect(samples.map((s) => [s.key, s.questionType, s.answer])).toEqual([
        ["ch-1", "tvg", "0.5-1.5"],
        ["et-1", "oe", "an omelette"],
        ["lv-1", "mcq", "B"],
        ["sq-1", "oe", "yes"],
      ]);
      const lv = samples[2]!;
      expect(lv.question).toBe(MCQ);
      expect(lv.options).toEqual(["a cup", "a phone"]);
      expect(lv.metadata).toMatchObject({
        benchmark: "paravt-parquet",
        split: "train",
        rowKind: "rl",
        root: "longvt_source",
        videoRef: "longvt_source/yt/abc.mp4",
      });
      expect(lv.video?.path).toBe(await fs.realpath(path.join(mediaRoot, "longvt_source/yt/abc.mp4")));
      expect(samples[0]!.metadata).toMatchObject({ span: [0.5, 1.5], answerText: "[0.5, 1.5]" });

      const report = await importReportOf(dataset.id);
      expect(report).toMatchObject({ rows: 7, loaded: 4, skipped: 3, videos: 4, newVideos: 4, variant: "RL rows" });
      expect(report.byReason).toEqual({ missing_video: 1, bad_video_path: 1, outside_media_roots: 1 });
      expect(report.skippedRows.map((r) => [r.key, r.reason])).toEqual([
        ["lv-missing", "missing_video"],
        ["odd", "bad_video_path"],
        ["escape", "outside_media_roots"],
      ]);
      expect(report.skippedRows[0]!.detail).toMatch(/^longvt_source: no file .*longvt_source\/yt\/gone\.mp4/);
      expect(report.skippedRows[2]!.detail).toMatch(/symbolic link/);
      const roots = Object.fromEntries(report.parquet!.paths.roots.map((r) => [r.root, r]));
      expect(roots.longvt_source).toMatchObject({ references: 2, files: 2, missing: 1 });
      expect(roots.longvt_source!.missingExamples).toEqual(["longvt_source/yt/gone.mp4"]);
      expect(roots.selfqa).toMatchObject({ references: 2, files: 2, missing: 0 });
      expect(roots["museg/charades"]).toMatchObject({ references: 1, missing: 0 });
      expect(report.parquet!.paths.unknownShape).toMatchObject({ references: 1 });
      expect(report.parquet!.rowKinds).toEqual({ rl: 7, sft: 0, other: 0 });
      expect(report.warnings).toEqual([
        expect.stringMatching(/^longvt_source: 1 of 2 file\(s\) missing/),
        expect.stringMatching(/^unknown shape: 1 path\(s\)/),
      ]);

      // The registered videos go through the usual probe (real H.264, so they become READY).
      expect((await waitForVideoSettled(lv.videoId!)).status).toBe("READY");

      // The file changes (a corrected question): re-importing updates in place, adds nothing.
      await writeRlParquet(rlFile, rlRows(MCQ.replace("the man", "the woman")), "string");
      const again = await datasets.reimportBenchmark(access, dataset.id);
      expect((await waitForRun(again.runId)).message).toBe("4 samples, 3 skipped, 4 videos (0 new)");
      expect(await db().sample.count({ where: { datasetId: dataset.id } })).toBe(4);
      expect(await db().video.count({ where: { projectId: fx.project.id } })).toBe(4);
      const updated = await db().sample.findUniqueOrThrow({
        where: { datasetId_key: { datasetId: dataset.id, key: "lv-1" } },
      });
      expect(updated.id).toBe(lv.id);
      expect(updated.question).toMatch(/^What does the woman pick up\?/);
      expect((await importReportOf(dataset.id)).newVideos).toBe(0);
    },
  );

  it("imports labeled SFT rows and reports the unlabeled ones", { timeout: 60_000 }, async () => {
    const { access } = await projectWithOwnerAccess();
    const file = await writeSftParquet(path.join(mediaRoot, "sft", "sft.parquet"), [
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "video_url", video_url: { url: "selfqa/q/001.mp4" } },
              { type: "text", text: "Is it day?" },
            ],
          },
          { role: "assistant", content: [{ type: "text", text: "<answer>yes</answer>" }] },
        ],
        videos: ["selfqa/q/001.mp4"],
        extra_info: JSON.stringify({ answer: "yes", question_type: "oe", index: 3 }),
      },
      {
        messages: [
          { role: "user", content: [{ type: "text", text: "<video>\nWhat happens?" }] },
          { role: "assistant", content: [{ type: "text", text: "<answer>a car passes</answer>" }] },
        ],
        videos: ["selfqa/q/001.mp4"],
      },
    ]);
    const { dataset, runId } = await datasets.importBenchmark(access, {
      name: "LongVT SFT",
      benchmark: "paravt-parquet",
      path: file,
      videoDir: mediaRoot,
      split: "sft",
      subtitles: false,
    });
    expect((await waitForRun(runId)).message).toBe("1 samples, 1 skipped, 1 videos (1 new)");
    const samples = await db().sample.findMany({ where: { datasetId: dataset.id } });
    expect(samples.map((s) => [s.key, s.question, s.answer])).toEqual([["3", "Is it day?", "yes"]]);
    expect(samples[0]!.metadata).toMatchObject({ rowKind: "sft", split: "sft" });
    const report = await importReportOf(dataset.id);
    expect(report.byReason).toEqual({ unlabeled_sft_row: 1 });
    expect(report.parquet).toMatchObject({ rowKinds: { rl: 0, sft: 2, other: 0 }, sft: { rows: 2, imported: 1 } });
  });

  it("refuses a parquet path outside the media roots or a directory, before creating anything", async () => {
    const { fx, access } = await projectWithOwnerAccess();
    const input = { name: "x", benchmark: "paravt-parquet" as const, subtitles: false };
    const foreign = path.join(outside, "rl.parquet");
    await writeRlParquet(foreign, rlRows(), "string");
    await expect(datasets.importBenchmark(access, { ...input, path: foreign })).rejects.toThrow(
      /outside the media roots/,
    );
    await expect(datasets.importBenchmark(access, { ...input, path: mediaRoot })).rejects.toThrow(
      /is not a regular file/,
    );
    await expect(datasets.importBenchmark(access, { ...input, path: rlFile, videoDir: outside })).rejects.toThrow(
      /outside the media roots/,
    );
    expect(await db().dataset.count({ where: { projectId: fx.project.id } })).toBe(0);
    expect(await runs.listRuns(access, { limit: 10 })).toHaveLength(0);
  });
});
