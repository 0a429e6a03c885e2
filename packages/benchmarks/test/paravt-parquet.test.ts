// ParaVT parquet (SPEC §6): sentinel path classification and materialization, the parquet
// round trip of `materializeParquetFile`, and the `paravt-parquet` loader (RL rows, SFT rows,
// extra_info as a JSON string and as a struct, each root, a missing file, an unknown shape).

import { readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { describe, expect, it } from "vitest";
import {
  classifyPath,
  loadBenchmark,
  materializeParquetFile,
  materializeRows,
  PathTally,
  pythonExists,
  referenceLocator,
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
  it("recognises sentinel paths by the reference's rule: an optional file://, then a root prefix", () => {
    // materialize.py materialize_path: raw = rel minus "file://"; a sentinel path iff raw starts with a prefix.
    expect(classifyPath("longvt_source/a/b.mp4")).toEqual({
      kind: "sentinel",
      root: "longvt_source",
      rest: "a/b.mp4",
      raw: "longvt_source/a/b.mp4",
      form: "bare",
    });
    expect(classifyPath("file://longvt_source/a/b.mp4")).toMatchObject({ kind: "sentinel", form: "file-uri" });
    expect(classifyPath("museg/charades/x.mp4")).toMatchObject({ kind: "sentinel", root: "museg/charades" });
    expect(classifyPath("museg/et_instruct_164k/y.mp4")).toMatchObject({ root: "museg/et_instruct_164k" });
    expect(classifyPath("selfqa/z.mp4")).toMatchObject({ kind: "sentinel", root: "selfqa", rest: "z.mp4" });
    // Nothing after the prefix is inspected: ".." and an empty rest are sentinel paths too.
    expect(classifyPath("selfqa/../x.mp4")).toMatchObject({ kind: "sentinel", rest: "../x.mp4" });
    expect(classifyPath("longvt_source/")).toMatchObject({ kind: "sentinel", rest: "" });
    expect(classifyPath("longvt_source")).toMatchObject({ kind: "unknown" });
    expect(classifyPath("museg/other/x.mp4")).toMatchObject({ kind: "unknown" });
    expect(classifyPath("./selfqa/x.mp4")).toMatchObject({ kind: "unknown" });
    expect(classifyPath("file://file://selfqa/x.mp4")).toMatchObject({ kind: "unknown" });
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

  it("materializeRows rewrites messages and {video} items only, and reports per root and per bucket", () => {
    const dirs = rootDirs({ mediaRoot: "/m", roots: { selfqa: "/q" } });
    const tally = new PathTally(dirs); // lexical locate: no file system
    const rows = [
      { videos: [{ video: "longvt_source/a.mp4" }, { video: "file://longvt_source/gone.mp4" }], n: 1 },
      { videos: [{ video: "selfqa/s.mp4" }, "selfqa/s.mp4", { video: "/abs/x.mp4" }, { video: "weird/x.mp4" }] },
      { messages: [{ role: "user", content: [{ type: "video_url", video_url: { url: "museg/charades/c.mp4" } }] }] },
      { prompt: [{ role: "user", content: [{ type: "video_url", video_url: { url: "longvt_source/a.mp4" } }] }] },
      { images: ["selfqa/s.mp4"] },
    ];
    const present = new Set(["/m/longvt_source/a.mp4", "/q/s.mp4"]);
    const { rows: out, report } = materializeRows(rows, tally, (abs) => present.has(abs));
    expect(out[0]).toEqual({
      videos: [{ video: "file:///m/longvt_source/a.mp4" }, { video: "file:///m/longvt_source/gone.mp4" }],
      n: 1,
    });
    // A plain string item of `videos` is not a dict with "video": _walk_videos keeps it.
    expect(out[1]).toEqual({
      videos: [{ video: "file:///q/s.mp4" }, "selfqa/s.mp4", { video: "/abs/x.mp4" }, { video: "weird/x.mp4" }],
    });
    expect(out[2]).toEqual({
      messages: [
        { role: "user", content: [{ type: "video_url", video_url: { url: "file:///m/museg/charades/c.mp4" } }] },
      ],
    });
    // The reference walks only `messages` and `videos`: prompt and images rows come back as they are.
    expect(out[3]).toBe(rows[3]);
    expect(out[4]).toBe(rows[4]);
    expect(rows[0]!.videos![0]).toEqual({ video: "longvt_source/a.mp4" });
    expect(report.rows).toBe(5);
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
    // materialize_report.json's entry: missing references per first path segment.
    expect(report.missingByBucket).toEqual({ longvt_source: 1, museg: 1 });
    expect(report.unknownShape).toEqual({
      references: 2,
      examples: [
        { path: "/abs/x.mp4", why: "already local (absolute)" },
        { path: "weird/x.mp4", why: expect.stringContaining("not under longvt_source/") as string },
      ],
    });
    expect(report.unreadable).toEqual({ count: 0, examples: [] });
  });

  it("leaves a root without a directory as it is and says so", () => {
    const tally = new PathTally(rootDirs({ roots: { selfqa: "/q" } }));
    const { rows, report } = materializeRows([{ videos: [{ video: "longvt_source/a.mp4" }] }], tally, () => true);
    expect(rows[0]).toEqual({ videos: [{ video: "longvt_source/a.mp4" }] });
    expect(report.roots[0]).toMatchObject({ dir: null, references: 1, materialized: 0, missing: 0 });
  });
});

/**
 * The reference walk on one value, with Python's resolve() / exists() on a real media tree. Each
 * expected value below was derived from materialize.py line by line, and confirmed by running
 * its `_walk_messages` / `_walk_videos` (Python 3.11) on the same values and tree.
 */
function referenceWalk(media: string, column: "messages" | "videos", value: unknown) {
  const tally = new PathTally(rootDirs({ mediaRoot: media }), referenceLocator({ mediaRoot: media }));
  const out = materializeRows([{ [column]: value }], tally, pythonExists);
  return { value: out.rows[0]![column], report: out.report };
}

describe("the reference walk (materialize.py _walk_messages / _walk_videos / materialize_path)", () => {
  async function tree() {
    const dir = await tempDir();
    const media = join(dir, "media");
    await touchVideos(media, PRESENT_VIDEOS);
    await touchVideos(dir, ["elsewhere/x.mp4"]);
    await symlink("../../elsewhere", join(media, "longvt_source/linkdir"));
    await symlink("loop", join(media, "selfqa/loop"));
    return { dir, media };
  }

  it("rewrites every sentinel form of a {video} item like materialize_path, and nothing else", async () => {
    const { dir, media } = await tree();
    const cases: [string, string][] = [
      ["longvt_source/yt/abc.mp4", `file://${media}/longvt_source/yt/abc.mp4`],
      ["file://longvt_source/yt/abc.mp4", `file://${media}/longvt_source/yt/abc.mp4`],
      ["longvt_source/yt/gone.mp4", `file://${media}/longvt_source/yt/gone.mp4`],
      ["file://museg/charades/AB12C.mp4", `file://${media}/museg/charades/AB12C.mp4`],
      ["museg/et_instruct_164k/clip 7.mp4", `file://${media}/museg/et_instruct_164k/clip 7.mp4`],
      ["museg/other/x.mp4", "museg/other/x.mp4"],
      // resolve(): ".." applies (even out of the root), "//" and "." vanish, a trailing "/" goes,
      // links are followed, and "..", after a link, climbs from its target.
      ["selfqa/../../etc/passwd", `file://${dir}/etc/passwd`],
      ["longvt_source/", `file://${media}/longvt_source`],
      ["selfqa//q/./001.mp4", `file://${media}/selfqa/q/001.mp4`],
      ["longvt_source/yt/abc.mp4/", `file://${media}/longvt_source/yt/abc.mp4`],
      ["longvt_source/linkdir/x.mp4", `file://${dir}/elsewhere/x.mp4`],
      ["longvt_source/linkdir/../yt/abc.mp4", `file://${dir}/yt/abc.mp4`],
      ["selfqa/q\\001.mp4", `file://${media}/selfqa/q\\001.mp4`],
      // Unknown shapes pass through.
      ["longvt_source", "longvt_source"],
      ["/abs/x.mp4", "/abs/x.mp4"],
      ["file:///abs/x.mp4", "file:///abs/x.mp4"],
      ["weird/x.mp4", "weird/x.mp4"],
      ["http://h/selfqa/x.mp4", "http://h/selfqa/x.mp4"],
      ["", ""],
      ["file://file://selfqa/q/001.mp4", "file://file://selfqa/q/001.mp4"],
      ["./selfqa/q/001.mp4", "./selfqa/q/001.mp4"],
    ];
    const { value, report } = referenceWalk(
      media,
      "videos",
      cases.map(([v]) => ({ video: v })),
    );
    expect((value as { video: string }[]).map((x) => x.video)).toEqual(cases.map(([, want]) => want));
    // Counter keyed by raw.split("/", 1)[0], one count per missing reference: gone.mp4 and
    // linkdir/../yt/abc.mp4, passwd and q\001.mp4; "longvt_source/" is a directory, which exists().
    expect(report.missingByBucket).toEqual({ longvt_source: 2, selfqa: 2 });
    expect(report.unreadable.count).toBe(0);
  });

  it("keeps None videos, string items and dicts without a video key; a non-list videos value as it is", async () => {
    const { media } = await tree();
    const items = [
      { video: null },
      "selfqa/q/001.mp4",
      { other: "selfqa/q/001.mp4" },
      { video: "selfqa/q/001.mp4", extra: 1 },
    ];
    expect(referenceWalk(media, "videos", items).value).toEqual([
      { video: null },
      "selfqa/q/001.mp4",
      { other: "selfqa/q/001.mp4" },
      { video: `file://${media}/selfqa/q/001.mp4`, extra: 1 },
    ]);
    expect(referenceWalk(media, "videos", "selfqa/q/001.mp4").value).toBe("selfqa/q/001.mp4");
  });

  it("walks messages: typed video_url / image_url items, content and nested messages, not text", async () => {
    const { media } = await tree();
    const turns = [
      {
        role: "user",
        content: [
          { type: "video_url", video_url: { url: "file://longvt_source/yt/abc.mp4" } },
          { type: "image_url", image_url: { url: "selfqa/q/f.jpg" } },
          { type: "text", text: "longvt_source/yt/abc.mp4" },
          { type: "video_url", video_url: null },
          { type: "image_url", image_url: { url: "" } },
          // The item's type decides: a video_url under a text item is not a path.
          { type: "text", video_url: { url: "selfqa/q/001.mp4" } },
          {
            type: "video_url",
            video_url: { url: "selfqa/q/001.mp4", detail: "x" },
            image_url: { url: "selfqa/q/001.mp4" },
          },
        ],
      },
      {
        role: "user",
        content: null,
        messages: [{ role: "user", content: [{ type: "video_url", video_url: { url: "selfqa/q/001.mp4" } }] }],
      },
    ];
    const { value, report } = referenceWalk(media, "messages", turns);
    expect(value).toEqual([
      {
        role: "user",
        content: [
          { type: "video_url", video_url: { url: `file://${media}/longvt_source/yt/abc.mp4` } },
          { type: "image_url", image_url: { url: `file://${media}/selfqa/q/f.jpg` } },
          { type: "text", text: "longvt_source/yt/abc.mp4" },
          { type: "video_url", video_url: null },
          { type: "image_url", image_url: { url: "" } },
          { type: "text", video_url: { url: "selfqa/q/001.mp4" } },
          {
            type: "video_url",
            video_url: { url: `file://${media}/selfqa/q/001.mp4`, detail: "x" },
            image_url: { url: "selfqa/q/001.mp4" },
          },
        ],
      },
      {
        role: "user",
        content: null,
        messages: [
          { role: "user", content: [{ type: "video_url", video_url: { url: `file://${media}/selfqa/q/001.mp4` } }] },
        ],
      },
    ]);
    expect(report.missingByBucket).toEqual({ selfqa: 1 });
  });

  it("decodes a JSON-string messages value and writes it back as Python's json.dumps(ensure_ascii=False)", async () => {
    const { media } = await tree();
    const text =
      '[{"role":"user","content":[{"type":"video_url","video_url":{"url":"file://longvt_source/yt/abc.mp4"}},' +
      '{"type":"text","text":"caf\\u00e9 \\ud83d\\ude00 \\/ \\u0001 \\t\\n"}],' +
      '"n":[1.0,1e16,1e-5,0.0001,-0.0,123456789012345678901234567890,1E2,2.5e-7,NaN,Infinity,-Infinity,1e400],' +
      '"2":"two","b":{"1":1,"a":2,"1":3}}]';
    const { value, report } = referenceWalk(media, "messages", text);
    expect(value).toBe(
      `[{"role": "user", "content": [{"type": "video_url", "video_url": {"url": "file://${media}/longvt_source/yt/abc.mp4"}}, ` +
        '{"type": "text", "text": "café 😀 / \\u0001 \\t\\n"}], ' +
        '"n": [1.0, 1e+16, 1e-05, 0.0001, -0.0, 123456789012345678901234567890, 100.0, 2.5e-07, NaN, Infinity, -Infinity, Infinity], ' +
        '"2": "two", "b": {"1": 3, "a": 2}}]',
    );
    expect(report.materialized).toBe(1);
    // A JSON string with nothing to rewrite is still re-serialized; JSON text under content is decoded too.
    expect(referenceWalk(media, "messages", "  [ ]  ").value).toBe("[]");
    expect(referenceWalk(media, "messages", '[{"role":"user","content":"42"}]').value).toBe(
      '[{"role": "user", "content": "42"}]',
    );
  });

  it("keeps and counts the values the reference stops on", async () => {
    const { media } = await tree();
    const cases: [column: "messages" | "videos", value: unknown, why: RegExp][] = [
      ["messages", "not json at all", /not JSON/], // JSONDecodeError
      ["messages", [{ role: "assistant", content: "plain text answer" }], /not JSON/], // json.loads of content
      ["messages", '{"content": "\\"hi\\""}', /not JSON/], // "hi" is decoded twice
      ["messages", [{ type: "video_url", video_url: "longvt_source/url.mp4" }], /holding 'url'/], // TypeError
      ["messages", [{ type: "video_url", video_url: ["url"] }], /holding 'url'/], // TypeError
      ["messages", [{ type: "video_url", video_url: { url: 5 } }], /a number, not a path/], // AttributeError
      ["videos", [{ video: 7 }], /a number, not a path/], // AttributeError
      ["videos", [{ video: "selfqa/loop/x.mp4" }], /symlink loop/], // RuntimeError from resolve()
    ];
    for (const [column, value, why] of cases) {
      const r = referenceWalk(media, column, value);
      expect(r.value).toEqual(value);
      expect(r.report.unreadable).toMatchObject({
        count: 1,
        examples: [{ why: expect.stringMatching(why) as unknown }],
      });
    }
    // A truthy sub without "url" is skipped by the reference, not an error.
    const quiet = referenceWalk(media, "messages", [{ type: "video_url", video_url: "no such key" }]);
    expect(quiet.report.unreadable.count).toBe(0);
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
      `file://${dir}/etc/passwd`, // (media / "selfqa/../../etc/passwd").resolve()
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
    expect(report.materialized).toBe(10);
    const byRoot = Object.fromEntries(report.roots.map((r) => [r.root, r]));
    expect(byRoot.longvt_source).toMatchObject({ references: 3, files: 2, missing: 1 });
    expect(byRoot.longvt_source!.missingExamples).toEqual(["longvt_source/yt/gone.mp4"]);
    expect(byRoot["museg/charades"]).toMatchObject({ references: 1, files: 1, missing: 0 });
    expect(byRoot["museg/et_instruct_164k"]).toMatchObject({ references: 1, missing: 0 });
    expect(byRoot.selfqa).toMatchObject({ references: 5, files: 2, missing: 1, dir: join(media, "selfqa") });
    expect(report.missingByBucket).toEqual({ longvt_source: 1, selfqa: 1 });
    expect(report.unknownShape.references).toBe(2);
    expect(report.unknownShape.examples.map((e) => e.path)).toEqual([
      "videos/elsewhere.mp4",
      `file://${media}/longvt_source/yt/abc.mp4`,
    ]);

    // Materializing the output again changes nothing: every path is now an unknown (local) shape.
    const again = join(dir, "again.parquet");
    const second = await materializeParquetFile({ input: output, output: again, mediaRoot: media });
    expect(second.materialized).toBe(0);
    expect(await readRows(again)).toEqual(after);
  });

  it("rewrites SFT content items and {video} items, not plain string videos; per-root directories win", async () => {
    const dir = await tempDir();
    await touchVideos(join(dir, "chunks"), ["AB12C.mp4"]);
    const run = async (videos: "string" | "struct") => {
      const input = await writeSftParquet(join(dir, `sft-${videos}.parquet`), SFT_ROWS, { videos });
      const output = join(dir, `sft-${videos}.out.parquet`);
      const report = await materializeParquetFile({
        input,
        output,
        mediaRoot: join(dir, "media"),
        roots: { "museg/charades": join(dir, "chunks") },
      });
      return { after: await readRows(output), report };
    };
    const structs = await run("struct");
    const first = structs.after[0] as { messages: { content: { video_url?: { url: string } }[] }[]; videos: unknown };
    expect(first.videos).toEqual([{ video: `file://${dir}/chunks/AB12C.mp4` }]);
    expect(first.messages[0]!.content[0]!.video_url).toEqual({ url: `file://${dir}/chunks/AB12C.mp4` });
    const second = structs.after[1] as { messages: { content: { image_url?: { url: string } }[] }[] };
    expect(second.messages[0]!.content[1]!.image_url).toEqual({ url: `file://${dir}/media/selfqa/q/001_frame.jpg` });
    expect((structs.after[2] as { videos: unknown }).videos).toEqual([{ video: "https://example.com/v.mp4" }]);
    const byRoot = Object.fromEntries(structs.report.roots.map((r) => [r.root, r]));
    expect(byRoot["museg/charades"]).toMatchObject({ dir: join(dir, "chunks"), references: 2, files: 1, missing: 0 });
    expect(byRoot.selfqa).toMatchObject({ references: 3, files: 2, missing: 2 });
    expect(structs.report.unknownShape.references).toBe(2);

    // _walk_videos rewrites dict items only: string items stay, the messages are still rewritten.
    const strings = await run("string");
    const s0 = strings.after[0] as { messages: { content: { video_url?: { url: string } }[] }[]; videos: unknown };
    expect(s0.videos).toEqual(["museg/charades/AB12C.mp4"]);
    expect(s0.messages[0]!.content[0]!.video_url).toEqual({ url: `file://${dir}/chunks/AB12C.mp4` });
    expect(strings.report.references).toBe(structs.report.references - 3);
  });

  it("writes a JSON-string messages column back as the reference's json.dumps text", async () => {
    const dir = await tempDir();
    const media = join(dir, "media");
    await touchVideos(media, PRESENT_VIDEOS);
    const rows: SftFixtureRow[] = [
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "video_url", video_url: { url: "file://longvt_source/yt/abc.mp4" } },
              { type: "text", text: "Qué pasa? 时间" },
            ],
          },
          { role: "assistant", content: [{ type: "text", text: "<answer>A</answer>" }] },
        ],
        videos: ["longvt_source/yt/abc.mp4"],
        extra_info: JSON.stringify({ answer: "A", question_type: "oe" }),
      },
    ];
    const input = await writeSftParquet(join(dir, "sft-json.parquet"), rows, { messages: "json", videos: "struct" });
    const before = await readRows(input);
    // The fixture's column is what Python's json.dumps (ensure_ascii=True) writes.
    expect(before[0]!.messages).toBe(
      '[{"role": "user", "content": [{"type": "video_url", "video_url": {"url": "file://longvt_source/yt/abc.mp4"}}, ' +
        '{"type": "text", "text": "Qu\\u00e9 pasa? \\u65f6\\u95f4"}]}, ' +
        '{"role": "assistant", "content": [{"type": "text", "text": "<answer>A</answer>"}]}]',
    );
    const output = join(dir, "sft-json.out.parquet");
    const report = await materializeParquetFile({ input, output, mediaRoot: media });
    const after = await readRows(output);
    // json.dumps(..., ensure_ascii=False): the url materialized, non-ASCII now unescaped.
    expect(after[0]!.messages).toBe(
      `[{"role": "user", "content": [{"type": "video_url", "video_url": {"url": "file://${media}/longvt_source/yt/abc.mp4"}}, ` +
        '{"type": "text", "text": "Qué pasa? 时间"}]}, ' +
        '{"role": "assistant", "content": [{"type": "text", "text": "<answer>A</answer>"}]}]',
    );
    expect(after[0]!.videos).toEqual([{ video: `file://${media}/longvt_source/yt/abc.mp4` }]);
    expect(after[0]!.extra_info).toBe(before[0]!.extra_info);
    expect(report).toMatchObject({ references: 2, materialized: 2, missingByBucket: {}, unreadable: { count: 0 } });
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
    // "selfqa/../../etc/passwd" is a sentinel path (the reference's rule) naming no file under the root.
    expect(byRoot.selfqa).toMatchObject({ references: 5, files: 2, missing: 1 });
    expect(parquet.paths.unknownShape.references).toBe(2);
    expect(res.skipped[2]!.detail).toBe(`selfqa: selfqa/../../etc/passwd leaves the media root ${media}`);
    expect(res.stats.warnings).toEqual([
      expect.stringMatching(
        /^longvt_source: 1 of 2 file\(s\) missing under .*\(first: longvt_source\/yt\/gone\.mp4\)$/,
      ),
      expect.stringMatching(/^selfqa: 1 of 2 file\(s\) missing under .*\(first: selfqa\/\.\.\/\.\.\/etc\/passwd\)$/),
      expect.stringMatching(/^unknown shape: 2 path\(s\) left as they are/),
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

  it("keeps rows whose paths are file:// sentinel forms and SFT rows whose messages are a JSON string", async () => {
    const dir = await tempDir();
    const media = join(dir, "media");
    await touchVideos(media, PRESENT_VIDEOS);
    const rl = await writeRlParquet(
      join(dir, "rl-uri.parquet"),
      [
        {
          id: "uri-1",
          prompt: [userTurn("Where is the cat?")],
          videos: [{ video: "file://longvt_source/yt/abc.mp4" }],
          extra_info: JSON.stringify({ answer: "on the sofa", question_type: "oe" }),
        },
      ],
      "string",
    );
    const r1 = await loadBenchmark({ benchmark: "paravt-parquet", dir: rl, videoDir: media });
    expect(r1.skipped).toEqual([]);
    expect(r1.samples.map((s) => [s.key, s.videoPath, s.metadata.root, s.metadata.videoRef])).toEqual([
      ["uri-1", join(media, "longvt_source/yt/abc.mp4"), "longvt_source", "file://longvt_source/yt/abc.mp4"],
    ]);

    const rows: SftFixtureRow[] = [
      { ...SFT_ROWS[0]!, videos: ["file://museg/charades/AB12C.mp4"] },
      {
        messages: [
          {
            role: "user",
            content: [
              { type: "video_url", video_url: { url: "file://selfqa/q/001.mp4" } },
              { type: "text", text: "Is it day?" },
            ],
          },
        ],
        videos: [],
        extra_info: JSON.stringify({ answer: "yes", question_type: "oe", index: 8 }),
      },
    ];
    for (const videos of ["string", "struct"] as const) {
      const sft = await writeSftParquet(join(dir, `sft-${videos}.parquet`), rows, { messages: "json", videos });
      const r2 = await loadBenchmark({ benchmark: "paravt-parquet", dir: sft, videoDir: media });
      expect(r2.skipped).toEqual([]);
      expect(r2.samples.map((s) => [s.key, s.question, s.answer, s.videoPath])).toEqual([
        ["7", "What is the person holding?", "a towel", join(media, "museg/charades/AB12C.mp4")],
        ["8", "Is it day?", "yes", join(media, "selfqa/q/001.mp4")],
      ]);
      expect(r2.stats.parquet!.rowKinds).toEqual({ rl: 0, sft: 2, other: 0 });
    }
  });

  it("skips an SFT row whose messages string is not JSON, naming why", async () => {
    const dir = await tempDir();
    await touchVideos(dir, PRESENT_VIDEOS);
    const { parquetWriteFile } = await import("hyparquet-writer");
    const file = join(dir, "broken.parquet");
    parquetWriteFile({
      filename: file,
      columnData: [
        { name: "messages", data: ['[{"role": "user"', "{}"], type: "STRING" },
        { name: "extra_info", data: [JSON.stringify({ answer: "x", question_type: "oe" }), null], type: "STRING" },
      ],
    });
    const res = await loadBenchmark({ benchmark: "paravt-parquet", dir: file });
    expect(res.skipped.map((s) => [s.row, s.reason, s.detail])).toEqual([
      [1, "invalid_field", expect.stringMatching(/^messages is a string that is not JSON \(/)],
      [2, "invalid_field", "messages is JSON but not a list of turns"],
    ]);
  });

  it("needs one .parquet file", async () => {
    const dir = await tempDir();
    await expect(loadBenchmark({ benchmark: "paravt-parquet", dir })).rejects.toThrow(/reads one \.parquet file/);
  });
});
