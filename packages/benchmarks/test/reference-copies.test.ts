// The benchmark copies lmms-eval and the reference evaluator download, each in a tiny copy of its
// real column layout. The layouts are read from the readers, not guessed:
// - paravt/eval/utils.py::load_samples (github EvolvingLMMs-Lab/ParaVT, lines 227-461): the columns
//   each benchmark reads and the row id it writes;
// - lmms-eval tasks (a copy in ParaVT at paravt/eval/lmms-eval/lmms_eval/tasks/): longvideobench/utils.py
//   (option0..option4, "N/A"), lvbench/utils.py (uid, video_path, question, answer, options),
//   mlvu/utils.py (video_name, question, task_type, answer), charades_sta/utils.py (video, caption,
//   timestamp; key f"{video}>>>{caption}>>>{timestamp}").
// Parquet files are written with hyparquet-writer: LIST columns in the 3-level layout, INT64 as bigint.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBenchmark, pyListRepr } from "../src/index";
import { reasons, tempDir, touchVideos, write, writeParquet } from "./helpers";

describe("LongVideoBench validation parquet (longvideobench/LongVideoBench)", () => {
  it("reads option0..option4, drops N/A and empty options as the reference does, keys by id", async () => {
    const dir = await tempDir();
    const rows = [
      { id: "86CxyhFV9MI_0", vid: "86CxyhFV9MI", opts: ["red", "green", "blue", "black", "N/A"], correct: 2 },
      { id: "86CxyhFV9MI_1", vid: "86CxyhFV9MI", opts: ["a", "b", "c", "d", "e"], correct: 4 },
      { id: "xyz_0", vid: "xyz", opts: ["yes", "no", "", "N/A", "N/A"], correct: 1 },
      { id: "xyz_1", vid: "xyz", opts: ["yes", "no", "N/A", "N/A", "N/A"], correct: 3 }, // past the kept options
    ];
    await writeParquet(dir, "validation-00000-of-00001.parquet", [
      { name: "video_id", kind: "string", data: rows.map((r) => r.vid) },
      { name: "question", kind: "string", data: rows.map((r) => `What colour? (${r.id})`) },
      { name: "question_wo_referring_query", kind: "string", data: rows.map(() => "What colour?") },
      ...[0, 1, 2, 3, 4].map((i) => ({
        name: `option${i}`,
        kind: "string" as const,
        data: rows.map((r) => r.opts[i]),
      })),
      { name: "correct_choice", kind: "int64", data: rows.map((r) => r.correct) },
      { name: "position", kind: "strings", data: rows.map(() => ["12"]) },
      { name: "subtitle_path", kind: "string", data: rows.map((r) => `${r.vid}_en.json`) },
      { name: "duration_group", kind: "int64", data: rows.map(() => 600) },
      { name: "starting_timestamp_for_subtitles", kind: "double", data: rows.map(() => 0) },
      { name: "duration", kind: "double", data: rows.map(() => 512.5) },
      { name: "view_count", kind: "int64", data: rows.map(() => 1000) },
      { name: "video_path", kind: "string", data: rows.map((r) => `${r.vid}.mp4`) },
      { name: "topic_category", kind: "string", data: rows.map(() => "KA-Knowledge-Art") },
      { name: "question_category", kind: "string", data: rows.map(() => "S2E") },
      { name: "level", kind: "string", data: rows.map(() => "L1-Perception") },
      { name: "id", kind: "string", data: rows.map((r) => r.id) },
    ]);
    await touchVideos(dir, ["videos/86CxyhFV9MI.mp4", "videos/xyz.mp4"]);
    const res = await loadBenchmark({ benchmark: "longvideobench", dir });
    expect(res.stats.variant).toBe("parquet (option0..option4)");
    expect(res.samples.map((s) => [s.key, s.options, s.answer, s.metadata.referenceId])).toEqual([
      ["86CxyhFV9MI_0", ["red", "green", "blue", "black"], "C", "86CxyhFV9MI_0"],
      ["86CxyhFV9MI_1", ["a", "b", "c", "d", "e"], "E", "86CxyhFV9MI_1"],
      ["xyz_0", ["yes", "no"], "B", "xyz_0"],
    ]);
    expect(res.samples[0]!.question).toBe("What colour? (86CxyhFV9MI_0)\nA. red\nB. green\nC. blue\nD. black");
    expect(res.skipped).toEqual([
      expect.objectContaining({ key: "xyz_1", reason: "unknown_answer", detail: "answer index 3 but only 2 options" }),
    ]);
  });

  it("names the missing option columns of a parquet that has neither candidates nor option0..4", async () => {
    const dir = await tempDir();
    await writeParquet(dir, "validation-00000-of-00001.parquet", [
      { name: "id", kind: "string", data: ["a"] },
      { name: "question", kind: "string", data: ["q"] },
      { name: "correct_choice", kind: "int64", data: [0] },
      { name: "option0", kind: "string", data: ["x"] },
    ]);
    await expect(loadBenchmark({ benchmark: "longvideobench", dir })).rejects.toThrow(
      /validation-00000-of-00001\.parquet: missing column\(s\) option1, option2, option3, option4/,
    );
  });
});

describe("lmms-lab/LVBench parquet (split train)", () => {
  it("reads uid / video_path / question with its options inside / answer; keys and reference ids by uid", async () => {
    const dir = await tempDir();
    const q = (stem: string) => `${stem}\n(A) a cat\n(B) a dog\n(C) a bird\n(D) a fish`;
    await writeParquet(dir, "data/train-00000-of-00001.parquet", [
      { name: "uid", kind: "string", data: ["101", "102", "103", null] },
      { name: "key", kind: "string", data: ["dQw4w9WgXcQ", "dQw4w9WgXcQ", "dQw4w9WgXcQ", "dQw4w9WgXcQ"] },
      { name: "type", kind: "string", data: ["cartoon", "cartoon", "cartoon", "cartoon"] },
      { name: "video_path", kind: "string", data: ["dQw4w9WgXcQ.mp4", "dQw4w9WgXcQ.mp4", "gone.mp4", "x.mp4"] },
      { name: "question", kind: "string", data: [q("What runs?"), "No options here", q("What flies?"), q("?")] },
      { name: "answer", kind: "string", data: ["B", "A", "C", "A"] },
      {
        name: "question_type",
        kind: "strings",
        data: [["entity recognition"], ["key information retrieval"], ["reasoning"], []],
      },
      { name: "time_reference", kind: "string", data: ["00:15-00:19", "01:00-01:10", "", ""] },
    ]);
    await touchVideos(dir, ["dQw4w9WgXcQ.mp4"]);
    const res = await loadBenchmark({ benchmark: "lvbench", dir });
    expect(res.stats.variant).toBe("parquet (lmms-lab/LVBench, 1 file)");
    expect(res.stats.files).toEqual([join("data", "train-00000-of-00001.parquet")]);
    expect(res.samples).toHaveLength(1);
    expect(res.samples[0]).toMatchObject({
      key: "101",
      question: "What runs?\n(A) a cat\n(B) a dog\n(C) a bird\n(D) a fish",
      options: ["a cat", "a dog", "a bird", "a fish"],
      answer: "B",
      videoPath: join(dir, "dQw4w9WgXcQ.mp4"),
      metadata: {
        referenceId: "101",
        questionText: q("What runs?"),
        videoKey: "dQw4w9WgXcQ",
        questionTypes: ["entity recognition"],
        timeReference: "00:15-00:19",
      },
    });
    expect(reasons(res.skipped)).toEqual({ malformed_options: 1, missing_video: 1, missing_field: 1 });
  });
});

describe("sy1998/MLVU_dev parquet (split test)", () => {
  it("finds the answer letter by the candidate text like the reference, keys rows <task_type>-<i> across shards", async () => {
    const dir = await tempDir();
    const shard = (rows: { video: string; q: string; cands: string[]; answer: string; task: string }[]) => [
      { name: "video_name", kind: "string" as const, data: rows.map((r) => r.video) },
      { name: "duration", kind: "double" as const, data: rows.map(() => 420.5) },
      { name: "question", kind: "string" as const, data: rows.map((r) => r.q) },
      { name: "candidates", kind: "strings" as const, data: rows.map((r) => r.cands) },
      { name: "answer", kind: "string" as const, data: rows.map((r) => r.answer) },
      { name: "task_type", kind: "string" as const, data: rows.map((r) => r.task) },
      { name: "question_id", kind: "string" as const, data: rows.map((_, i) => `q${i}`) },
    ];
    await writeParquet(
      dir,
      "test-00000-of-00002.parquet",
      shard([
        {
          video: "1_plotQA/movie_1.mp4",
          q: "Who enters?",
          cands: ["Tom", "Ann", "Bob"],
          answer: " Ann ",
          task: "plotQA",
        },
        { video: "4_count/c.mp4", q: "How many?", cands: ["1", "2", "3", "4"], answer: "5", task: "count" },
      ]),
    );
    await writeParquet(
      dir,
      "test-00001-of-00002.parquet",
      shard([
        {
          video: "2_needle/n.mp4",
          q: "What is shown?\n(A) a red car\n(B) a blue car",
          cands: ["a red car", "a blue car"],
          answer: "a blue car",
          task: "needle",
        },
      ]),
    );
    await touchVideos(dir, [
      "MLVU/video/1_plotQA/movie_1.mp4",
      "MLVU/video/4_count/c.mp4",
      "MLVU/video/2_needle/n.mp4",
    ]);
    const res = await loadBenchmark({ benchmark: "mlvu", dir });
    expect(res.stats.variant).toBe("parquet (sy1998/MLVU_dev, 2 files)");
    expect(res.samples.map((s) => [s.key, s.answer, s.question, s.metadata.rowIndex])).toEqual([
      ["plotQA-0", "B", "Who enters?\n(A) Tom\n(B) Ann\n(C) Bob", 0],
      ["needle-2", "B", "What is shown?\n(A) a red car\n(B) a blue car", 2],
    ]);
    expect(res.samples[0]!.videoPath).toBe(join(dir, "MLVU", "video", "1_plotQA", "movie_1.mp4"));
    expect(res.samples[0]).toMatchObject({ durationS: 420.5, metadata: { referenceId: "plotQA-0", task: "plotQA" } });
    expect(res.skipped).toEqual([
      expect.objectContaining({
        key: "count-1",
        reason: "unknown_answer",
        detail: 'answer "5" is none of the candidates (the reference evaluator\'s answer would be "?")',
      }),
    ]);
  });
});

describe("lmms-lab/charades_sta parquet (split test)", () => {
  it("keeps the reference's row position and key on each query", async () => {
    const dir = await tempDir();
    await writeParquet(dir, "test-00000-of-00001.parquet", [
      { name: "video", kind: "string", data: ["3MSZA.mp4", "3MSZA.mp4", "3MSZA.mp4", "AO8RW.mp4", "GONE1.mp4"] },
      {
        name: "caption",
        kind: "string",
        data: ["person turns on the light", "person opens the door", "person opens the door", "a person sits", "x"],
      },
      {
        name: "timestamp",
        kind: "doubles",
        data: [
          [24.3, 30.4],
          [0, 6.9],
          [0, 6.9],
          [5, 3],
          [1, 2],
        ],
      },
    ]);
    await write(dir, "Charades_v1_test.csv", "id,subject,length\n3MSZA,s1,31.96\nAO8RW,s2,20\n");
    await touchVideos(dir, ["Charades_v1_480/3MSZA.mp4", "Charades_v1_480/AO8RW.mp4"]);
    const res = await loadBenchmark({ benchmark: "charades_sta", dir });
    expect(res.stats.variant).toBe("parquet (lmms-lab/charades_sta, 1 file) + csv");
    expect(res.samples.map((s) => [s.key, s.answer, s.metadata.referenceId, s.metadata.referenceKey])).toEqual([
      ["3MSZA#0", "24.3-30.4", "0", "3MSZA.mp4>>>person turns on the light>>>[24.3, 30.4]"],
      ["3MSZA#1", "0-6.9", "1", "3MSZA.mp4>>>person opens the door>>>[0.0, 6.9]"],
      // a repeated query is its own sample: the reference numbers it apart
      ["3MSZA#2", "0-6.9", "2", "3MSZA.mp4>>>person opens the door>>>[0.0, 6.9]"],
    ]);
    expect(res.samples[0]).toMatchObject({
      question: "person turns on the light",
      durationS: 31.96,
      videoPath: join(dir, "Charades_v1_480", "3MSZA.mp4"),
      metadata: { span: [24.3, 30.4] },
    });
    expect(reasons(res.skipped)).toEqual({ bad_timestamps: 1, missing_video: 1 });
  });

  it("prints the timestamp list as Python's str does", () => {
    expect(pyListRepr([0, 6.9])).toBe("[0.0, 6.9]");
    expect(pyListRepr([24.3, 30.4])).toBe("[24.3, 30.4]");
    expect(pyListRepr([1e-5, 1e16])).toBe("[1e-05, 1e+16]");
    expect(pyListRepr(["0.0", "it's"])).toBe(`['0.0', "it's"]`);
    expect(() => pyListRepr([Number.NaN])).toThrow(RangeError);
    // repr(x) in CPython 3 for each x
    expect([0.1 + 0.2, 123456, 0.0001, -2.5, 1234567890123456].map((x) => pyListRepr([x]))).toEqual([
      "[0.30000000000000004]",
      "[123456.0]",
      "[0.0001]",
      "[-2.5]",
      "[1234567890123456.0]",
    ]);
  });
});

describe("Video-MME in the reference evaluator's HF_HOME layout", () => {
  it("finds videomme/data and videomme/subtitle and keeps videoID as the reference id", async () => {
    const home = await tempDir();
    await writeParquet(home, "videomme/test-00000-of-00001.parquet", [
      { name: "video_id", kind: "string", data: ["001", "001"] },
      { name: "duration", kind: "string", data: ["short", "short"] },
      { name: "domain", kind: "string", data: ["Knowledge", "Knowledge"] },
      { name: "sub_category", kind: "string", data: ["Humanity & History", "Humanity & History"] },
      { name: "url", kind: "string", data: ["https://www.youtube.com/watch?v=fFjv93ACGo8", "x"] },
      { name: "videoID", kind: "string", data: ["fFjv93ACGo8", "fFjv93ACGo8"] },
      { name: "question_id", kind: "string", data: ["001-1", "001-2"] },
      { name: "task_type", kind: "string", data: ["Counting Problem", "Information Synopsis"] },
      { name: "question", kind: "string", data: ["How many?", "What is it about?"] },
      {
        name: "options",
        kind: "strings",
        data: [
          ["A. 1", "B. 2", "C. 3", "D. 4"],
          ["A. w", "B. x", "C. y", "D. z"],
        ],
      },
      { name: "answer", kind: "string", data: ["C", "A"] },
    ]);
    await touchVideos(home, ["videomme/data/fFjv93ACGo8.mp4"]);
    await write(
      home,
      "videomme/subtitle/fFjv93ACGo8.srt",
      '1\n00:00:01,000 --> 00:00:02,000\n<font color="white">Hello</font>\n',
    );
    const res = await loadBenchmark({ benchmark: "videomme", dir: home, subtitles: true });
    expect(res.samples.map((s) => [s.key, s.metadata.referenceId, s.metadata.questionText])).toEqual([
      ["001-1", "fFjv93ACGo8", "How many?"],
      ["001-2", "fFjv93ACGo8", "What is it about?"],
    ]);
    expect(res.samples[0]!.videoPath).toBe(join(home, "videomme", "data", "fFjv93ACGo8.mp4"));
    expect(res.samples[0]!.question).toBe(
      "This video's subtitles are listed below:\nHello\nHow many?\nA. 1\nB. 2\nC. 3\nD. 4",
    );
    expect(res.stats.subtitles).toEqual({ withText: 2, missing: 0 });
  });
});

describe("MMVU with subject at the top of the row", () => {
  it("takes subject from the row, else from metadata", async () => {
    const dir = await tempDir();
    const url = "https://huggingface.co/datasets/yale-nlp/MMVU/resolve/main/videos/Art/0.mp4";
    await write(dir, "validation.json", [
      {
        id: "v1",
        video: url,
        question_type: "multiple-choice",
        question: "q?",
        choices: { A: "x", B: "y" },
        answer: "B",
        subject: "Art",
      },
      {
        id: "v2",
        video: url,
        question_type: "open-ended",
        question: "How many?",
        choices: {},
        answer: " 3 ",
        metadata: { subject: "Art2" },
      },
    ]);
    await touchVideos(dir, ["videos/Art/0.mp4"]);
    const res = await loadBenchmark({ benchmark: "mmvu", dir });
    expect(res.samples.map((s) => [s.key, s.questionType, s.answer, s.metadata.subject])).toEqual([
      ["v1", "mcq", "B", "Art"],
      ["v2", "oe", "3", "Art2"],
    ]);
  });
});
