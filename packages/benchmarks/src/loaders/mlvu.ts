// MLVU, dev split, multiple-choice tasks (SPEC §5).
//
// Layout followed: the Hugging Face dataset MLVU/MVLU and the evaluation code of
// github.com/JUNJIE99/MLVU (video_chat/choice_bench.py): `MLVU/json/<n>_<task>.json` for the seven
// multiple-choice tasks 1_plotQA, 2_needle, 3_ego, 4_count, 5_order, 6_anomaly_reco,
// 7_topic_reasoning, each a JSON array of {video, duration, question, candidates, answer,
// question_type} where answer is the TEXT of the correct candidate; videos in
// `MLVU/video/<n>_<task>/<video>`. choice_bench.py letters candidates "(A) …" and finds the answer's
// letter by comparing texts. 8_sub_scene and 9_summary are open generation tasks outside the
// multiple-choice protocol and are not loaded. Variants accepted: the directory given may be the
// dataset root (holding MLVU/) or MLVU/ itself; a video directly in the video folder when it is not
// in its task's sub-folder.
//
// Also the copy lmms-eval and the reference evaluator download, `sy1998/MLVU_dev` (split test;
// lmms-eval tasks/mlvu/mlvu_dev.yaml, paravt/eval/utils.py::load_samples lines 336-374): parquet
// shards `test-*-of-*.parquet` (at the top or in `data/`), one row per question with video_name
// (relative to the video folder: the reference's PARAVT_MLVU_VIDEO_DIR, default `<HF_HOME>/MLVU/video`),
// question, candidates, answer (the TEXT of the correct candidate), task_type and, when present,
// duration and question_id. The reference letters the candidates from A, takes as the answer the
// first candidate whose text equals the answer (both stripped) — none is its "?" — and numbers the
// rows `<task_type>-<i>`, i the position in the dataset (all shards in order): that is the key here.
// Those samples keep the reference's question text (`metadata.reference`, ../reference-bodies.ts:
// the raw question, candidates lettered "A. …"); the MLVU/json rows, in another order, do not.

import { join } from "node:path";
import { Collector } from "../collector";
import { findDir, findShards, isRecord, pathKind, readJsonArray, readParquetRows, requireColumns } from "../files";
import { compact, layoutError, pickVideoDir, positiveNumber, shownPath, text, type LoaderContext } from "../loader-kit";
import {
  checkAnswerText,
  checkOptionTexts,
  optionLetter,
  parseInlineOptions,
  questionWithOptions,
  type Checked,
} from "../options";
import { mlvuBody } from "../reference-bodies";
import type { LoadResult } from "../schemas";
import { VideoResolver } from "../video-path";

export const MLVU_MC_TASKS = [
  "1_plotQA",
  "2_needle",
  "3_ego",
  "4_count",
  "5_order",
  "6_anomaly_reco",
  "7_topic_reasoning",
] as const;
const GENERATION_TASKS = ["8_sub_scene", "9_summary"];
const PARQUET_SHARD_RE = /^test-\d+-of-\d+\.parquet$/;

export async function loadMlvu(ctx: LoaderContext): Promise<LoadResult> {
  const jsonDir = await findDir(ctx.dir, ["json", "MLVU/json"]);
  const present: string[] = [];
  if (jsonDir !== null) {
    for (const task of MLVU_MC_TASKS) {
      if ((await pathKind(join(ctx.dir, jsonDir, `${task}.json`))) === "file") present.push(task);
    }
  }
  if (jsonDir === null || present.length === 0) {
    const shards = await findShards(ctx.dir, ["", "data"], PARQUET_SHARD_RE);
    if (shards.length) return loadDevParquet(ctx, shards);
    throw layoutError(ctx, "MLVU multiple-choice annotations", [
      "MLVU/json/1_plotQA.json …",
      "json/1_plotQA.json …",
      "test-*-of-*.parquet (sy1998/MLVU_dev)",
    ]);
  }

  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, ["video", "MLVU/video"], warnings);
  const out = new Collector("mlvu", "dev", "json", new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  const absent = MLVU_MC_TASKS.filter((t) => !present.includes(t));
  if (absent.length)
    out.warnings.push(`task files not found, not loaded: ${absent.map((t) => `${t}.json`).join(", ")}`);
  for (const t of GENERATION_TASKS) {
    if ((await pathKind(join(ctx.dir, jsonDir, `${t}.json`))) === "file") {
      out.warnings.push(
        `${t}.json is an open generation task, not part of the multiple-choice dev protocol; not loaded`,
      );
    }
  }

  for (const task of present) {
    const rel = join(jsonDir, `${task}.json`);
    const rows = await readJsonArray(join(ctx.dir, rel), rel);
    out.readFile(rel);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const n = i + 1;
      // Rows carry no id; the position in the task file is stable for a given release.
      const key = `${task}/${i}`;
      if (!isRecord(r)) {
        out.skip(rel, n, "invalid_field", "row is not an object", key);
        continue;
      }
      const video = text(r.video);
      const question = text(r.question);
      if (video === null || question === null) {
        out.skip(rel, n, "missing_field", video === null ? "no video" : "no question", key);
        continue;
      }
      const options = checkOptionTexts(r.candidates);
      if (!options.ok) {
        out.skip(rel, n, options.reason, options.detail, key);
        continue;
      }
      const answer = checkAnswerText(r.answer, options.value);
      if (!answer.ok) {
        out.skip(rel, n, answer.reason, answer.detail, key);
        continue;
      }
      const durationS = positiveNumber(r.duration);
      await out.add(rel, n, {
        key,
        video: [`${task}/${video}`, video],
        question: questionWithOptions(question, options.value, "paren"),
        options: options.value,
        answer: answer.value,
        questionType: "mcq",
        ...(durationS === undefined ? {} : { durationS }),
        metadata: compact({ task: text(r.question_type) ?? task.replace(/^\d+_/, ""), taskFile: task, video }),
      });
    }
  }
  return out.result();
}

/** The reference's answer letter: the first candidate equal to the answer text, both stripped (utils.py 357-363). */
function referenceAnswerLetter(raw: unknown, options: readonly string[]): Checked<string> {
  if (typeof raw !== "string" && typeof raw !== "number")
    return { ok: false, reason: "missing_field", detail: "no answer" };
  const wanted = String(raw).trim();
  const hit = options.findIndex((o) => o.trim() === wanted);
  if (hit < 0) {
    return {
      ok: false,
      reason: "unknown_answer",
      detail: `answer "${wanted}" is none of the candidates (the reference evaluator's answer would be "?")`,
    };
  }
  return { ok: true, value: optionLetter(hit) };
}

async function loadDevParquet(ctx: LoaderContext, shards: readonly string[]): Promise<LoadResult> {
  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, ["MLVU/video", "video", ""], warnings);
  const variant = `parquet (sy1998/MLVU_dev, ${shards.length} file${shards.length > 1 ? "s" : ""})`;
  const out = new Collector("mlvu", "dev", variant, new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  // The reference enumerates the whole dataset: i runs on across shards.
  let index = 0;
  for (const abs of shards) {
    const file = shownPath(ctx, abs);
    const rows = await readParquetRows(abs, file);
    requireColumns(rows, ["video_name", "question", "candidates", "answer", "task_type"], file);
    out.readFile(file);
    for (let i = 0; i < rows.length; i++, index++) {
      const r = rows[i]!;
      const n = i + 1;
      // Python's f"{item.get('task_type', 'mlvu')}-{i}": a null task_type prints as "None".
      const taskType = r.task_type === null ? "None" : String(r.task_type);
      const key = `${taskType}-${index}`;
      const video = text(r.video_name);
      const question = text(r.question);
      if (video === null || question === null) {
        out.skip(file, n, "missing_field", video === null ? "no video_name" : "no question", key);
        continue;
      }
      const options = checkOptionTexts(r.candidates);
      if (!options.ok) {
        out.skip(file, n, options.reason, options.detail, key);
        continue;
      }
      const answer = referenceAnswerLetter(r.answer, options.value);
      if (!answer.ok) {
        out.skip(file, n, answer.reason, answer.detail, key);
        continue;
      }
      // A question that carries its own "(A) …" lines is shown once, with the candidates' lines.
      const inline = parseInlineOptions(question);
      const stem = inline.ok ? inline.value.stem : question;
      const durationS = positiveNumber(r.duration);
      await out.add(file, n, {
        key,
        video: [video],
        question: questionWithOptions(stem, options.value, "paren"),
        options: options.value,
        answer: answer.value,
        questionType: "mcq",
        ...(durationS === undefined ? {} : { durationS }),
        reference: { dataset: "mlvu", isMcq: true, body: mlvuBody(r.question, r.candidates) },
        metadata: compact({
          referenceId: key,
          rowIndex: index,
          questionText: question,
          task: taskType,
          questionId: text(r.question_id),
          video,
        }),
      });
    }
  }
  return out.result();
}
