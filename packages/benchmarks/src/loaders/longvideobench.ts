// LongVideoBench, validation split (SPEC §5). The test split ships without answers
// (`lvb_test_wo_gt.json`) and is not loadable.
//
// Layout followed: the release on Hugging Face, longvideobench/LongVideoBench, and its dataloader
// (github.com/longvideobench/LongVideoBench, longvideobench/longvideobench_dataset.py):
// `lvb_val.json`, a JSON array of questions with id ("86CxyhFV9MI_0"), video_id, video_path
// ("86CxyhFV9MI.mp4", relative to `videos/`, unpacked from videos.tar.part.*), question,
// candidates (list of option texts), correct_choice (0-based index), duration (seconds),
// duration_group (15 / 60 / 600 / 3600), question_category, topic_category, level, position,
// subtitle_path, starting_timestamp_for_subtitles. The dataloader letters options "A. …".
// Variant accepted: `validation-00000-of-00001.parquet` of the same repository, the copy that
// `datasets.load_dataset("longvideobench/LongVideoBench", split="validation")` reads (lmms-eval
// tasks/longvideobench, and the reference evaluator paravt/eval/utils.py::load_samples, lines 293-318).
// It has no `candidates`: the options are the columns option0 … option4, unused ones "N/A". The
// reference keeps option i when it is neither empty nor "N/A" and letters the kept ones from A;
// `correct_choice` indexes that kept list (a negative one is its "?"); its row id is `id`. Each
// sample keeps the reference's question text (`metadata.reference`, ../reference-bodies.ts) built
// from the raw question and options; for `lvb_val.json` from `candidates`, which are the parquet's
// option columns before their "N/A" padding (lmms-eval's longvideobench/utils.py reads the parquet
// the same way: option i unless "N/A").

import { join } from "node:path";
import { Collector } from "../collector";
import { findFile, isRecord, readJsonArray, readParquetRows, requireColumns } from "../files";
import { compact, layoutError, pickVideoDir, positiveNumber, text, type LoaderContext } from "../loader-kit";
import { checkAnswerIndex, checkOptionTexts, questionWithOptions } from "../options";
import { longVideoBenchBody } from "../reference-bodies";
import type { LoadResult } from "../schemas";
import { VideoResolver, withExtensions } from "../video-path";

const FILES = ["lvb_val.json", "validation-00000-of-00001.parquet"];
const OPTION_COLUMNS = ["option0", "option1", "option2", "option3", "option4"];

/** The parquet's option columns as the reference reads them: kept when neither empty nor "N/A". */
function optionColumns(r: Record<string, unknown>): unknown[] {
  return OPTION_COLUMNS.map((c) => r[c]).filter((o) => o !== null && o !== undefined && o !== "" && o !== "N/A");
}

export async function loadLongVideoBench(ctx: LoaderContext): Promise<LoadResult> {
  const rel = await findFile(ctx.dir, FILES);
  if (rel === null) throw layoutError(ctx, "LongVideoBench validation annotations", FILES);
  const abs = join(ctx.dir, rel);
  let rows: unknown[];
  let variant = "json";
  if (rel.endsWith(".json")) rows = await readJsonArray(abs, rel);
  else {
    const table = await readParquetRows(abs, rel);
    // The Hugging Face parquet has option0..option4; a re-export of lvb_val.json keeps `candidates`.
    const withCandidates = table.length > 0 && "candidates" in table[0]!;
    requireColumns(
      table,
      ["id", "question", "correct_choice", ...(withCandidates ? ["candidates"] : OPTION_COLUMNS)],
      rel,
    );
    rows = table;
    variant = withCandidates ? "parquet (candidates)" : "parquet (option0..option4)";
  }

  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, ["videos", "video"], warnings);
  const out = new Collector("longvideobench", "validation", variant, new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  out.readFile(rel);

  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const n = i + 1;
    if (!isRecord(r)) {
      out.skip(rel, n, "invalid_field", "row is not an object");
      continue;
    }
    const key = text(r.id);
    if (key === null) {
      out.skip(rel, n, "missing_field", "no id");
      continue;
    }
    const question = text(r.question);
    const videoId = text(r.video_id);
    const videoPath = text(r.video_path);
    if (question === null || (videoId === null && videoPath === null)) {
      out.skip(rel, n, "missing_field", question === null ? "no question" : "no video_path or video_id", key);
      continue;
    }
    const options = checkOptionTexts("candidates" in r ? r.candidates : optionColumns(r));
    if (!options.ok) {
      out.skip(rel, n, options.reason, options.detail, key);
      continue;
    }
    const answer = checkAnswerIndex(r.correct_choice, options.value.length);
    if (!answer.ok) {
      out.skip(rel, n, answer.reason, answer.detail, key);
      continue;
    }
    const durationS = positiveNumber(r.duration);
    await out.add(rel, n, {
      key,
      video: [...(videoPath ? [videoPath] : []), ...(videoId ? withExtensions(videoId) : [])],
      question: questionWithOptions(question, options.value, "dot"),
      options: options.value,
      answer: answer.value,
      questionType: "mcq",
      ...(durationS === undefined ? {} : { durationS }),
      reference: {
        dataset: "longvideobench",
        isMcq: true,
        body: longVideoBenchBody(
          r.question,
          "candidates" in r ? (r.candidates as unknown[]) : OPTION_COLUMNS.map((c) => r[c]),
        ),
      },
      metadata: compact({
        // The reference evaluator's row id (utils.py: str(item.get("id", item.get("video_id")))).
        referenceId: key,
        videoId,
        durationGroup: positiveNumber(r.duration_group),
        questionCategory: text(r.question_category),
        topicCategory: text(r.topic_category),
        level: text(r.level),
      }),
    });
  }
  return out.result();
}
