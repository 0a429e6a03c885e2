// VideoMME (SPEC §5: with and without subtitles; accuracy by duration short / medium / long).
//
// Layout followed: the official release on Hugging Face, lmms-lab/Video-MME (linked from
// github.com/BradyFU/Video-MME): `videomme/test-00000-of-00001.parquet`, one row per question with
// columns video_id ("001"), duration ("short" | "medium" | "long"), domain, sub_category, url,
// videoID (the YouTube id), question_id ("001-1"), task_type, question, options (list of
// "A. …" strings) and answer (a letter); `videos_chunked_*.zip` unpack to `data/<videoID>.mp4` and
// `subtitle.zip` to `subtitle/<videoID>.srt`. Variants accepted: the parquet directly in the
// directory or split into several `test-*-of-*.parquet` shards; videos in `data/`, `video/` or
// `videos/`; subtitles in `subtitle/` or `subtitles/`; options with or without their letters.
// Also the layout the reference evaluator reads (paravt/eval/utils.py::load_samples, lines 227-290,
// `lmms-lab/Video-MME`, config videomme, split test): with `dir` = its HF_HOME, videos in
// `videomme/data/<videoID>.mp4` and subtitles in `videomme/subtitle/<videoID>.srt`. Its row id is
// `videoID`, shared by the three questions of a video: kept as `metadata.referenceId` (the import of
// its output tells the questions apart by their answer letter). Every sample also keeps the
// reference's own question text (`metadata.reference`, dataset videomme or, with subtitles,
// videomme_wsub: ../reference-bodies.ts), built from the raw question and option strings and, with
// subtitles, from the same SRT file read by a port of its parse_srt (../reference-srt.ts).

import { join } from "node:path";
import { BenchmarkError } from "../errors";
import { findDir, listFiles, pathKind, readBytes, readParquetRows, requireColumns, textOfBytes } from "../files";
import { Collector } from "../collector";
import { compact, layoutError, pickVideoDir, shownPath, text, type LoaderContext } from "../loader-kit";
import { checkAnswerLetter, checkOptionTexts, questionWithOptions, stripLetterPrefixes } from "../options";
import { videoMmeBody } from "../reference-bodies";
import { referenceParseSrt } from "../reference-srt";
import type { LoadResult } from "../schemas";
import { srtToText, withSubtitles } from "../srt";
import { VideoResolver, withExtensions } from "../video-path";

export const VIDEOMME_SPLITS = ["test", "test_subtitles"] as const;
export const VIDEOMME_DURATIONS = ["short", "medium", "long"] as const;
const SHARD_RE = /^test-\d+-of-\d+\.parquet$/;
/** The release's folders, then the reference evaluator's HF_HOME layout (`videomme/data`, `videomme/subtitle`). */
const VIDEO_DIRS = ["data", "video", "videos", "videomme/data"];
const SUBTITLE_DIRS = ["subtitle", "subtitles", "videomme/subtitle"];

export async function loadVideoMme(ctx: LoaderContext): Promise<LoadResult> {
  const withSubs = ctx.subtitles || ctx.split === "test_subtitles";
  let shards: string[] = [];
  for (const sub of ["videomme", ""]) {
    shards = (await listFiles(join(ctx.dir, sub), SHARD_RE)).map((f) => join(ctx.dir, sub, f));
    if (shards.length) break;
  }
  if (!shards.length) {
    throw layoutError(ctx, "Video-MME annotations", ["videomme/test-00000-of-00001.parquet", "test-*-of-*.parquet"]);
  }
  let subtitleDir: string | null = null;
  if (withSubs) {
    const found = await findDir(ctx.dir, SUBTITLE_DIRS);
    if (found === null) {
      throw new BenchmarkError(
        "layout",
        `VideoMME with subtitles needs the SRT files: no ${SUBTITLE_DIRS.map((d) => `${d}/`).join(", ")} folder in ${ctx.dir}`,
      );
    }
    subtitleDir = join(ctx.dir, found);
  }

  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, VIDEO_DIRS, warnings);
  const split = withSubs ? "test_subtitles" : "test";
  const variant = `parquet (${shards.length} file${shards.length > 1 ? "s" : ""})${withSubs ? " + srt" : ""}`;
  const out = new Collector("videomme", split, variant, new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  /** A video's subtitles: our text (null: none) and the reference's parse_srt text ("" for none). */
  interface Subtitles {
    ours: { text: string; file: string } | null;
    reference: string;
  }
  const subtitleCache = new Map<string, Promise<Subtitles>>();
  const subtitleOf = (youtubeId: string) => {
    let p = subtitleCache.get(youtubeId);
    if (!p) {
      const abs = join(subtitleDir!, `${youtubeId}.srt`);
      p = pathKind(abs).then(async (kind): Promise<Subtitles> => {
        if (kind !== "file") return { ours: null, reference: "" };
        const bytes = await readBytes(abs, shownPath(ctx, abs));
        const t = srtToText(textOfBytes(bytes));
        return { ours: t === "" ? null : { text: t, file: shownPath(ctx, abs) }, reference: referenceParseSrt(bytes) };
      });
      subtitleCache.set(youtubeId, p);
    }
    return p;
  };

  for (const abs of shards) {
    const file = shownPath(ctx, abs);
    const rows = await readParquetRows(abs, file);
    requireColumns(rows, ["question_id", "videoID", "duration", "question", "options", "answer"], file);
    out.readFile(file);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const n = i + 1;
      const key = text(r.question_id);
      if (key === null) {
        out.skip(file, n, "missing_field", "no question_id");
        continue;
      }
      const youtubeId = text(r.videoID);
      const question = text(r.question);
      const category = text(r.duration);
      const missing = [!youtubeId && "videoID", !question && "question", !category && "duration"].filter(Boolean);
      if (missing.length) {
        out.skip(file, n, "missing_field", `no ${missing.join(", ")}`, key);
        continue;
      }
      if (!(VIDEOMME_DURATIONS as readonly string[]).includes(category!)) {
        out.skip(file, n, "invalid_field", `duration "${category}" is not short, medium or long`, key);
        continue;
      }
      const listed = checkOptionTexts(r.options);
      const options = listed.ok ? stripLetterPrefixes(listed.value) : listed;
      if (!options.ok) {
        out.skip(file, n, options.reason, options.detail, key);
        continue;
      }
      const answer = checkAnswerLetter(r.answer, options.value.length);
      if (!answer.ok) {
        out.skip(file, n, answer.reason, answer.detail, key);
        continue;
      }
      let shown = questionWithOptions(question!, options.value, "dot");
      let subtitleFile: string | null = null;
      let referenceSubtitles = "";
      if (withSubs) {
        const subs = await subtitleOf(youtubeId!);
        if (subs.ours) {
          shown = withSubtitles(subs.ours.text, shown);
          subtitleFile = subs.ours.file;
        }
        referenceSubtitles = subs.reference;
      }
      const kept = await out.add(file, n, {
        key,
        video: withExtensions(youtubeId!),
        question: shown,
        options: options.value,
        answer: answer.value,
        questionType: "mcq",
        reference: {
          dataset: withSubs ? "videomme_wsub" : "videomme",
          isMcq: true,
          body: videoMmeBody(r.question, r.options, referenceSubtitles),
        },
        metadata: compact({
          referenceId: youtubeId,
          questionText: question,
          durationCategory: category,
          domain: text(r.domain),
          subCategory: text(r.sub_category),
          taskType: text(r.task_type),
          videoId: text(r.video_id),
          youtubeId,
          url: text(r.url),
          ...(withSubs ? { subtitles: subtitleFile !== null, subtitleFile } : {}),
        }),
      });
      if (kept && withSubs) out.countSubtitles(subtitleFile !== null);
    }
  }
  return out.result();
}
