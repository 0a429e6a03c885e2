// The reference evaluator's question text on every sample (`metadata.reference`) and its full
// `q_text` per prompt mode (referenceQuestionText). Every expected string below is written out by
// hand from reading EvolvingLMMs-Lab/ParaVT paravt/eval/utils.py::load_samples (mcq_instr lines
// 220-225; videomme 227-253, videomme_wsub 255-290, longvideobench 293-318, lvbench 320-334, mlvu
// 336-374, mmvu 376-429, charades 431-461), utils.py::parse_srt (178-195) and
// paravt/eval/driver.py::eval_one (lines 442-444: the agentic video-path suffix). They were also
// confirmed once by running that load_samples itself (Python 3.11, `datasets.load_dataset` replaced
// by the same rows, utils.py's unrelated imports stubbed) and its parse_srt on the same SRT bytes.
// The tests do not need Python.
//
// The copies are tiny files in the column layouts of the sources load_samples reads (lmms-lab/Video-MME,
// longvideobench/LongVideoBench validation parquet, lmms-lab/LVBench, sy1998/MLVU_dev, yale-nlp/MMVU
// validation.json, lmms-lab/charades_sta; see ./reference-copies.test.ts for where each layout is read).
import { describe, expect, it } from "vitest";
import {
  loadBenchmark,
  pyReadText,
  pyStrip,
  referenceParseSrt,
  referenceQuestionText,
  ReferenceQuestionSchema,
  type ReferenceQuestion,
  type Sample,
} from "../src/index";
import { tempDir, touchVideos, write, writeParquet } from "./helpers";

const DIRECT =
  "Think step by step, use crop_video if needed, then provide your answer in <answer>X</answer> tags where X is the option letter.";
const LETTER = "Answer with the option letter only.";

const referenceOf = (s: Sample | undefined): ReferenceQuestion => ReferenceQuestionSchema.parse(s?.metadata.reference);
const byKey = (samples: readonly Sample[], key: string) => samples.find((s) => s.key === key);

describe("referenceQuestionText (driver.py::eval_one q_text)", () => {
  const mcq: ReferenceQuestion = { dataset: "lvbench", questionBody: "Q?\n(A) x\n(B) y", isMcq: true };

  it("ends mcq text with the direct instruction in direct mode, the letter instruction otherwise", () => {
    expect(referenceQuestionText(mcq, "direct", "v.mp4")).toBe(`Q?\n(A) x\n(B) y\n${DIRECT}`);
    expect(referenceQuestionText(mcq, "reasoning", "v.mp4")).toBe(`Q?\n(A) x\n(B) y\n${LETTER}`);
  });

  it("appends the video's file name in agentic modes unless the text already says video path (any case)", () => {
    expect(referenceQuestionText(mcq, "agentic_general", "abc.mp4")).toBe(
      `Q?\n(A) x\n(B) y\n${LETTER} The video path for this video is: abc.mp4`,
    );
    expect(referenceQuestionText(mcq, "agentic_minimal", "abc.mp4")).toBe(
      `Q?\n(A) x\n(B) y\n${LETTER} The video path for this video is: abc.mp4`,
    );
    const said: ReferenceQuestion = {
      dataset: "lvbench",
      questionBody: "See the Video Path: a.mp4\n(A) x",
      isMcq: true,
    };
    expect(referenceQuestionText(said, "agentic_general", "abc.mp4")).toBe(
      `See the Video Path: a.mp4\n(A) x\n${LETTER}`,
    );
    // non-agentic modes never append it
    expect(referenceQuestionText(mcq, "reasoning", "abc.mp4")).not.toContain("abc.mp4");
  });

  it("leaves a non-mcq body without an instruction", () => {
    const tvg: ReferenceQuestion = { dataset: "charades", questionBody: "Find it.", isMcq: false };
    expect(referenceQuestionText(tvg, "direct", "x.mp4")).toBe("Find it.");
    expect(referenceQuestionText(tvg, "agentic_minimal", "x.mp4")).toBe(
      "Find it. The video path for this video is: x.mp4",
    );
  });
});

describe("parse_srt port (utils.py lines 178-195)", () => {
  const srt = (s: string | Buffer) => referenceParseSrt(typeof s === "string" ? Buffer.from(s, "utf8") : s);

  it("keeps lines 3.. of blocks of 3+ lines, tags removed and stripped; drops shorter blocks", () => {
    const text = [
      '1\n00:00:01,000 --> 00:00:02,000\n<font color="white" size=".72c">Hello there</font>',
      "2\n00:00:03,000 --> 00:00:04,000\n<i>second</i> line \n   \n",
      "3\n00:00:05,000 --> 00:00:06,000",
      "orphan text",
      "4\n00:00:07,000 --> 00:00:08,000\n<>kept<b>",
    ].join("\n\n");
    // block 2: its blank-looking "   " line ends the block (\n\s*\n); block 3 and "orphan text" are too short
    expect(srt(text)).toBe("Hello there\nsecond line\n<>kept");
  });

  it("reads CRLF and lone CR as newlines (universal newlines)", () => {
    expect(srt("1\r\n00:00:01,000 --> 00:00:02,000\r\nA\r\nB\r\n\r\n2\r00:00:03,000 --> 00:00:04,000\rC\r")).toBe(
      "A\nB\nC",
    );
  });

  it("keeps a BOM (utf-8, not utf-8-sig), which Python's strip does not remove", () => {
    expect(srt("\uFEFF1\n00:00:01,000 --> 00:00:02,000\nHi")).toBe("Hi");
    // BOM alone on the first line: the block is [BOM, "1", timing, "Hi"], so the timing line is text
    expect(srt("\uFEFF\n1\n00:00:01,000 --> 00:00:02,000\nHi")).toBe("00:00:01,000 --> 00:00:02,000\nHi");
    expect(pyStrip("\uFEFF x \u0085\u001c")).toBe("\uFEFF x");
  });

  it("uses Python's whitespace for \\s and strip: \\x1c and \\x85 separate blocks, no-break space is stripped", () => {
    expect(srt("1\nt\nA\n\u001c\n2\nt\nB\u00a0")).toBe("A\nB");
    expect(srt("1\nt\n\u0085A\u0085")).toBe("A");
  });

  it("drops undecodable bytes (errors='ignore') and keeps a genuine U+FFFD", () => {
    const bytes = Buffer.concat([
      Buffer.from("1\nt\nca"),
      Buffer.from([0xff, 0xe2, 0x82]),
      Buffer.from("fe \uFFFD caf\u00e9"),
    ]);
    expect(srt(bytes)).toBe("cafe \uFFFD caf\u00e9");
    expect(pyReadText(Buffer.from([0xef, 0xbb, 0xbf, 0x41, 0x0d, 0x0a, 0x42]))).toBe("\uFEFFA\nB");
    expect(srt("")).toBe("");
  });
});

/** lmms-lab/Video-MME in the reference's HF_HOME layout (utils.py lines 227-290). */
async function videoMmeHome(): Promise<string> {
  const home = await tempDir();
  await writeParquet(home, "videomme/test-00000-of-00001.parquet", [
    { name: "video_id", kind: "string", data: ["001", "002"] },
    { name: "duration", kind: "string", data: ["short", "medium"] },
    { name: "domain", kind: "string", data: ["Knowledge", "Film & Television"] },
    { name: "sub_category", kind: "string", data: ["Humanity & History", "Animation"] },
    {
      name: "url",
      kind: "string",
      data: ["https://www.youtube.com/watch?v=vidA", "https://www.youtube.com/watch?v=vidB"],
    },
    { name: "videoID", kind: "string", data: ["vidA", "vidB"] },
    { name: "question_id", kind: "string", data: ["001-1", "002-1"] },
    { name: "task_type", kind: "string", data: ["Counting Problem", "Object Recognition"] },
    // the raw question keeps its trailing space in the reference's f-string
    { name: "question", kind: "string", data: ["How many cats appear? ", "What is red?"] },
    {
      name: "options",
      kind: "strings",
      data: [
        ["A. one", "B. two", "C. three", "D. four"],
        ["A. car", "B. hat", "C. door", "D. cup"],
      ],
    },
    { name: "answer", kind: "string", data: ["C", "A"] },
  ]);
  await touchVideos(home, ["videomme/data/vidA.mp4", "videomme/data/vidB.mp4"]);
  // vidA has subtitles (BOM, CRLF, markup, a two-line block and a block without timing); vidB has none
  await write(
    home,
    "videomme/subtitle/vidA.srt",
    '\uFEFF1\r\n00:00:01,000 --> 00:00:02,000\r\n<font color="white" size=".72c">Hello there</font>\r\n\r\n' +
      "2\r\n00:00:03,000 --> 00:00:04,000\r\n<i>second</i> line\r\nmore\r\n\r\n" +
      "3\r\n00:00:05,000 --> 00:00:06,000\r\n\r\norphan text\r\n",
  );
  return home;
}

const VIDEOMME_A = "Question: How many cats appear? \nOptions:\nA. A. one\nB. B. two\nC. C. three\nD. D. four";
const VIDEOMME_B = "Question: What is red?\nOptions:\nA. A. car\nB. B. hat\nC. C. door\nD. D. cup";

describe("Video-MME (lmms-lab/Video-MME parquet)", () => {
  it("stores the reference's body with its doubled option letters", async () => {
    const res = await loadBenchmark({ benchmark: "videomme", dir: await videoMmeHome() });
    const a = byKey(res.samples, "001-1");
    expect(referenceOf(a)).toEqual({ dataset: "videomme", questionBody: VIDEOMME_A, isMcq: true });
    // our own question text keeps one letter per option
    expect(a!.question).toBe("How many cats appear?\nA. one\nB. two\nC. three\nD. four");
    expect(referenceQuestionText(referenceOf(a), "direct", "vidA.mp4")).toBe(`${VIDEOMME_A}\n${DIRECT}`);
    expect(referenceQuestionText(referenceOf(a), "agentic_general", "vidA.mp4")).toBe(
      `${VIDEOMME_A}\n${LETTER} The video path for this video is: vidA.mp4`,
    );
    expect(res.stats.warnings).toEqual([]);
  });

  it("with subtitles: videomme_wsub, prefixed with parse_srt's text when there is any", async () => {
    const res = await loadBenchmark({ benchmark: "videomme", dir: await videoMmeHome(), subtitles: true });
    const a = byKey(res.samples, "001-1");
    const b = byKey(res.samples, "002-1");
    expect(referenceOf(a)).toEqual({
      dataset: "videomme_wsub",
      questionBody: `This video's subtitles are listed below:\nHello there\nsecond line\nmore\n\n${VIDEOMME_A}`,
      isMcq: true,
    });
    // our srtToText keeps the block without a timing line; the reference drops it
    expect(
      a!.question.startsWith("This video's subtitles are listed below:\nHello there\nsecond line\nmore\norphan text\n"),
    ).toBe(true);
    expect(referenceOf(b)).toEqual({ dataset: "videomme_wsub", questionBody: VIDEOMME_B, isMcq: true });
    expect(referenceQuestionText(referenceOf(b), "reasoning", "vidB.mp4")).toBe(`${VIDEOMME_B}\n${LETTER}`);
  });
});

describe("LongVideoBench validation", () => {
  const optionColumns = (opts: (string | null)[][]) =>
    [0, 1, 2, 3, 4].map((i) => ({ name: `option${i}`, kind: "string" as const, data: opts.map((o) => o[i]) }));

  it("parquet: option0..4 without empty / N/A ones, lettered from A", async () => {
    const dir = await tempDir();
    await writeParquet(dir, "validation-00000-of-00001.parquet", [
      { name: "video_id", kind: "string", data: ["86CxyhFV9MI"] },
      { name: "question", kind: "string", data: ["What colour is the car?"] },
      ...optionColumns([["red", "N/A", "blue", "black", ""]]),
      { name: "correct_choice", kind: "int64", data: [1] },
      { name: "duration", kind: "double", data: [512.5] },
      { name: "video_path", kind: "string", data: ["86CxyhFV9MI.mp4"] },
      { name: "id", kind: "string", data: ["86CxyhFV9MI_0"] },
    ]);
    await touchVideos(dir, ["videos/86CxyhFV9MI.mp4"]);
    const res = await loadBenchmark({ benchmark: "longvideobench", dir });
    const s = byKey(res.samples, "86CxyhFV9MI_0");
    expect(s!.answer).toBe("B");
    const body = "Question: What colour is the car?\nOptions:\nA. red\nB. blue\nC. black";
    expect(referenceOf(s)).toEqual({ dataset: "longvideobench", questionBody: body, isMcq: true });
    expect(referenceQuestionText(referenceOf(s), "agentic_minimal", "86CxyhFV9MI.mp4")).toBe(
      `${body}\n${LETTER} The video path for this video is: 86CxyhFV9MI.mp4`,
    );
  });

  it("lvb_val.json: the candidates, the same lines", async () => {
    const dir = await tempDir();
    await write(dir, "lvb_val.json", [
      {
        id: "xyz_0",
        video_id: "xyz",
        video_path: "xyz.mp4",
        question: "Which one?",
        candidates: ["yes", "no"],
        correct_choice: 0,
      },
    ]);
    await touchVideos(dir, ["videos/xyz.mp4"]);
    const res = await loadBenchmark({ benchmark: "longvideobench", dir });
    expect(referenceOf(res.samples[0]).questionBody).toBe("Question: Which one?\nOptions:\nA. yes\nB. no");
  });
});

describe("LVBench (lmms-lab/LVBench parquet)", () => {
  it("is the question as published, options inside it", async () => {
    const dir = await tempDir();
    const question = "What runs?\n(A) a cat\n(B) a dog\n(C) a bird\n(D) a fish";
    await writeParquet(dir, "train-00000-of-00001.parquet", [
      { name: "uid", kind: "string", data: ["101"] },
      { name: "video_path", kind: "string", data: ["dQw4w9WgXcQ.mp4"] },
      { name: "question", kind: "string", data: [question] },
      { name: "answer", kind: "string", data: ["B"] },
    ]);
    await touchVideos(dir, ["dQw4w9WgXcQ.mp4"]);
    const res = await loadBenchmark({ benchmark: "lvbench", dir });
    expect(referenceOf(res.samples[0])).toEqual({ dataset: "lvbench", questionBody: question, isMcq: true });
    expect(referenceQuestionText(referenceOf(res.samples[0]), "direct", "dQw4w9WgXcQ.mp4")).toBe(
      "What runs?\n(A) a cat\n(B) a dog\n(C) a bird\n(D) a fish\n" + DIRECT,
    );
  });
});

describe("MLVU", () => {
  it("sy1998/MLVU_dev parquet: the candidates lettered A. …", async () => {
    const dir = await tempDir();
    await writeParquet(dir, "test-00000-of-00001.parquet", [
      { name: "video_name", kind: "string", data: ["1_plotQA/movie_1.mp4"] },
      { name: "question", kind: "string", data: ["Who enters?"] },
      { name: "candidates", kind: "strings", data: [["Tom", "Ann", "Bob"]] },
      { name: "answer", kind: "string", data: ["Ann"] },
      { name: "task_type", kind: "string", data: ["plotQA"] },
    ]);
    await touchVideos(dir, ["MLVU/video/1_plotQA/movie_1.mp4"]);
    const res = await loadBenchmark({ benchmark: "mlvu", dir });
    const s = byKey(res.samples, "plotQA-0");
    expect(referenceOf(s)).toEqual({
      dataset: "mlvu",
      questionBody: "Question: Who enters?\nOptions:\nA. Tom\nB. Ann\nC. Bob",
      isMcq: true,
    });
    expect(s!.question).toBe("Who enters?\n(A) Tom\n(B) Ann\n(C) Bob");
  });

  it("MLVU/json rows, not in the reference's order, carry no reference text", async () => {
    const dir = await tempDir();
    await write(dir, "MLVU/json/1_plotQA.json", [
      {
        video: "movie_1.mp4",
        question: "Who enters?",
        candidates: ["Tom", "Ann"],
        answer: "Ann",
        question_type: "plotQA",
      },
    ]);
    await touchVideos(dir, ["MLVU/video/1_plotQA/movie_1.mp4"]);
    const res = await loadBenchmark({ benchmark: "mlvu", dir });
    expect(res.samples).toHaveLength(1);
    expect(res.samples[0]!.metadata.reference).toBeUndefined();
  });
});

describe("MMVU (yale-nlp/MMVU validation.json)", () => {
  const HF = "https://huggingface.co/datasets/yale-nlp/MMVU/resolve/main/videos";

  it("choices in key order, null and empty ones skipped; open-ended rows are mcq with no option lines", async () => {
    const dir = await tempDir();
    await write(dir, "validation.json", [
      {
        id: "validation_1",
        video: `${HF}/Chemistry/0.mp4`,
        question_type: "multiple-choice",
        metadata: { subject: "Chemistry" },
        question: "How many grams?",
        choices: { B: "5.0", A: "10.0", C: "12.0", D: null, E: "" },
        answer: "A",
      },
      {
        id: "validation_0",
        video: `${HF}/Art/0.mp4`,
        question_type: "open-ended",
        metadata: { subject: "Art" },
        question: "What is the technique called?",
        choices: { A: "", B: "", C: "", D: "", E: "" },
        answer: "Dolly Zoom",
      },
      {
        id: "validation_2",
        video: `${HF}/Art/0.mp4`,
        question_type: "multiple-choice",
        question: "Listed?",
        choices: ["x", "y"],
        answer: "B",
      },
    ]);
    await touchVideos(dir, ["videos/Chemistry/0.mp4", "videos/Art/0.mp4"]);
    const res = await loadBenchmark({ benchmark: "mmvu", dir });
    const mcq = byKey(res.samples, "validation_1");
    expect(referenceOf(mcq)).toEqual({
      dataset: "mmvu",
      questionBody: "Question: How many grams?\nOptions:\nA. 10.0\nB. 5.0\nC. 12.0",
      isMcq: true,
    });
    const oe = byKey(res.samples, "validation_0");
    expect(oe!.questionType).toBe("oe");
    expect(referenceOf(oe)).toEqual({
      dataset: "mmvu",
      questionBody: "Question: What is the technique called?\nOptions:\n",
      isMcq: true,
    });
    expect(referenceQuestionText(referenceOf(oe), "agentic_general", "0.mp4")).toBe(
      `Question: What is the technique called?\nOptions:\n\n${LETTER} The video path for this video is: 0.mp4`,
    );
    // choices as a list load here, but the reference's choices.items() cannot read them: no text, said why
    expect(byKey(res.samples, "validation_2")!.metadata.reference).toBeUndefined();
    expect(res.stats.warnings).toEqual([
      "1 sample(s) carry no reference-evaluator question text (metadata.reference): choices are list; the reference reads a dict (choices.items()) (1)",
    ]);
  });
});

describe("Charades-STA", () => {
  const TEMPLATE = (caption: string) =>
    "Please find the visual event described by a sentence in the video, determining its starting and ending " +
    "times. The format should be: 'The event happens in the start time - end time'. For example, The event " +
    "'person turn a light on' happens in the 24.3 - 30.4 seconds. Now I will give you the textual sentence: " +
    `"${caption}". Please return its start time and end time.`;

  it("lmms-lab/charades_sta parquet: the grounding template around the caption, no instruction", async () => {
    const dir = await tempDir();
    await writeParquet(dir, "test-00000-of-00001.parquet", [
      { name: "video", kind: "string", data: ["3MSZA.mp4", "3MSZA.mp4"] },
      { name: "caption", kind: "string", data: ["person turns on the light.", "person walks along the VIDEO PATH."] },
      {
        name: "timestamp",
        kind: "doubles",
        data: [
          [24.3, 30.4],
          [1, 5],
        ],
      },
    ]);
    await touchVideos(dir, ["Charades_v1_480/3MSZA.mp4"]);
    const res = await loadBenchmark({ benchmark: "charades_sta", dir });
    const [first, second] = res.samples.map(referenceOf);
    expect(first).toEqual({ dataset: "charades", questionBody: TEMPLATE("person turns on the light."), isMcq: false });
    expect(referenceQuestionText(first!, "direct", "3MSZA.mp4")).toBe(TEMPLATE("person turns on the light."));
    expect(referenceQuestionText(first!, "agentic_minimal", "3MSZA.mp4")).toBe(
      `${TEMPLATE("person turns on the light.")} The video path for this video is: 3MSZA.mp4`,
    );
    // the caption already says "video path" (upper case): the reference appends nothing
    expect(referenceQuestionText(second!, "agentic_minimal", "3MSZA.mp4")).toBe(
      TEMPLATE("person walks along the VIDEO PATH."),
    );
  });

  it("the TALL txt release carries no reference text", async () => {
    const dir = await tempDir();
    await write(dir, "charades_sta_test.txt", "3MSZA 24.3 30.4##person turn a light on.\n");
    await touchVideos(dir, ["Charades_v1_480/3MSZA.mp4"]);
    const res = await loadBenchmark({ benchmark: "charades_sta", dir });
    expect(res.samples).toHaveLength(1);
    expect(res.samples[0]!.metadata.reference).toBeUndefined();
  });
});
