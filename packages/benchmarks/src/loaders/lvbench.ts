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

import { join } from "node:path";
import { Collector } from "../collector";
import { findFile, isRecord, readJsonLines } from "../files";
import { compact, layoutError, pickVideoDir, positiveNumber, text, type LoaderContext } from "../loader-kit";
import { checkAnswerLetter, parseInlineOptions, questionWithOptions } from "../options";
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

export async function loadLvBench(ctx: LoaderContext): Promise<LoadResult> {
  const rel = await findFile(ctx.dir, FILES);
  if (rel === null) throw layoutError(ctx, "LVBench annotations", FILES);
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
        metadata: compact({
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
