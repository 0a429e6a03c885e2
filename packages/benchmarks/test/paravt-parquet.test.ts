// ParaVT parquet (SPEC §6): sentinel path classification and materialization, the parquet
// round trip of `materializeParquetFile`, and the `paravt-parquet` loader (RL rows, SFT rows,
// extra_info as a JSON string and as a struct, each root, a missing file, an unknown shape).

import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { describe, expect, it } from "vitest";
import {
  classifyPath,
  loadBenchmark,
  mapRowPaths,
  materializeParquetFile,
  materializeRows,
  rootDirs,
  SENTINEL_ROOTS,
} from "../src/index";
import { inlineOptions, questionText, readExtraInfo } from "../src/paravt-parquet/rows";
import { reasons, tempDir, touchVideos } from "./helpers";
import {
  PRESENT_VIDEOS,
  SYSTEM_TURN,
  userTurn,
  writeRlParquet,
  writeSftParquet,
  type RlFixtureRow,
  type SftFixtureRow,
} from "./paravt-parquet-fixtures";

async function readRows(abs: string): Promise<Record<string, unknown>[]> {
  const file = await asyncBufferFromFile(abs);
  return parquetReadObjects({ file, compressors });
}

const MCQ_Q = "What does the man pick up?\nA. a cup\nB. a phone\nC. a book\nAnswer with the option's letter.";

/** RL rows covering every root, both answer forms, a missing file and unknown shapes. */
function rlRows(mediaRoot: string): RlFixtureRow[] {
  return [
    {
      id: "lv-1",
      prompt: [SYSTEM_TURN, userTurn(MCQ_Q)],
      videos: [{ video: "longvt_source/yt/abc.mp4" }],
      extra_info: JSON.stringify({ answer: "B", question_type: "mcq", index: 0, duration: 95.5 }),
    },
    {
      id: "ch-1",
      prompt: [userTurn("When does the person open the door? Answer as [start, end].")],
      videos: [{ video: "museg/charades/AB12C.mp4" }],
      extra_info: JSON.stringify({ answer: "[3.5, 7.25]", question_type: "tvg" }),
    },
    {
      id: "et-1",
      prompt: [userTurn("Describe what is cooked.")],
      videos: [{ video: "museg/et_instruct_164k/clip 7.mp4" }],
      extra_info: JSON.stringify({ answer: "an omelette", question_type: "oe" }),
    },
    {
      id: "sq-1",
      prompt: [userTurn("Which colour is the car?\n(A) red\n(B) blue")],
      videos: [{ video: "selfqa/q/001.mp4" }],
      extra_info: JSON.stringify({ answer: "blue", question_type: "mcq" }),
    },
    {
      id: "lv-missing",
      prompt: [userTurn("Where is the dog?")],
      videos: [{ video: "longvt_source/yt/gone.mp4" }],
      extra_info: JSON.stringify({ answer: "in the garden", question_type: "oe" }),
    },
    {
      id: "odd-shape",
      prompt: [userTurn("What happens?")],
      videos: [{ video: "videos/elsewhere.mp4" }],
      extra_info: JSON.stringify({ answer: "nothing", question_type: "oe" }),
    },
    {
      id: "climb",
      prompt: [userTurn("What happens?")],
      videos: [{ video: "selfqa/../../etc/passwd" }],
      extra_info: JSON.stringify({ answer: "nothing", question_type: "oe" }),
    },
    {
      id: "local",
      prompt: [userTurn("What is on the table?")],
      videos: [{ video: `file://${join(mediaRoot, "longvt_source/yt/abc.mp4")}` }],
      extra_info: JSON.stringify({ answer: "a vase", question_type: "oe" }),
    },
    {
      id: "bad-type",
      prompt: [userTurn("Yes or no?")],
      videos: [{ video: "selfqa/q/001.mp4" }],
      extra_info: JSON.stringify({ answer: "yes", question_type: "yes-no" }),
    },
    {
      id: "no-options",
      prompt: [userTurn("Pick one.")],
      videos: [{ video: "selfqa/q/001.mp4" }],
      extra_info: JSON.stringify({ answer: "A", question_type: "mcq" }),
    },
    {
      id: "lv-1",
      prompt: [userTurn("Duplicate id.")],
      videos: [{ video: "longvt_source/yt/abc.mp4" }],
      extra_info: JSON.stringify({ answer: "x", question_type: "oe" }),
    },
    {
      id: null,
      prompt: [userTurn("Broken extra_info and no id: keyed by position.")],
      videos: [{ video: "selfqa/q/001.mp4" }],
      extra_info: "{not json",
    },
  ];
}

const SFT_ROWS: SftFixtureRow[] = [
  {
    messages: [
      {
        role: "user",
        content: [
          { type: "video_url", video_url: { url: "museg/charades/AB12C.mp4" } },
          { type: "text", text: "What is the person holding?" },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "<think>…</think><answer>a towel</answer>" }] },
    ],
    videos: ["museg/charades/AB12C.mp4"],
    extra_info: JSON.stringify({ answer: "a towel", question_type: "oe", index: 7 }),
  },
  {
    messages: [
      {
        role: "user",
        content: [
          { type: "video_url", video_url: { url: "selfqa/q/001.mp4" } },
          { type: "image_url", image_url: { url: "selfqa/q/001_frame.jpg" } },
          { type: "text", text: "Summarize the clip." },
        ],
      },
      { role: "assistant", content: [{ type: "text", text: "<answer>A car drives by.</answer>" }] },
    ],
    videos: ["selfqa/q/001.mp4"],
    extra_info: null,
  },
  {
    messages: [
      {
        role: "user",
        content: [
          { type: "video_url", video_url: { url: "https://example.com/v.mp4" } },
          { type: "text", text: "Q?" },
        ],
      },
    ],
    videos: ["https://example.com/v.mp4"],
    extra_info: null,
  },
];

describe("sentinel paths (SPEC §6)", () => {
  it("recognises the four roots and calls everything else an unknown or local shape", () => {
    expect(classifyPath("longvt_source/a/b.mp4")).toEqual({ kind: "sentinel", root: "longvt_source", rest: "a/b.mp4" });
    expect(classifyPath("museg/charades/x.mp4")).toMatchObject({ kind: "sentinel", root: "museg/charades" });
    expect(classifyPath("museg/et_instruct_164k/y.mp4")).toMatchObject({ root: "museg/et_instruct_164k" });
    expect(classifyPath("selfqa/z.mp4")).toMatchObject({ kind: "sentinel", root: "selfqa", rest: "z.mp4" });
    expect(classifyPath("museg/other/x.mp4")).toMatchObject({ kind: "unknown" });
    expect(classifyPath("longvt_source/")).toMatchObject({ kind: "unknown", why: "no file after longvt_source/" });
    expect(classifyPath("selfqa/../x.mp4")).toMatchObject({ kind: "unknown" });
    expect(classifyPath("./selfqa/x.mp4")).toMatchObject({ kind: "unknown" });
    expect(classifyPath("http://h/selfqa/x.mp4")).toMatchObject({ kind: "unknown", why: "a URL, not a file path" });
    expect(classifyPath("/data/selfqa/x.mp4")).toEqual({ kind: "local", form: "absolute", path: "/data/selfqa/x.mp4" });
    expect(classifyPath("file:///data/a b.mp4")).toEqual({ kind: "local", form: "file-uri", path: "/data/a b.mp4" });
  });

  it("maps roots under one media root, or each to its own folder", () => {
    expect(rootDirs({ mediaRoot: "/m" })).toEqual({
      longvt_source: "/m/longvt_source",
      "museg/charades": "/m/museg/charades",
      "museg/et_instruct_164k": "/m/museg/et_instruct_164k",
      selfqa: "/m/selfqa",
    });
    expect(rootDirs({ mediaRoot: "/m", roots: { selfqa: "/q" } }).selfqa).toBe("/q");
    expect(rootDirs({ roots: { selfqa: "/q" } }).longvt_source).toBeNull();
    expect(() => rootDirs({ mediaRoot: "rel" })).toThrow(/must be absolute/);
  });

  it("materializeRows rewrites sentinel values only and reports per root", () => {
    const dirs = rootDirs({ mediaRoot: "/m", roots: { selfqa: "/q" } });
    const rows = [
      { videos: [{ video: "longvt_source/a.mp4" }, { video: "longvt_source/gone.mp4" }], n: 1 },
      { videos: ["selfqa/s.mp4", "/abs/x.mp4", "weird/x.mp4"] },
      { messages: [{ role: "user", content: [{ type: "video_url", video_url: { url: "museg/charades/c.mp4" } }] }] },
      { prompt: [{ role: "user", content: "<video>\nVideo path: longvt_source/a.mp4" }] },
    ];
    const present = new Set(["/m/longvt_source/a.mp4", "/q/s.mp4"]);
    const { rows: out, report } = materializeRows(rows, dirs, (abs) => present.has(abs));
    expect(out[0]).toEqual({
      videos: [{ video: "file:///m/longvt_source/a.mp4" }, { video: "file:///m/longvt_source/gone.mp4" }],
      n: 1,
    });
    expect(out[1]).toEqual({ videos: ["file:///q/s.mp4", "/abs/x.mp4", "weird/x.mp4"] });
    expect(out[2]).toEqual({
      messages: [
        { role: "user", content: [{ type: "video_url", video_url: { url: "file:///m/museg/charades/c.mp4" } }] },
      ],
    });
    // Text is not a path value: the prompt row is returned as is.
    expect(out[3]).toBe(rows[3]);
    expect(rows[0]!.videos![0]).toEqual({ video: "longvt_source/a.mp4" });
    expect(report.rows).toBe(4);
    expect(report.references).toBe(6);
    expect(report.materialized).toBe(4);
    expect(report.roots.map((r) => r.root)).toEqual([...SENTINEL_ROOTS]);
    expect(report.roots[0]).toEqual({
      root: "longvt_source",
      dir: "/m/longvt_source",
      references: 2,
      materialized: 2,
      files: 2,
      missing: 1,
      missingExamples: ["longvt_source/gone.mp4"],
    });
    expect(report.roots[1]).toMatchObject({ references: 1, missing: 1, missingExamples: ["museg/charades/c.mp4"] });
    expect(report.roots[3]).toMatchObject({ dir: "/q", references: 1, files: 1, missing: 0 });
    expect(report.unknownShape).toEqual({
      references: 2,
      examples: [
        { path: "/abs/x.mp4", why: "already local (absolute)" },
        { path: "weird/x.mp4", why: expect.stringContaining("not under longvt_source/") as string },
      ],
    });
  });

  it("leaves a root without a directory as it is and says so", () => {
    const dirs = rootDirs({ roots: { selfqa: "/q" } });
    const { rows, report } = materializeRows([{ videos: ["longvt_source/a.mp4"] }], dirs, () => true);
    expect(rows[0]).toEqual({ videos: ["longvt_source/a.mp4"] });
    expect(report.roots[0]).toMatchObject({ dir: null, references: 1, materialized: 0, missing: 0 });
  });

  it("mapRowPaths copies only what it changes", () => {
    const row = { videos: [{ video: "a" }], prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] };
    expect(mapRowPaths(row, (v) => v)).toBe(row);
    const changed = mapRowPaths(row, (v) => `${v}!`);
    expect(changed.videos).toEqual([{ video: "a!" }]);
    expect(changed.prompt).toBe(row.prompt);
  });
});

describe("row reading", () => {
  it("takes the question from the user turn with the <video> marker, without the marker", () => {
    expect(questionText([SYSTEM_TURN, userTurn("Q?")])).toBe("Q?");
    expect(questionText([{ role: "user", content: [{ type: "video_url" }, { type: "text", text: "Q2" }] }])).toBe("Q2");
    expect(questionText([{ role: "user", content: "<video>" }])).toBeNull();
  });

  it("reads extra_info as a JSON string or an object and names what is wrong", () => {
    expect(readExtraInfo('{"answer": "B", "question_type": "mcq", "index": 3}')).toMatchObject({
      ok: true,
      answer: "B",
      questionType: "mcq",
      rest: { index: 3 },
    });
    expect(readExtraInfo({ answer: "x", question_type: "oe" })).toMatchObject({ ok: true });
    expect(readExtraInfo(null)).toMatchObject({ ok: false, reason: "missing_field" });
    expect(readExtraInfo("{")).toMatchObject({ ok: false, reason: "invalid_field" });
    expect(readExtraInfo({ answer: "x", question_type: "essay" })).toMatchObject({
      ok: false,
      reason: "invalid_field",
    });
    expect(readExtraInfo({ question_type: "oe" })).toMatchObject({ ok: false, detail: "no extra_info.answer" });
  });

  it("finds option lines in the prompt text", () => {
    expect(inlineOptions(MCQ_Q)).toEqual(["a cup", "a phone", "a book"]);
    expect(inlineOptions("Q\n(A) x\n(B) y")).toEqual(["x", "y"]);
    expect(inlineOptions("Q\nA: x\nC: y")).toEqual(["x"]);
    expect(inlineOptions("Q without options")).toBeNull();
  });
});

describe("materializeParquetFile", () => {
  it("writes the same rows and schema with sentinel paths materialized, unknown shapes untouched", async () => {
    const dir = await tempDir();
    const media = join(dir, "media");
    await touchVideos(media, PRESENT_VIDEOS);
    const input = await writeRlParquet(join(dir, "rl.parquet"), rlRows(media), "string", 5);
    const output = join(dir, "rl.materialized.parquet");
    const report = await materializeParquetFile({ input, output, mediaRoot: media });

    const before = await readRows(input);
    const after = await readRows(output);
    expect(after).toHaveLength(before.length);
    const videoOf = (r: Record<string, unknown>) => (r.videos as { video: string }[])[0]!.video;
    expect(after.map(videoOf)).toEqual([
      `file://${media}/longvt_source/yt/abc.mp4`,
      `file://${media}/museg/charades/AB12C.mp4`,
      `file://${media}/museg/et_instruct_164k/clip 7.mp4`,
      `file://${media}/selfqa/q/001.mp4`,
      `file://${media}/longvt_source/yt/gone.mp4`,
      "videos/elsewhere.mp4",
      "selfqa/../../etc/passwd",
      `file://${media}/longvt_source/yt/abc.mp4`,
      `file://${media}/selfqa/q/001.mp4`,
      `file://${media}/selfqa/q/001.mp4`,
      `file://${media}/longvt_source/yt/abc.mp4`,
      `file://${media}/selfqa/q/001.mp4`,
    ]);
    // Everything but the video paths is unchanged, row by row.
    const strip = (r: Record<string, unknown>) => ({ ...r, videos: null });
    expect(after.map(strip)).toEqual(before.map(strip));

    const inMeta = await parquetMetadataAsync(await asyncBufferFromFile(input));
    const outMeta = await parquetMetadataAsync(await asyncBufferFromFile(output));
    expect(outMeta.schema).toEqual(inMeta.schema);
    expect(outMeta.row_groups.map((g) => g.num_rows)).toEqual(inMeta.row_groups.map((g) => g.num_rows));
    expect(outMeta.row_groups.length).toBe(3);

    expect(report.rows).toBe(12);
    expect(report.references).toBe(12);
    expect(report.materialized).toBe(9);
    const byRoot = Object.fromEntries(report.roots.map((r) => [r.root, r]));
    expect(byRoot.longvt_source).toMatchObject({ references: 3, files: 2, missing: 1 });
    expect(byRoot.longvt_source!.missingExamples).toEqual(["longvt_source/yt/gone.mp4"]);
    expect(byRoot["museg/charades"]).toMatchObject({ references: 1, files: 1, missing: 0 });
    expect(byRoot["museg/et_instruct_164k"]).toMatchObject({ references: 1, missing: 0 });
    expect(byRoot.selfqa).toMatchObject({ references: 4, files: 1, missing: 0, dir: join(media, "selfqa") });
    expect(report.unknownShape.references).toBe(3);
    expect(report.unknownShape.examples.map((e) => e.path)).toEqual([
      "videos/elsewhere.mp4",
      "selfqa/../../etc/passwd",
      `file://${media}/longvt_source/yt/abc.mp4`,
    ]);

    // Materializing the output again changes nothing: every path is now an unknown (local) shape.
    const again = join(dir, "again.parquet");
    const second = await materializeParquetFile({ input: output, output: again, mediaRoot: media });
    expect(second.materialized).toBe(0);
    expect(await readRows(again)).toEqual(after);
  });

  it("rewrites SFT content items and list-of-string videos; per-root directories win over the media root", async () => {
    const dir = await tempDir();
    await touchVideos(join(dir, "chunks"), ["AB12C.mp4"]);
    const input = await writeSftParquet(join(dir, "sft.parquet"), SFT_ROWS);
    const output = join(dir, "sft.out.parquet");
    const report = await materializeParquetFile({
      input,
      output,
      mediaRoot: join(dir, "media"),
      roots: { "museg/charades": join(dir, "chunks") },
    });
    const after = await readRows(output);
    const first = after[0] as { messages: { content: { video_url?: { url: string } }[] }[]; videos: string[] };
    expect(first.videos).toEqual([`file://${dir}/chunks/AB12C.mp4`]);
    expect(first.messages[0]!.content[0]!.video_url).toEqual({ url: `file://${dir}/chunks/AB12C.mp4` });
    const second = after[1] as { messages: { content: { image_url?: { url: string } }[] }[] };
    expect(second.messages[0]!.content[1]!.image_url).toEqual({ url: `file://${dir}/media/selfqa/q/001_frame.jpg` });
    expect((after[2] as { videos: string[] }).videos).toEqual(["https://example.com/v.mp4"]);
    const byRoot = Object.fromEntries(report.roots.map((r) => [r.root, r]));
    expect(byRoot["museg/charades"]).toMatchObject({ dir: join(dir, "chunks"), references: 2, files: 1, missing: 0 });
    expect(byRoot.selfqa).toMatchObject({ references: 3, files: 2, missing: 2 });
    expect(report.unknownShape.references).toBe(2);
  });

  it("refuses bad options and names an unreadable input", async () => {
    const dir = await tempDir();
    await expect(
      materializeParquetFile({ input: join(dir, "a.parquet"), output: join(dir, "b.parquet") }),
    ).rejects.toThrow(/give a media root or at least one root directory/);
    await expect(
      materializeParquetFile({ input: join(dir, "a.parquet"), output: join(dir, "a.parquet"), mediaRoot: dir }),
    ).rejects.toThrow(/another file than the input/);
    await expect(
      materializeParquetFile({ input: join(dir, "a.parquet"), output: join(dir, "b.parquet"), mediaRoot: dir }),
    ).rejects.toThrow(/a\.parquet: file not found/);

    // Pages that cannot be decoded (footer intact): an error naming the rows, and no half-written output.
    const input = await writeRlParquet(join(dir, "rl.parquet"), rlRows(dir), "string");
    const bytes = await readFile(input);
    bytes.fill(0xff, 4, 200);
    await writeFile(input, bytes);
    const output = join(dir, "out.parquet");
    await expect(materializeParquetFile({ input, output, mediaRoot: dir })).rejects.toThrow(/rl\.parquet: rows 1-12: /);
    await expect(stat(output)).rejects.toThrow(/ENOENT/);
  });
});

describe("paravt-parquet loader", () => {
  it("imports RL rows (extra_info as JSON text) and skips each bad row with its reason", async () => {
    const dir = await tempDir();
    const media = join(dir, "media");
    await touchVideos(media, PRESENT_VIDEOS);
    const file = await writeRlParquet(join(dir, "rl.parquet"), rlRows(media), "string");
    const res = await loadBenchmark({ benchmark: "paravt-parquet", dir: file, videoDir: media });
    expect(res).toMatchObject({ benchmark: "paravt-parquet", split: "train" });
    expect(res.samples.map((s) => [s.key, s.questionType, s.answer, s.options])).toEqual([
      ["lv-1", "mcq", "B", ["a cup", "a phone", "a book"]],
      ["ch-1", "tvg", "3.5-7.25", null],
      ["et-1", "oe", "an omelette", null],
      ["sq-1", "mcq", "B", ["red", "blue"]],
      ["local", "oe", "a vase", null],
    ]);
    const [mcq, tvg] = res.samples;
    expect(mcq!.question).toBe(MCQ_Q);
    expect(mcq!.videoPath).toBe(join(media, "longvt_source/yt/abc.mp4"));
    expect(mcq!.durationS).toBe(95.5);
    expect(mcq!.metadata).toMatchObject({
      rowKind: "rl",
      row: 1,
      root: "longvt_source",
      videoRef: "longvt_source/yt/abc.mp4",
      dataSource: "longvt",
      index: 0,
    });
    expect(tvg!.metadata).toMatchObject({ span: [3.5, 7.25], answerText: "[3.5, 7.25]" });
    expect(res.samples[3]!.metadata.answerText).toBe("blue");

    expect(res.skipped.map((s) => [s.row, s.key, s.reason])).toEqual([
      [5, "lv-missing", "missing_video"],
      [6, "odd-shape", "bad_video_path"],
      [7, "climb", "bad_video_path"],
      [9, "bad-type", "invalid_field"],
      [10, "no-options", "malformed_options"],
      [11, "lv-1", "duplicate_key"],
      [12, "row-12", "invalid_field"],
    ]);
    expect(res.skipped[0]!.detail).toBe(
      `longvt_source: no file ${join(media, "longvt_source/yt/gone.mp4")} (parquet path longvt_source/yt/gone.mp4)`,
    );
    expect(res.skipped[1]!.detail).toMatch(
      /^unknown path shape \(not under longvt_source\/.*\): videos\/elsewhere\.mp4$/,
    );
    expect(res.stats.rows).toBe(12);
    expect(res.stats.variant).toBe("RL rows");
    const parquet = res.stats.parquet!;
    expect(parquet.rowKinds).toEqual({ rl: 12, sft: 0, other: 0 });
    const byRoot = Object.fromEntries(parquet.paths.roots.map((r) => [r.root, r]));
    expect(byRoot.longvt_source).toMatchObject({ references: 3, files: 2, missing: 1 });
    expect(byRoot.selfqa).toMatchObject({ references: 4, files: 1, missing: 0 });
    expect(parquet.paths.unknownShape.references).toBe(3);
    expect(res.stats.warnings).toEqual([
      expect.stringMatching(
        /^longvt_source: 1 of 2 file\(s\) missing under .*\(first: longvt_source\/yt\/gone\.mp4\)$/,
      ),
      expect.stringMatching(/^unknown shape: 3 path\(s\) left as they are/),
    ]);
  });

  it("reads extra_info as a struct column; keys fall back to extra_info.index; the default media root is the file's folder", async () => {
    const dir = await tempDir();
    await touchVideos(dir, ["selfqa/q/001.mp4"]);
    const file = await writeRlParquet(
      join(dir, "rl-struct.parquet"),
      [
        {
          id: null,
          prompt: [userTurn("When is the goal? Answer [start, end].")],
          videos: [{ video: "selfqa/q/001.mp4" }],
          extra_info: { answer: "12-15.5", question_type: "tvg", index: 41 },
        },
        {
          id: null,
          prompt: [userTurn("Which team scores?\nA. red\nB. blue")],
          videos: [{ video: "selfqa/q/001.mp4" }],
          extra_info: { answer: "(a)", question_type: "mcq", index: 42 },
        },
      ],
      "struct",
    );
    const res = await loadBenchmark({ benchmark: "paravt-parquet", dir: file, split: "val" });
    expect(res.skipped).toEqual([]);
    expect(res.samples.map((s) => [s.key, s.split, s.answer])).toEqual([
      ["41", "val", "12-15.5"],
      ["42", "val", "A"],
    ]);
    expect(res.stats.videoDir).toBe(dir);
  });

  it("imports SFT rows that carry extra_info and counts the others as unlabeled", async () => {
    const dir = await tempDir();
    await touchVideos(dir, PRESENT_VIDEOS);
    const file = await writeSftParquet(join(dir, "sft.parquet"), SFT_ROWS);
    const res = await loadBenchmark({ benchmark: "paravt-parquet", dir: file });
    expect(res.samples.map((s) => [s.key, s.question, s.answer, s.metadata.rowKind])).toEqual([
      ["7", "What is the person holding?", "a towel", "sft"],
    ]);
    expect(reasons(res.skipped)).toEqual({ unlabeled_sft_row: 2 });
    expect(res.stats.parquet).toMatchObject({ rowKinds: { rl: 0, sft: 3, other: 0 }, sft: { rows: 3, imported: 1 } });
    expect(res.stats.warnings).toContainEqual(expect.stringMatching(/^2 of 3 SFT row\(s\) not imported/));
  });

  it("needs one .parquet file", async () => {
    const dir = await tempDir();
    await expect(loadBenchmark({ benchmark: "paravt-parquet", dir })).rejects.toThrow(/reads one \.parquet file/);
  });
});
