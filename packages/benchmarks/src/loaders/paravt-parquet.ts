// The reference trainer's parquet files as a dataset (SPEC §6 "ParaVT-Parquet rows"), one file:
// - RL rows (`prompt`, `videos`, `extra_info`) become samples: the question is the user turn with
//   the `<video>` marker removed, answer and type come from `extra_info` (a JSON string or an
//   object);
// - SFT rows (`messages`, `videos`) become samples only when they also carry such an
//   `extra_info`; otherwise they are counted and skipped as `unlabeled_sft_row` (a trajectory's
//   final answer is the model's output, not a label we can read reliably).
// SFT `messages` may be a list or a JSON string (decoded as the reference materializer does).
// Video paths are sentinel paths (SPEC §6), recognised by the reference's rule (sentinel.ts:
// `longvt_source/…` etc., with or without `file://`), looked up under the media root (the video
// directory; default the folder holding the file), so `<media root>/longvt_source/…`. Unlike the
// materializer, links are not followed here: the path stays under the media root so the importer's
// MEDIA_ROOTS real-path check sees (and names) a link leaving them; a `..` that leaves the media
// root is `bad_video_path`. Rows whose video is missing are skipped (SPEC §6) with the root named;
// unknown path shapes are skipped as `bad_video_path`, except paths that are already local
// (absolute or `file://`), which are used when they lie inside the media root. The report counts
// the paths per root.

import { basename, dirname, isAbsolute, relative } from "node:path";
import { stat } from "node:fs/promises";
import { Collector } from "../collector";
import { BenchmarkError } from "../errors";
import { pathKind, readParquetRows } from "../files";
import { positiveNumber, text, type LoaderContext } from "../loader-kit";
import { checkAnswerLetter, checkAnswerText, checkOptionTexts } from "../options";
import {
  inlineOptions,
  questionText,
  readExtraInfo,
  rowKey,
  rowKind,
  rowTurns,
  videoPaths,
  type RowKind,
} from "../paravt-parquet/rows";
import { classifyPath, localFileOf, PathTally, reportLines, rootDirs } from "../paravt-parquet/sentinel";
import type { JsonRecord, LoadResult } from "../schemas";
import { checkSpan, parseSpanValue, spanAnswer } from "../spans";
import { VideoResolver } from "../video-path";

/** Longest extra_info text kept on a sample (prompts and trajectories stay in the file). */
const EXTRA_TEXT_KEPT = 1000;

/** The scalar fields of extra_info besides answer / question_type, as sample metadata. */
function extraMetadata(rest: Record<string, unknown>): JsonRecord {
  const out: JsonRecord = {};
  for (const [k, v] of Object.entries(rest)) {
    if ((typeof v === "number" && Number.isFinite(v)) || typeof v === "boolean") out[k] = v;
    else if (typeof v === "string" && v.length <= EXTRA_TEXT_KEPT) out[k] = v;
  }
  return out;
}

async function isFile(abs: string): Promise<boolean> {
  try {
    return (await stat(abs)).isFile();
  } catch {
    return false;
  }
}

export async function loadParavtParquet(ctx: LoaderContext): Promise<LoadResult> {
  if ((await pathKind(ctx.dir)) !== "file" || !/\.parquet$/i.test(ctx.dir)) {
    throw new BenchmarkError("options", `${ctx.dir}: a ParaVT parquet import reads one .parquet file`);
  }
  const file = basename(ctx.dir);
  const mediaRoot = ctx.videoDir ?? dirname(ctx.dir);
  const rows = await readParquetRows(ctx.dir, file);
  const dirs = rootDirs({ mediaRoot });

  // Every distinct local file is stat'ed once, before the rows are read in order.
  const exists = new Map<string, boolean>();
  for (const row of rows) {
    const read = rowTurns(row);
    for (const value of videoPaths(row, "turns" in read ? read.turns : [])) {
      const shape = classifyPath(value);
      const abs = shape.kind === "sentinel" ? localFileOf(shape, dirs) : null;
      if (abs !== null && !exists.has(abs)) exists.set(abs, await isFile(abs));
    }
  }

  const kinds: Record<RowKind, number> = { rl: 0, sft: 0, other: 0 };
  for (const row of rows) kinds[rowKind(row)]++;
  const variant =
    [kinds.rl ? "RL rows" : null, kinds.sft ? "SFT rows" : null].filter(Boolean).join(" + ") || "no RL or SFT rows";
  const out = new Collector("paravt-parquet", ctx.split, variant, new VideoResolver(mediaRoot));
  out.readFile(file);
  const tally = new PathTally(dirs);
  let sftImported = 0;

  for (const [i, row] of rows.entries()) {
    const position = i + 1;
    tally.row();
    const kind = rowKind(row);
    const read = rowTurns(row);
    const extra = readExtraInfo(row.extra_info);
    const key = rowKey(row, extra.rest, position);
    if ("error" in read) {
      out.skip(file, position, "invalid_field", read.error, key);
      continue;
    }
    const turns = read.turns;
    const videos = videoPaths(row, turns);
    const shapes = videos.map((v) => tally.reference(v, (abs) => exists.get(abs) ?? false).shape);
    if (!extra.ok) {
      if (kind === "sft" && extra.reason === "missing_field") {
        out.skip(
          file,
          position,
          "unlabeled_sft_row",
          `SFT trajectory without an extra_info answer and question_type (${extra.detail})`,
          key,
        );
      } else out.skip(file, position, extra.reason, extra.detail, key);
      continue;
    }
    if (videos.length !== 1) {
      if (videos.length === 0) out.skip(file, position, "missing_field", "no video in videos", key);
      else out.skip(file, position, "invalid_field", `${videos.length} videos; a sample has one video`, key);
      continue;
    }
    const value = videos[0]!;
    const shape = shapes[0]!;
    let videoFile: string;
    if (shape.kind === "sentinel") {
      const abs = localFileOf(shape, dirs)!;
      const rel = relative(mediaRoot, abs);
      if (rel === ".." || rel.startsWith("../") || isAbsolute(rel)) {
        out.skip(file, position, "bad_video_path", `${shape.root}: ${value} leaves the media root ${mediaRoot}`, key);
        continue;
      }
      if (!(exists.get(abs) ?? false)) {
        out.skip(file, position, "missing_video", `${shape.root}: no file ${abs} (parquet path ${value})`, key);
        continue;
      }
      videoFile = abs;
    } else if (shape.kind === "local") {
      // Already materialized: the resolver keeps it only inside the media root.
      videoFile = shape.path;
    } else {
      out.skip(file, position, "bad_video_path", `unknown path shape (${shape.why}): ${value}`, key);
      continue;
    }

    const question = questionText(turns);
    if (question === null) {
      out.skip(file, position, "missing_field", "no user turn with question text", key);
      continue;
    }
    const durationS = positiveNumber(extra.rest.duration);
    const metadata: JsonRecord = {
      ...extraMetadata(extra.rest),
      rowKind: kind,
      row: position,
      videoRef: value,
      ...(shape.kind === "sentinel" ? { root: shape.root } : {}),
      ...(typeof row.data_source === "string" ? { dataSource: row.data_source } : {}),
    };
    const base = {
      key,
      video: [videoFile],
      question,
      ...(durationS === undefined ? {} : { durationS }),
    };

    let kept: boolean;
    if (extra.questionType === "mcq") {
      const options = checkOptionTexts(inlineOptions(question) ?? []);
      if (!options.ok) {
        out.skip(file, position, "malformed_options", `lettered option lines of the question: ${options.detail}`, key);
        continue;
      }
      let answer = checkAnswerLetter(extra.answer, options.value.length);
      if (!answer.ok && answer.reason === "unknown_answer") {
        const byText = checkAnswerText(extra.answer, options.value);
        if (byText.ok) answer = byText;
      }
      if (!answer.ok) {
        out.skip(file, position, answer.reason, answer.detail, key);
        continue;
      }
      kept = await out.add(file, position, {
        ...base,
        options: options.value,
        answer: answer.value,
        questionType: "mcq",
        metadata: { ...metadata, ...(answer.value !== extra.answer ? { answerText: String(extra.answer) } : {}) },
      });
    } else if (extra.questionType === "tvg") {
      const pair = parseSpanValue(extra.answer);
      const span = pair ? checkSpan(pair[0], pair[1], durationS) : null;
      if (!span || !span.ok) {
        const detail = span ? span.detail : `answer ${JSON.stringify(extra.answer)} is not a [start, end] span`;
        out.skip(file, position, "bad_timestamps", detail, key);
        continue;
      }
      // The sample answer is `start-end` (SPEC §4 evaluation form); the SPEC §2 training reward reads
      // the `[s, e]` pair, so the row's own answer is kept as metadata.answerText.
      kept = await out.add(file, position, {
        ...base,
        options: null,
        answer: spanAnswer(span.value),
        questionType: "tvg",
        metadata: { ...metadata, span: [...span.value], answerText: String(extra.answer) },
      });
    } else {
      const answer = text(extra.answer);
      if (answer === null) {
        out.skip(file, position, "invalid_field", "extra_info.answer: open-ended answers are text", key);
        continue;
      }
      kept = await out.add(file, position, { ...base, options: null, answer, questionType: "oe", metadata });
    }
    if (kept && kind === "sft") sftImported++;
  }

  const paths = tally.report();
  out.warnings.push(...reportLines(paths));
  if (kinds.sft > sftImported) {
    out.warnings.push(
      `${kinds.sft - sftImported} of ${kinds.sft} SFT row(s) not imported (see the skipped rows); SFT rows become samples only with an extra_info answer and question_type`,
    );
  }
  const result = out.result();
  result.stats.parquet = { rowKinds: kinds, sft: { rows: kinds.sft, imported: sftImported }, paths };
  return result;
}
