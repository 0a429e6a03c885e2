// The real-world evaluation path end to end (issue 36 "Done when"), in the order a researcher works:
// 1. import a tiny copy of lmms-lab/Video-MME (real parquet, real H.264 videos) through the real
//    dataset.import job;
// 2. register an OpenAI-compatible endpoint: a stand-in that answers like vLLM with the qwen3
//    reasoning parser on (packages/agent/src/engines/server-standin.ts, read from vLLM's sources);
// 3. evaluate it in the reference evaluator's request style through the real eval jobs and check, on
//    the wire, that it got what EvolvingLMMs-Lab/ParaVT paravt/eval/driver.py::eval_one sends, and
//    in the rows, what we keep of it (reasoning rebuilt as <think>…</think>, every crop);
// 4. import the reference evaluator's output file for the same benchmark through the real import
//    service (rows as driver.py::_make_result and utils.py::base_result write them);
// 5. compare one sample across both runs with the service the compare page calls (evals.compare).
// Real Postgres, Redis, BullMQ workers and ffmpeg decoding; the only stand-in is the model server.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { REFERENCE_FINAL_ANSWER, REFERENCE_SYSTEM } from "@paravt/agent";
import { datasets, db, evals, evalsCompare, models, queue } from "@paravt/shared/server";
import { generateTestVideo } from "@paravt/video";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeParquet } from "../../packages/benchmarks/test/helpers";
import { startStandin, type Standin } from "../../packages/agent/src/engines/server-standin";
import { startWorkers, type RunningWorkers } from "./start-workers";
import { importReportOf, projectWithOwnerAccess } from "./test-fixtures";
import { waitForRun, waitForVideoSettled } from "./test-support";

const mediaRoot = path.join(os.tmpdir(), `paravt-refworld-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-refworld-${process.pid}`;
process.env.MEDIA_ROOTS = mediaRoot;

// ----- 1. the benchmark copy ------------------------------------------------------------------
// The reference evaluator reads lmms-lab/Video-MME (config videomme, split test) and its videos from
// `$HF_HOME/videomme/data/<videoID>.mp4` (paravt/eval/utils.py::load_samples, lines 227-253). The
// dataset repository keeps the rows in `videomme/test-00000-of-00001.parquet` (the layout
// @paravt/benchmarks loaders/videomme.ts documents) with the columns video_id, duration, domain,
// sub_category, url, videoID, question_id, task_type, question, options, answer — the fields
// lmms-eval's tasks/videomme/utils.py reads (lines 140-298 of the copy in ParaVT under
// paravt/eval/lmms-eval/) plus video_id and url; `options` is a list of strings that already carry
// their letters ("A. red": that utils.py line 160 joins them as they are). HF_HOME = <root>/hf_home.
const VID_A = "fFjv93ACGo8";
const VID_B = "pT9xQw2LmZk";
const COLOURS = ["A. red", "B. green", "C. blue", "D. black"];
const COUNTS = ["A. one", "B. two", "C. three", "D. four"];
const row = (videoID: string, n: string, question: string, options: string[], answer: string) => ({
  video_id: n.slice(0, 3),
  duration: videoID === VID_A ? "short" : "medium",
  videoID,
  question_id: n,
  question,
  options,
  answer,
});
const ROWS = [
  row(VID_A, "001-1", "What colour is the square?", COLOURS, "A"),
  row(VID_A, "001-2", "What colour is the background?", COLOURS, "B"),
  row(VID_A, "001-3", "How many squares are there?", COUNTS, "A"),
  row(VID_B, "002-1", "What moves first?", COLOURS, "C"),
  row(VID_B, "002-2", "What moves last?", COLOURS, "D"),
];

async function writeVideoMmeCopy(hfHome: string): Promise<void> {
  await writeParquet(hfHome, "videomme/test-00000-of-00001.parquet", [
    { name: "video_id", kind: "string", data: ROWS.map((r) => r.video_id) },
    { name: "duration", kind: "string", data: ROWS.map((r) => r.duration) },
    { name: "domain", kind: "string", data: ROWS.map(() => "Knowledge") },
    { name: "sub_category", kind: "string", data: ROWS.map(() => "Humanity & History") },
    { name: "url", kind: "string", data: ROWS.map((r) => `https://www.youtube.com/watch?v=${r.videoID}`) },
    { name: "videoID", kind: "string", data: ROWS.map((r) => r.videoID) },
    { name: "question_id", kind: "string", data: ROWS.map((r) => r.question_id) },
    { name: "task_type", kind: "string", data: ROWS.map(() => "Object Recognition") },
    { name: "question", kind: "string", data: ROWS.map((r) => r.question) },
    { name: "options", kind: "strings", data: ROWS.map((r) => r.options) },
    { name: "answer", kind: "string", data: ROWS.map((r) => r.answer) },
  ]);
  // 12 s at 10 fps = 120 frames of 160x90 (numbers the frame choices below are computed from).
  const video = { durationS: 12, width: 160, height: 90, fps: 10, keyframeIntervalS: 4 };
  for (const id of [VID_A, VID_B]) await generateTestVideo(path.join(hfHome, "videomme", "data", `${id}.mp4`), video);
}

/**
 * driver.py::eval_one's `q_text` for a Video-MME row in agentic_general, written out by hand:
 * load_samples (utils.py lines 237-242) prints each option as f"{chr(65 + i)}. {o}" over options that
 * already start with their letter, ends with mcq_instr ("Answer with the option letter only." in
 * every mode but direct, lines 220-225); eval_one (driver.py lines 442-444) appends the file name.
 */
const Q_TEXT: Record<string, string> = {
  "001-1":
    "Question: What colour is the square?\nOptions:\nA. A. red\nB. B. green\nC. C. blue\nD. D. black\n" +
    "Answer with the option letter only. The video path for this video is: fFjv93ACGo8.mp4",
  "001-2":
    "Question: What colour is the background?\nOptions:\nA. A. red\nB. B. green\nC. C. blue\nD. D. black\n" +
    "Answer with the option letter only. The video path for this video is: fFjv93ACGo8.mp4",
  "001-3":
    "Question: How many squares are there?\nOptions:\nA. A. one\nB. B. two\nC. C. three\nD. D. four\n" +
    "Answer with the option letter only. The video path for this video is: fFjv93ACGo8.mp4",
  "002-1":
    "Question: What moves first?\nOptions:\nA. A. red\nB. B. green\nC. C. blue\nD. D. black\n" +
    "Answer with the option letter only. The video path for this video is: pT9xQw2LmZk.mp4",
  "002-2":
    "Question: What moves last?\nOptions:\nA. A. red\nB. B. green\nC. C. blue\nD. D. black\n" +
    "Answer with the option letter only. The video path for this video is: pT9xQw2LmZk.mp4",
};

// ----- 2. the model: what it generates, per question and turn ---------------------------------
const crop = (s: number, e: number, video = `${VID_A}.mp4`) =>
  `<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "${video}", "start_time": ${s}, "end_time": ${e}}}\n</tool_call>`;
const SCRIPT: Record<string, string[]> = {
  // Two crops in parallel, one more round, then the forced final answer (a bare letter: with the
  // qwen3 parser and no </think>, vLLM returns it all as `reasoning`, content null).
  "001-1": [
    `<think>The square shows twice.</think>\n${crop(2, 6)}\n${crop(8, 10)}`,
    `<think>Once more.</think>\n${crop(2, 6)}`,
    "A",
  ],
  "001-2": ["<think>The background is green.</think><answer>B</answer>"],
  "001-3": [`<think>Count them.</think>\n${crop(2, 6)}`, "<think>Three, I think.</think><answer>C</answer>"],
  "002-1": ["<answer>C</answer>"],
  "002-2": ["<think>The black one moves last.</think>\n<answer>D</answer>"],
};

interface TextItem {
  type: "text";
  text: string;
}
interface ImageItem {
  type: "image_url";
  image_url: { url: string };
}
interface WireMessage {
  role: string;
  content: string | (TextItem | ImageItem)[];
}
interface WireBody {
  model: string;
  messages: WireMessage[];
  max_tokens: number;
  temperature: number;
}

/** The question id a request is about, from the first user turn's text (its q_text). */
function questionIdOf(body: WireBody): string {
  const first = body.messages.find((m) => m.role === "user")!;
  const text = (first.content as (TextItem | ImageItem)[]).find((i): i is TextItem => i.type === "text")!.text;
  const id = Object.keys(Q_TEXT).find((k) => Q_TEXT[k] === text);
  if (!id) throw new Error(`the stand-in got a question it has no script for: ${JSON.stringify(text)}`);
  return id;
}

/** Data-URL images reduced to "image/jpeg WxH" (from the JPEG's SOF header), to compare bodies. */
function reduceImages(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (k, v: unknown) => {
    if (k !== "url" || typeof v !== "string" || !v.startsWith("data:")) return v;
    const m = /^data:(image\/\w+);base64,(.*)$/.exec(v)!;
    const jpeg = Buffer.from(m[2]!, "base64");
    for (let i = 2; i < jpeg.length - 9;) {
      const marker = jpeg.readUInt16BE(i);
      if (marker === 0xffc0 || marker === 0xffc2)
        return `${m[1]} ${jpeg.readUInt16BE(i + 7)}x${jpeg.readUInt16BE(i + 5)}`;
      i += 2 + jpeg.readUInt16BE(i + 2);
    }
    throw new Error("no SOF marker in a JPEG the stand-in received");
  });
}

const images = (n: number, size: string) =>
  Array.from({ length: n }, () => ({ type: "image_url", image_url: { url: `image/jpeg ${size}` } }));

// qwen-vl-utils vision_process.py (0.0.14, as @paravt/video reference-sampling.ts cites it), for a
// 120-frame 160x90 video at 10 fps:
// - overview `get_frames(nframes=8)`: torch.linspace(0, 119, 8).round() = 0, 17, …, 119 (step 17),
//   i.e. 0.0 … 11.9 s; size smart_resize(90, 160, 28, 128*28², …): 14,400 pixels < 100,352, scaled by
//   sqrt(100352 / 14400) and ceiled to multiples of 28 -> 448x252;
// - crop [2, 6] (`crop_frames`: fps 1, min_frames 1, max_frames 16): frames ceil(20) .. floor(60),
//   41 frames = 4.1 s -> smart_nframes floors to an even 4: linspace(20, 60, 4).round() = 20, 33, 47,
//   60; crop [8, 10]: frames 80 .. 100, 2.1 s -> 2: 80, 100. Crop size within 784 .. 50,176 pixels:
//   round(90 / 28) * 28 = 84, round(160 / 28) * 28 = 168 -> 168x84.
const OVERVIEW = "448x252";
const CROP = "168x84";
const OVERVIEW_TIMES = [0, 1.7, 3.4, 5.1, 6.8, 8.5, 10.2, 11.9];

const system = { role: "system", content: REFERENCE_SYSTEM.agentic_general };
const firstTurn = (id: string) => ({
  role: "user",
  content: [...images(8, OVERVIEW), { type: "text", text: Q_TEXT[id] }],
});
const cropTurn = (n: number, s: string, e: string) => ({
  role: "user",
  content: [
    ...images(n, CROP),
    { type: "text", text: `<tool_response>\n${n} frames from ${s}s to ${e}s.\n</tool_response>` },
  ],
});

// ----- 4. the reference evaluator's output for the same benchmark -----------------------------
// `{summary, results}` as paravt/eval/utils.py::run_dataset writes `<output_dir>/videomme.json`
// (lines 687-751). Answer rows are driver.py::_make_result's (lines 320-337: id = videoID for
// Video-MME, answer, pred, correct, tool_calls, score, full_response = final[:500], then `duration`
// because load_samples puts it on every Video-MME sample); a failed sample is utils.py::base_result
// (lines 198-207) + `error` (driver.py line 440 here: the video was missing on the machine that ran
// it). Row 4 is driver.py line 475: the request failed after a tool round, so `final` is
// "[API error: …]" and _score's extract_letter read its first character. The reference ran the full
// benchmark: the last row is a video our tiny copy does not have.
const answerRow = (id: string, answer: string, pred: string, toolCalls: number, final: string, duration: string) => ({
  id,
  answer,
  pred,
  correct: pred === answer,
  tool_calls: toolCalls,
  score: pred === answer ? 1.0 : 0.0,
  full_response: final.slice(0, 500),
  duration,
});
const REFERENCE_FILE = {
  summary: {
    dataset: "videomme",
    total: 6,
    errors: 1,
    avg_tool_calls: 4 / 6,
    tool_usage_rate: 3 / 6,
    elapsed: 812.4,
    nframes: 64,
    accuracy: 3 / 6,
    mcq_total: 6,
    acc_short: 2 / 3,
    n_short: 3,
    acc_medium: 0,
    n_medium: 1,
    acc_long: 1,
    n_long: 1,
  },
  results: [
    answerRow(VID_A, "A", "A", 2, "<think>Red, in both crops.</think><answer>A</answer>", "short"),
    answerRow(VID_A, "B", "C", 0, "<think>It looks blue.</think><answer>C</answer>", "short"),
    answerRow(VID_A, "A", "A", 0, "<answer>A</answer>", "short"),
    answerRow(VID_B, "C", "[", 1, "[API error: Connection error.]", "medium"),
    {
      id: VID_B,
      answer: "D",
      pred: "",
      correct: false,
      tool_calls: 0,
      score: 0.0,
      error: "video not found: /root/.cache/huggingface/videomme/data/pT9xQw2LmZk.mp4",
    },
    answerRow("kZ3vQ9mB2xw", "B", "B", 1, "<answer>B</answer>", "long"),
  ],
};

// ----- the test ---------------------------------------------------------------------------------
let workers: RunningWorkers;
let standin: Standin;

beforeAll(async () => {
  await writeVideoMmeCopy(path.join(mediaRoot, "hf_home"));
  standin = await startStandin({
    flavor: "vllm",
    reasoningParser: true,
    // A request the script does not expect gets a text saying so (a throw here would leave the
    // request unanswered): the run's answers and the body checks below then fail with it.
    generate: (raw) => {
      const body = raw as unknown as WireBody;
      let id: string;
      try {
        id = questionIdOf(body);
      } catch (err) {
        return { text: `unscripted request: ${(err as Error).message}` };
      }
      const turn = body.messages.filter((m) => m.role === "assistant").length;
      return { text: SCRIPT[id]![turn] ?? `unscripted turn ${turn} of ${id}` };
    },
  });
  workers = startWorkers({ queues: ["cpu"], concurrency: 2, quiet: true });
}, 120_000);

afterAll(async () => {
  await workers?.close();
  await standin?.close();
  await queue("cpu").obliterate({ force: true });
  await evals.closeEvalFlows();
  await fs.rm(mediaRoot, { recursive: true, force: true });
});

describe("the reference world end to end", () => {
  it(
    "imports a Video-MME copy, evaluates a vLLM-shaped server in the reference request style, imports the reference output, and compares both",
    { timeout: 240_000 },
    async () => {
      const { access } = await projectWithOwnerAccess();

      // 1. The benchmark copy through the dataset.import job; its videos probed by the real jobs.
      const imported = await datasets.importBenchmark(access, {
        name: "Video-MME (reference copy)",
        benchmark: "videomme",
        path: path.join(mediaRoot, "hf_home"),
        subtitles: false,
      });
      expect((await waitForRun(imported.runId)).message).toBe("5 samples, 0 skipped, 2 videos (2 new)");
      expect(await importReportOf(imported.dataset.id)).toMatchObject({ rows: 5, loaded: 5, skipped: 0 });
      const samples = await db().sample.findMany({
        where: { datasetId: imported.dataset.id },
        orderBy: { key: "asc" },
      });
      expect(samples.map((s) => [s.key, s.answer, (s.metadata as { referenceId: string }).referenceId])).toEqual([
        ["001-1", "A", VID_A],
        ["001-2", "B", VID_A],
        ["001-3", "A", VID_A],
        ["002-1", "C", VID_B],
        ["002-2", "D", VID_B],
      ]);
      for (const videoId of new Set(samples.map((s) => s.videoId!))) {
        expect((await waitForVideoSettled(videoId)).status).toBe("READY");
      }
      const sampleId = (key: string) => samples.find((s) => s.key === key)!.id;

      // 2. The endpoint: vLLM with `--reasoning-parser qwen3`, serving the model under its HF name.
      // (The models service, as the Models page calls it; its probe is tested on its own.)
      const endpoint = await models.createModel(access, {
        name: "ParaVT-8B (vLLM)",
        config: { kind: "OPENAI_COMPATIBLE", baseUrl: standin.baseUrl, servedModel: "ParaVT/ParaVT-8B" },
      });

      // 3. The evaluation in the reference request style (the driver's defaults but K = 8, 2 rounds).
      const launched = await evals.launchEval(access, {
        name: "reference world",
        modelIds: [endpoint.id],
        datasetIds: [imported.dataset.id],
        modes: ["agentic_general"],
        ks: [8],
        knobs: {
          temperature: 0,
          maxTokens: 2048,
          maxTurns: 2,
          maxParallel: 5,
          thinkPrefix: false,
          dispatch: "evaluator",
          requestStyle: "reference",
          videoChannel: "image_url",
          subtitles: false,
        },
        shardSize: 2,
      });
      const ours = launched.runs[0]!;
      const run = await waitForRun(ours.id, 180_000);
      expect(run).toMatchObject({ status: "SUCCEEDED", error: null });
      expect(run.message).toBe("5 samples · accuracy 80.0% · 0 errors");

      // On the wire: exactly what driver.py::eval_one sends (images reduced to mime and size).
      const bodies = standin.requests.map((b) => reduceImages(b) as WireBody);
      const of = (id: string) => bodies.filter((b) => questionIdOf(b) === id);
      expect(bodies).toHaveLength(3 + 1 + 2 + 1 + 1);
      const [q1a, q1b, q1c] = of("001-1");
      // driver.py _completion_with_retry: model, messages, max_tokens, temperature — nothing else.
      // The first user turn: bare overview frames (no text between them), then q_text, the text
      // load_samples + eval_one build, byte for byte.
      expect(q1a).toEqual({
        model: "ParaVT/ParaVT-8B",
        messages: [system, firstTurn("001-1")],
        max_tokens: 2048,
        temperature: 0,
      });
      // The assistant turn replayed as generated: vLLM split the <think> block off into `reasoning`
      // and the engine put it back; each crop is a user turn of its frames and the driver's text.
      const round1 = [
        { role: "assistant", content: SCRIPT["001-1"]![0] },
        cropTurn(4, "2.0", "6.0"),
        cropTurn(2, "8.0", "10.0"),
      ];
      expect(q1b).toEqual({
        model: "ParaVT/ParaVT-8B",
        messages: [system, firstTurn("001-1"), ...round1],
        max_tokens: 2048,
        temperature: 0,
      });
      // After the last tool round (turn == max_turns - 1), a SEPARATE user turn asks for the letter
      // with 64 tokens (driver.py lines 520-535).
      expect(q1c).toEqual({
        model: "ParaVT/ParaVT-8B",
        messages: [
          system,
          firstTurn("001-1"),
          ...round1,
          { role: "assistant", content: SCRIPT["001-1"]![1] },
          cropTurn(4, "2.0", "6.0"),
          { role: "user", content: REFERENCE_FINAL_ANSWER.mcq },
        ],
        max_tokens: 64,
        temperature: 0,
      });
      expect(REFERENCE_FINAL_ANSWER.mcq).toBe(
        "Based on the video and cropped segments above, answer with ONLY the letter.",
      );
      for (const id of ["001-2", "002-1", "002-2"]) {
        expect(of(id)).toEqual([
          { model: "ParaVT/ParaVT-8B", messages: [system, firstTurn(id)], max_tokens: 2048, temperature: 0 },
        ]);
      }

      // In the rows: what the reference loses (SPEC §5) is kept — every turn, the reasoning, the crops.
      const episodes = await db().episode.findMany({
        where: { runId: ours.id },
        include: {
          sample: true,
          turns: { include: { toolCalls: { orderBy: { index: "asc" } } }, orderBy: { index: "asc" } },
        },
      });
      const ep = (key: string) => episodes.find((e) => e.sample.key === key)!;
      expect(
        episodes.map((e) => [e.sample.key, e.status, e.prediction, e.correct, e.score, e.toolCallCount]).sort(),
      ).toEqual([
        ["001-1", "OK", "A", true, 1, 3],
        ["001-2", "OK", "B", true, 1, 0],
        ["001-3", "OK", "C", false, 0, 1],
        ["002-1", "OK", "C", true, 1, 0],
        ["002-2", "OK", "D", true, 1, 0],
      ]);
      const q1 = ep("001-1");
      expect(q1.overviewTimestamps).toEqual(OVERVIEW_TIMES);
      expect(q1.turns.map((t) => [t.rawText, t.forcedFinal])).toEqual([
        [SCRIPT["001-1"]![0], false],
        [SCRIPT["001-1"]![1], false],
        ["A", true],
      ]);
      const notes = q1.turns.map((t) => (t.timings as { engineNotes?: string[] }).engineNotes);
      expect(notes).toEqual([
        ["reasoning from `reasoning` rebuilt into <think>…</think>"],
        ["reasoning from `reasoning` rebuilt into <think>…</think>"],
        ["the whole output came as `reasoning` (no </think>, the turn ended by itself): kept as plain text"],
      ]);
      expect(q1.turns[0]!.toolCalls.map((c) => [c.status, c.startS, c.endS, c.frameTimestamps])).toEqual([
        ["OK", 2, 6, [2, 3.3, 4.7, 6]],
        ["OK", 8, 10, [8, 10]],
      ]);
      expect(q1.turns[0]!.toolCalls.map((c) => (c.details as { response: string }).response)).toEqual([
        "<tool_response>\n4 frames from 2.0s to 6.0s.\n</tool_response>",
        "<tool_response>\n2 frames from 8.0s to 10.0s.\n</tool_response>",
      ]);
      expect(ep("002-1").turns.map((t) => t.rawText)).toEqual(["<answer>C</answer>"]);

      // 4. The reference output for the same benchmark, into the same group (one matrix).
      const paper = await models.createModel(access, {
        name: "ParaVT-8B (reference run)",
        config: { kind: "EXTERNAL", description: "paravt/eval/driver.py output" },
      });
      const report = await evals.importReference(access, {
        name: "ParaVT-8B reference output",
        datasetId: imported.dataset.id,
        modelId: paper.id,
        mode: "agentic_general",
        k: 64,
        groupId: launched.group.id,
        file: REFERENCE_FILE,
      });
      // Rows 1 and 3 name fFjv93ACGo8 with answer A: two of its questions have A, the row does not
      // say which (ambiguous); row 2's answer B picks 001-2 among the video's three questions.
      expect(report).toMatchObject({
        rows: 6,
        matched: 3,
        errors: 2,
        errorKinds: { rowError: 1, apiError: 1 },
        skipped: 3,
        skippedByReason: { ambiguous: 2, unmatched: 1 },
        unmatched: ["kZ3vQ9mB2xw"],
        unmatchedCount: 1,
        duplicates: [],
        group: launched.group,
      });
      expect(report.skippedRows.map((r) => [r.index, r.id, r.reason])).toEqual([
        [0, VID_A, "ambiguous"],
        [2, VID_A, "ambiguous"],
        [5, "kZ3vQ9mB2xw", "unmatched"],
      ]);
      expect(report.run.message).toBe("Imported 3 of 6 rows (2 errors); skipped 3: 2 ambiguous, 1 unmatched");
      const theirs = report.run.id;

      // 5. The comparison page's query (evals.compare) for one sample and both runs.
      const compare = (key: string) =>
        evalsCompare.compareSample(access, { sampleId: sampleId(key), runIds: [ours.id, theirs] });
      const q12 = await compare("001-2");
      expect(q12.sample).toMatchObject({ key: "001-2", answer: "B", datasetName: "Video-MME (reference copy)" });
      expect(
        q12.columns.map((c) => [
          c.run.id,
          c.run.imported,
          c.episode?.status,
          c.episode?.prediction,
          c.episode?.correct,
        ]),
      ).toEqual([
        [ours.id, false, "OK", "B", true],
        [theirs, true, "OK", "C", false],
      ]);
      // Ours with its trajectory; theirs with what the reference kept (the first 500 characters).
      expect(q12.columns[0]!.episode!.turns.map((t) => t.rawText)).toEqual([SCRIPT["001-2"]![0]]);
      expect(q12.columns[1]!.episode).toMatchObject({
        finalText: "<think>It looks blue.</think><answer>C</answer>",
        turns: [],
        toolCallCount: 0,
      });

      const q21 = await compare("002-1");
      expect(q21.columns[0]!.episode).toMatchObject({ status: "OK", prediction: "C", correct: true });
      // The dropped connection is an ERROR with its reason, not the wrong answer "[" it was scored as.
      expect(q21.columns[1]!.episode).toMatchObject({
        status: "ERROR",
        error: "[API error: Connection error.]",
        prediction: "[",
        correct: null,
        score: null,
        toolCallCount: 1,
      });

      const q11 = await compare("001-1");
      expect(q11.columns[0]!.episode!.turns.map((t) => t.toolCalls.length)).toEqual([2, 1, 0]);
      expect(q11.columns[0]!.toolCalls).toBe(3);
      // An ambiguous row is stored nowhere: the reference run has no answer on this sample.
      expect(q11.columns[1]!.episode).toBeNull();

      // The summaries side by side: ours from our rows, theirs from the imported rows.
      const summaries = await Promise.all([ours.id, theirs].map((id) => evals.getEvalRun(access, id)));
      expect(summaries.map((s) => [s.summary.stored, s.summary.answered, s.summary.errors, s.summary.mcq])).toEqual([
        [5, 5, 0, { n: 5, correct: 4, accuracy: 0.8 }],
        [3, 1, 2, { n: 1, correct: 0, accuracy: 0 }],
      ]);
      // Video-MME by duration, from the copy's `duration` column (SPEC §5).
      expect(summaries[0]!.summary.byDuration).toEqual({
        short: { n: 3, correct: 2, accuracy: 2 / 3 },
        medium: { n: 2, correct: 2, accuracy: 1 },
        long: { n: 0, correct: 0, accuracy: null },
      });
    },
  );
});
