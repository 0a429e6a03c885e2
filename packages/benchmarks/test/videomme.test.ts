import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BenchmarkError, loadBenchmark, SampleSchema } from "../src/index";
import { reasons, tempDir, touchVideos, write, writeParquet, type Column } from "./helpers";

interface Row {
  video_id: string;
  duration: string;
  videoID: string;
  question_id: string;
  task_type: string;
  question: string;
  options: string[] | null;
  answer: string;
}

const L = (...o: string[]) => o.map((t, i) => `${"ABCD"[i]}. ${t}`);
const ROWS: Row[] = [
  {
    video_id: "001",
    duration: "short",
    videoID: "vidA",
    question_id: "001-1",
    task_type: "Counting Problem",
    question: "How many cats appear?",
    options: L("one", "two", "three", "four"),
    answer: "C",
  },
  {
    video_id: "001",
    duration: "short",
    videoID: "vidA",
    question_id: "001-2",
    task_type: "Object Recognition",
    question: "What is red?",
    options: L("car", "hat", "door", "cup"),
    answer: "A",
  },
  {
    video_id: "002",
    duration: "medium",
    videoID: "vidB",
    question_id: "002-1",
    task_type: "OCR Problems",
    question: "What does the sign say?",
    options: L("stop", "go", "wait", "exit"),
    answer: "D",
  },
  // options published without their letters are accepted
  {
    video_id: "003",
    duration: "long",
    videoID: "vidC",
    question_id: "003-1",
    task_type: "Temporal Reasoning",
    question: "What happens first?",
    options: ["x", "y", "z", "w"],
    answer: "B",
  },
  {
    video_id: "004",
    duration: "long",
    videoID: "vidMissing",
    question_id: "004-1",
    task_type: "t",
    question: "q?",
    options: L("a", "b", "c", "d"),
    answer: "A",
  },
  {
    video_id: "001",
    duration: "short",
    videoID: "vidA",
    question_id: "001-3",
    task_type: "t",
    question: "q?",
    options: ["A. only one"],
    answer: "A",
  },
  {
    video_id: "001",
    duration: "short",
    videoID: "vidA",
    question_id: "001-4",
    task_type: "t",
    question: "q?",
    options: L("a", "b", "c", "d"),
    answer: "E",
  },
  {
    video_id: "002",
    duration: "medium",
    videoID: "vidB",
    question_id: "002-2",
    task_type: "t",
    question: "",
    options: L("a", "b", "c", "d"),
    answer: "A",
  },
  {
    video_id: "002",
    duration: "huge",
    videoID: "vidB",
    question_id: "002-3",
    task_type: "t",
    question: "q?",
    options: L("a", "b", "c", "d"),
    answer: "A",
  },
  {
    video_id: "001",
    duration: "short",
    videoID: "vidA",
    question_id: "001-1",
    task_type: "t",
    question: "again?",
    options: L("a", "b", "c", "d"),
    answer: "A",
  },
  {
    video_id: "002",
    duration: "medium",
    videoID: "vidB",
    question_id: "002-4",
    task_type: "t",
    question: "q?",
    options: ["B. x", "A. y"],
    answer: "A",
  },
];

function columns(rows: readonly Row[]): Column[] {
  const col = (name: keyof Row, kind: Column["kind"] = "string"): Column => ({
    name,
    kind,
    data: rows.map((r) => r[name]),
  });
  return [
    col("video_id"),
    col("duration"),
    { name: "domain", kind: "string", data: rows.map(() => "Knowledge") },
    { name: "sub_category", kind: "string", data: rows.map(() => "Humanity & History") },
    { name: "url", kind: "string", data: rows.map((r) => `https://www.youtube.com/watch?v=${r.videoID}`) },
    col("videoID"),
    col("question_id"),
    col("task_type"),
    col("question"),
    col("options", "strings"),
    col("answer"),
  ];
}

const SRT_A = `1
00:00:01,000 --> 00:00:02,500
<font color="white" size=".72c">hello there</font>

2
00:00:03,000 --> 00:00:04,000
<font color="white" size=".72c">general kenobi</font>
`;

async function fixture(videoFolder = "data"): Promise<string> {
  const dir = await tempDir();
  await writeParquet(dir, "videomme/test-00000-of-00001.parquet", columns(ROWS));
  await touchVideos(
    dir,
    ["vidA", "vidB", "vidC"].map((v) => `${videoFolder}/${v}.mp4`),
  );
  await write(dir, "subtitle/vidA.srt", SRT_A);
  await write(dir, "subtitle/vidC.srt", "1\n00:00:00,000 --> 00:00:01,000\nfirst line\n");
  return dir;
}

describe("VideoMME loader", () => {
  it("loads good rows and reports every skipped row with its reason", async () => {
    const dir = await fixture();
    const res = await loadBenchmark({ benchmark: "videomme", dir });
    expect(res.split).toBe("test");
    expect(res.samples.map((s) => s.key)).toEqual(["001-1", "001-2", "002-1", "003-1"]);
    const first = res.samples[0]!;
    expect(first).toMatchObject({
      benchmark: "videomme",
      videoPath: join(dir, "data", "vidA.mp4"),
      question: "How many cats appear?\nA. one\nB. two\nC. three\nD. four",
      options: ["one", "two", "three", "four"],
      answer: "C",
      questionType: "mcq",
      metadata: { durationCategory: "short", taskType: "Counting Problem", videoId: "001", youtubeId: "vidA" },
    });
    expect(res.samples[3]!.question).toBe("What happens first?\nA. x\nB. y\nC. z\nD. w");
    for (const s of res.samples) expect(SampleSchema.safeParse(s).success).toBe(true);

    expect(reasons(res.skipped)).toEqual({
      missing_video: 1,
      malformed_options: 2,
      unknown_answer: 1,
      missing_field: 1,
      invalid_field: 1,
      duplicate_key: 1,
    });
    const byKey = Object.fromEntries(res.skipped.map((s) => [`${s.key}@${s.row}`, s.reason]));
    expect(byKey).toMatchObject({
      "004-1@5": "missing_video",
      "001-3@6": "malformed_options",
      "001-4@7": "unknown_answer",
      "002-2@8": "missing_field",
      "002-3@9": "invalid_field",
      "001-1@10": "duplicate_key",
      "002-4@11": "malformed_options",
    });
    expect(res.skipped.every((s) => s.file === join("videomme", "test-00000-of-00001.parquet"))).toBe(true);
    expect(res.stats).toMatchObject({
      rows: ROWS.length,
      loaded: 4,
      skipped: 7,
      byDurationCategory: { short: 2, medium: 1, long: 1 },
      byQuestionType: { mcq: 4 },
      videos: 3,
      variant: "parquet (1 file)",
      videoDir: join(dir, "data"),
    });
    expect(res.stats.subtitles).toBeUndefined();
  });

  it("with subtitles: prefixes the SRT text, keeps the keys, and counts videos without an SRT", async () => {
    const dir = await fixture();
    const plain = await loadBenchmark({ benchmark: "videomme", dir });
    const subs = await loadBenchmark({ benchmark: "videomme", dir, subtitles: true });
    expect(subs.split).toBe("test_subtitles");
    expect(subs.samples.map((s) => s.key)).toEqual(plain.samples.map((s) => s.key));
    const [a1, , b1, c1] = subs.samples;
    expect(a1!.question).toBe(
      `This video's subtitles are listed below:\nhello there\ngeneral kenobi\n${plain.samples[0]!.question}`,
    );
    expect(a1!.metadata).toMatchObject({ subtitles: true, subtitleFile: join("subtitle", "vidA.srt") });
    expect(b1!.question).toBe(plain.samples[2]!.question);
    expect(b1!.metadata.subtitles).toBe(false);
    expect(c1!.question.startsWith("This video's subtitles are listed below:\nfirst line\n")).toBe(true);
    expect(subs.stats.subtitles).toEqual({ withText: 3, missing: 1 });
    // the split name alone selects the same variant
    const bySplit = await loadBenchmark({ benchmark: "videomme", dir, split: "test_subtitles" });
    expect(bySplit.samples).toEqual(subs.samples);
  });

  it("accepts videos in video/ and shards in the directory itself", async () => {
    const dir = await tempDir();
    await writeParquet(dir, "test-00000-of-00002.parquet", columns(ROWS.slice(0, 2)));
    await writeParquet(dir, "test-00001-of-00002.parquet", columns(ROWS.slice(2, 4)));
    await touchVideos(dir, ["video/vidA.mp4", "video/vidB.mkv", "video/vidC.mp4"]);
    const res = await loadBenchmark({ benchmark: "videomme", dir });
    expect(res.samples.map((s) => s.key)).toEqual(["001-1", "001-2", "002-1", "003-1"]);
    expect(res.samples[2]!.videoPath).toBe(join(dir, "video", "vidB.mkv"));
    expect(res.stats.files).toEqual(["test-00000-of-00002.parquet", "test-00001-of-00002.parquet"]);
    expect(res.stats.variant).toBe("parquet (2 files)");
  });

  it("uses an explicit video directory", async () => {
    const dir = await fixture();
    const elsewhere = await tempDir();
    await touchVideos(elsewhere, ["vidA.mp4"]);
    const res = await loadBenchmark({ benchmark: "videomme", dir, videoDir: elsewhere });
    expect(res.samples.map((s) => s.key)).toEqual(["001-1", "001-2"]);
    expect(res.samples[0]!.videoPath).toBe(join(elsewhere, "vidA.mp4"));
  });

  it("fails clearly on a missing annotation file, missing subtitles folder or corrupt parquet", async () => {
    const empty = await tempDir();
    await expect(loadBenchmark({ benchmark: "videomme", dir: empty })).rejects.toThrow(
      /Video-MME annotations not found .*videomme\/test-00000-of-00001\.parquet/,
    );
    const noSubs = await tempDir();
    await writeParquet(noSubs, "videomme/test-00000-of-00001.parquet", columns(ROWS.slice(0, 1)));
    await expect(loadBenchmark({ benchmark: "videomme", dir: noSubs, subtitles: true })).rejects.toThrow(/subtitle\//);
    const corrupt = await tempDir();
    await write(corrupt, "videomme/test-00000-of-00001.parquet", "PAR1 this is not parquet");
    const err = await loadBenchmark({ benchmark: "videomme", dir: corrupt }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BenchmarkError);
    expect((err as BenchmarkError).kind).toBe("file");
    expect((err as BenchmarkError).file).toBe(join("videomme", "test-00000-of-00001.parquet"));
    expect((err as Error).message).toMatch(/not a readable parquet file/);
    const otherRelease = await tempDir();
    await writeParquet(
      otherRelease,
      "videomme/test-00000-of-00001.parquet",
      columns(ROWS.slice(0, 1)).filter((c) => c.name !== "question_id"),
    );
    await expect(loadBenchmark({ benchmark: "videomme", dir: otherRelease })).rejects.toThrow(
      /test-00000-of-00001\.parquet: missing column\(s\) question_id/,
    );
  });
});
