// LVBench (SPEC §5; one published split, loaded as "test").
//
// Layout followed: github.com/THUDM/LVBench (README "Download", scripts/, lvbench/metrics/
// compute_accuracy.py) and the Hugging Face dataset THUDM/LVBench: `video_info.meta.jsonl`, one
// line per video with key (the YouTube id the videos are downloaded and named by), type (video
// category), video_info (duration_minutes, fps, resolution) and qa, a list of questions with uid,
// question (the options follow the question as "(A) …" lines), answer (a letter), question_type
// (list of the six capability names) and time_reference ("MM:SS-MM:SS"). Variants accepted: the file
// at the top or in `data/` (the GitHub layout); videos `<key>.mp4` in `videos/`, `all_videos/` (the
// Hugging Face zip) or `video/`; video_info.duration in seconds instead of duration_minutes.
//
// Also the copy lmms-eval and the reference evaluator download, `lmms-lab/LVBench` (split train;
// lmms-eval tasks/lvbench/lvbench.yaml + utils.py, paravt/eval/utils.py::load_samples lines
// 320-334): parquet shards `train-*-of-*.parquet` (at the top or in `data/`), one row per question
// with uid (the reference's row id), video_path (relative to the dataset's folder; both readers join
// it to their cache directory), question (options inside, as above), answer (a letter) and, when
// present, key, type, question_type, time_reference, options. The reference sends the question text
// as it is; lmms-eval appends `options` as "(A) …" lines when the column is there, so options are read
// from the question, else from `options`. Each sample keeps the reference's question text
// (`metadata.reference`, ../reference-bodies.ts): the raw `question`, in both layouts (the parquet
// is a per-question copy of video_info.meta.jsonl's qa entries, keyed by the same uid).

import { join } from "node:path";
import { Collector } from "../collector";
import { findFile, findShards, isRecord, readJsonLines, readParquetRows, requireColumns } from "../files";
import { compact, layoutError, pickVideoDir, positiveNumber, shownPath, text, type LoaderContext } from "../loader-kit";
import { checkAnswerLetter, checkOptionTexts, parseInlineOptions, questionWithOptions, type Checked } from "../options";
import { lvBenchBody } from "../reference-bodies";
import type { LoadResult } from "../schemas";
import { VideoResolver, withExtensions } from "../video-path";

const FILES = ["video_info.meta.jsonl", "data/video_info.meta.jsonl"];

function durationOf(info: unknown): number | undefined {
  if (!isRecord(info)) return undefined;
  const seconds = positiveNumber(info.duration);
  if (seconds !== undefined) return seconds;
  const minutes = positiveNumber(info.duration_minutes);
  return minutes === undefined ? undefined : minutes * 60;
}

const PARQUET_SHARD_RE = /^train-\d+-of-\d+\.parquet$/;

export async function loadLvBench(ctx: LoaderContext): Promise<LoadResult> {
  const rel = await findFile(ctx.dir, FILES);
  if (rel === null) {
    const shards = await findShards(ctx.dir, ["", "data"], PARQUET_SHARD_RE);
    if (shards.length) return loadLmmsLabParquet(ctx, shards);
    throw layoutError(ctx, "LVBench annotations", [...FILES, "train-*-of-*.parquet (lmms-lab/LVBench)"]);
  }
  const lines = await readJsonLines(join(ctx.dir, rel), rel);

  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, ["videos", "all_videos", "video"], warnings);
  const out = new Collector("lvbench", "test", "jsonl", new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  out.readFile(rel);

  for (const { line, value } of lines) {
    const videoKey = isRecord(value) ? text(value.key) : null;
    if (!isRecord(value) || videoKey === null || !Array.isArray(value.qa)) {
      out.skip(rel, line, "missing_field", "video line without key or qa list");
      continue;
    }
    const durationS = durationOf(value.video_info);
    for (const qa of value.qa) {
      if (!isRecord(qa)) {
        out.skip(rel, line, "invalid_field", `a qa entry of video ${videoKey} is not an object`);
        continue;
      }
      const key = text(qa.uid);
      if (key === null) {
        out.skip(rel, line, "missing_field", `a question of video ${videoKey} has no uid`);
        continue;
      }
      const raw = text(qa.question);
      if (raw === null) {
        out.skip(rel, line, "missing_field", "no question", key);
        continue;
      }
      const parsed = parseInlineOptions(raw);
      if (!parsed.ok) {
        out.skip(rel, line, parsed.reason, parsed.detail, key);
        continue;
      }
      const answer = checkAnswerLetter(qa.answer, parsed.value.options.length);
      if (!answer.ok) {
        out.skip(rel, line, answer.reason, answer.detail, key);
        continue;
      }
      const types = Array.isArray(qa.question_type) ? qa.question_type.filter((t) => typeof t === "string") : [];
      await out.add(rel, line, {
        key,
        video: withExtensions(videoKey),
        question: questionWithOptions(parsed.value.stem, parsed.value.options, "paren"),
        options: parsed.value.options,
        answer: answer.value,
        questionType: "mcq",
        ...(durationS === undefined ? {} : { durationS }),
        reference: { dataset: "lvbench", isMcq: true, body: lvBenchBody(qa.question) },
        metadata: compact({
          referenceId: key,
          questionText: raw,
          videoKey,
          videoType: text(value.type),
          questionTypes: types.length ? types : undefined,
          timeReference: text(qa.time_reference),
        }),
      });
    }
  }
  return out.result();
}

/** Options written into the question ("(A) …" lines), else the `options` column. */
function optionsOf(question: string, column: unknown): Checked<{ stem: string; options: string[] }> {
  const inline = parseInlineOptions(question);
  if (inline.ok || column === null || column === undefined) return inline;
  const listed = checkOptionTexts(column);
  return listed.ok ? { ok: true, value: { stem: question, options: listed.value } } : listed;
}

async function loadLmmsLabParquet(ctx: LoaderContext, shards: readonly string[]): Promise<LoadResult> {
  const warnings: string[] = [];
  // Both readers join video_path to the dataset's own folder.
  const videoDir = await pickVideoDir(ctx, [""], warnings);
  const variant = `parquet (lmms-lab/LVBench, ${shards.length} file${shards.length > 1 ? "s" : ""})`;
  const out = new Collector("lvbench", "test", variant, new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  for (const abs of shards) {
    const file = shownPath(ctx, abs);
    const rows = await readParquetRows(abs, file);
    requireColumns(rows, ["uid", "video_path", "question", "answer"], file);
    out.readFile(file);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const n = i + 1;
      const key = text(r.uid);
      if (key === null) {
        out.skip(file, n, "missing_field", "no uid");
        continue;
      }
      const raw = text(r.question);
      const videoPath = text(r.video_path);
      if (raw === null || videoPath === null) {
        out.skip(file, n, "missing_field", raw === null ? "no question" : "no video_path", key);
        continue;
      }
      const parsed = optionsOf(raw, r.options);
      if (!parsed.ok) {
        out.skip(file, n, parsed.reason, parsed.detail, key);
        continue;
      }
      const answer = checkAnswerLetter(r.answer, parsed.value.options.length);
      if (!answer.ok) {
        out.skip(file, n, answer.reason, answer.detail, key);
        continue;
      }
      const types = Array.isArray(r.question_type) ? r.question_type.filter((t) => typeof t === "string") : [];
      const durationS = durationOf(r.video_info);
      await out.add(file, n, {
        key,
        video: [videoPath],
        question: questionWithOptions(parsed.value.stem, parsed.value.options, "paren"),
        options: parsed.value.options,
        answer: answer.value,
        questionType: "mcq",
        ...(durationS === undefined ? {} : { durationS }),
        reference: { dataset: "lvbench", isMcq: true, body: lvBenchBody(r.question) },
        metadata: compact({
          referenceId: key,
          questionText: raw,
          videoKey: text(r.key),
          videoType: text(r.type),
          questionTypes: types.length ? types : undefined,
          timeReference: text(r.time_reference),
          videoRef: videoPath,
        }),
      });
    }
  }
  return out.result();
}
