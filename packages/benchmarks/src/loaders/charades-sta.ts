// Charades-STA, test split: temporal grounding (SPEC §5: mIoU and R@0.3/0.5/0.7). The answer is the
// annotated [start, end] in seconds, written `start-end` with the numbers in metadata.span; the
// question is the query sentence (the grounding instruction comes from the prompt mode).
//
// Layout followed: the original release of Gao et al. 2017 (TALL, github.com/jiyanggao/TALL),
// `charades_sta_test.txt`, one query per line `<video id> <start> <end>##<sentence>`, with video
// lengths from the Charades v1 annotations `Charades_v1_test.csv` (columns id, …, length) and the
// videos of Charades v1 (`Charades_v1_480/<id>.mp4`); lmms-eval's Charades-STA task reads the same
// videos. Variants accepted: the files at the top or in `annotations/`; no CSV (durations unknown,
// with a warning); the ActivityNet-Captions-style JSON many grounding repositories convert it to,
// `charades_sta_test.json` / `charades_test.json` = {<id>: {duration, timestamps: [[s, e], …],
// sentences: […]}}; videos in `Charades_v1_480/`, `Charades_v1/`, `videos/` or `video/`.
//
// Also the copy lmms-eval and the reference evaluator download, `lmms-lab/charades_sta` (split test;
// lmms-eval tasks/charades_sta/charades.yaml + utils.py, paravt/eval/utils.py::load_samples lines
// 431-461): parquet shards `test-*-of-*.parquet` (at the top or in `data/`), one row per query with
// video (a file name with its extension, under `Charades_v1_480/`), caption and timestamp [start, end].
// The reference's row id is the row's position i in the dataset (all shards in order) and its `key`
// f"{video}>>>{caption}>>>{timestamp}" (Python's str of the list, e.g. "[0.0, 6.9]"): both are kept
// as `metadata.referenceId` / `metadata.referenceKey`; the sample key stays `<video id>#<n>`. Those
// samples also keep the reference's request text (`metadata.reference`, ../reference-bodies.ts: its
// fixed grounding template around the raw caption); the TALL txt / JSON queries do not.

import { join } from "node:path";
import { Collector } from "../collector";
import { parseCsv } from "../csv";
import { fileError } from "../errors";
import { findFile, findShards, isRecord, readJson, readParquetRows, readText, requireColumns } from "../files";
import { compact, layoutError, pickVideoDir, positiveNumber, shownPath, text, type LoaderContext } from "../loader-kit";
import { pyListRepr } from "../python-repr";
import { charadesBody, type ReferenceBody } from "../reference-bodies";
import type { LoadResult } from "../schemas";
import { checkSpan, spanAnswer } from "../spans";
import { VideoResolver, withExtensions } from "../video-path";

const TXT_FILES = ["charades_sta_test.txt", "annotations/charades_sta_test.txt"];
const JSON_FILES = ["charades_sta_test.json", "charades_test.json", "annotations/charades_sta_test.json"];
const CSV_FILES = ["Charades_v1_test.csv", "annotations/Charades_v1_test.csv", "Charades/Charades_v1_test.csv"];

const PARQUET_SHARD_RE = /^test-\d+-of-\d+\.parquet$/;

interface Query {
  /** The file the query is in (relative to the benchmark directory). */
  file: string;
  row: number;
  videoId: string;
  /** The video's file name when the annotations give it (lmms-lab parquet), else `<videoId>` + extensions. */
  videoFile?: string;
  /** lmms-lab parquet: the reference evaluator's row id, key and question text. */
  reference?: { id: string; key: string | null; body: ReferenceBody };
  start: unknown;
  end: unknown;
  sentence: string | null;
  durationS?: number;
}

async function durationsFromCsv(ctx: LoaderContext, rel: string): Promise<Map<string, number>> {
  const records = parseCsv(await readText(join(ctx.dir, rel), rel));
  const header = records[0]?.fields.map((f) => f.trim());
  const idCol = header?.indexOf("id") ?? -1;
  const lengthCol = header?.indexOf("length") ?? -1;
  if (idCol < 0 || lengthCol < 0) throw fileError(rel, 'expected a header with "id" and "length" columns', 1);
  const out = new Map<string, number>();
  for (const rec of records.slice(1)) {
    const id = rec.fields[idCol]?.trim();
    const length = positiveNumber(rec.fields[lengthCol]);
    if (id && length !== undefined) out.set(id, length);
  }
  return out;
}

async function queriesFromTxt(ctx: LoaderContext, rel: string): Promise<Query[]> {
  const lines = (await readText(join(ctx.dir, rel), rel)).split(/\r?\n/);
  const out: Query[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const cut = line.indexOf("##");
    const head = cut < 0 ? [] : line.slice(0, cut).trim().split(/\s+/);
    if (head.length !== 3) throw fileError(rel, 'expected "<video id> <start> <end>##<sentence>"', i + 1);
    out.push({
      file: rel,
      row: i + 1,
      videoId: head[0]!,
      start: head[1],
      end: head[2],
      sentence: text(line.slice(cut + 2)),
    });
  }
  return out;
}

async function queriesFromJson(ctx: LoaderContext, rel: string): Promise<{ queries: Query[]; bad: Query[] }> {
  const value = await readJson(join(ctx.dir, rel), rel);
  if (!isRecord(value)) throw fileError(rel, "expected an object {<video id>: {duration, timestamps, sentences}}");
  const queries: Query[] = [];
  const bad: Query[] = [];
  let row = 0;
  for (const [videoId, entry] of Object.entries(value)) {
    const ts = isRecord(entry) && Array.isArray(entry.timestamps) ? entry.timestamps : null;
    const sentences = isRecord(entry) && Array.isArray(entry.sentences) ? entry.sentences : null;
    if (!ts || !sentences || ts.length !== sentences.length) {
      // One report per video: its queries cannot be paired with their times.
      bad.push({ file: rel, row: ++row, videoId, start: null, end: null, sentence: null });
      continue;
    }
    const durationS = isRecord(entry) ? positiveNumber(entry.duration) : undefined;
    for (let k = 0; k < ts.length; k++) {
      const pair = Array.isArray(ts[k]) ? (ts[k] as unknown[]) : [];
      queries.push({
        file: rel,
        row: ++row,
        videoId,
        start: pair.length === 2 ? pair[0] : null,
        end: pair.length === 2 ? pair[1] : null,
        sentence: text(sentences[k]),
        ...(durationS === undefined ? {} : { durationS }),
      });
    }
  }
  return { queries, bad };
}

/** The reference's key: Python's str of the timestamp list; null when it cannot be written exactly. */
function referenceKey(video: unknown, caption: unknown, timestamp: unknown): string | null {
  if (typeof video !== "string" || typeof caption !== "string" || !Array.isArray(timestamp)) return null;
  if (!timestamp.every((v) => typeof v === "number" || typeof v === "string")) return null;
  try {
    return `${video}>>>${caption}>>>${pyListRepr(timestamp as (number | string)[])}`;
  } catch {
    return null;
  }
}

async function queriesFromParquet(ctx: LoaderContext, shards: readonly string[]): Promise<Query[]> {
  const out: Query[] = [];
  let index = 0;
  for (const abs of shards) {
    const file = shownPath(ctx, abs);
    const rows = await readParquetRows(abs, file);
    requireColumns(rows, ["video", "caption", "timestamp"], file);
    for (let i = 0; i < rows.length; i++, index++) {
      const r = rows[i]!;
      const videoFile = text(r.video) ?? "";
      const ts = Array.isArray(r.timestamp) ? r.timestamp : [];
      out.push({
        file,
        row: i + 1,
        videoId: videoFile.replace(/\.[A-Za-z0-9]+$/, ""),
        videoFile,
        start: ts.length === 2 ? ts[0] : null,
        end: ts.length === 2 ? ts[1] : null,
        sentence: text(r.caption),
        reference: {
          id: String(index),
          key: referenceKey(r.video, r.caption, r.timestamp),
          body: charadesBody(r.caption),
        },
      });
    }
  }
  return out;
}

export async function loadCharadesSta(ctx: LoaderContext): Promise<LoadResult> {
  const txt = await findFile(ctx.dir, TXT_FILES);
  const json = txt === null ? await findFile(ctx.dir, JSON_FILES) : null;
  const shards = txt === null && json === null ? await findShards(ctx.dir, ["", "data"], PARQUET_SHARD_RE) : [];
  const rel = txt ?? json;
  if (rel === null && shards.length === 0) {
    throw layoutError(ctx, "Charades-STA test annotations", [
      ...TXT_FILES,
      ...JSON_FILES,
      "test-*-of-*.parquet (lmms-lab/charades_sta)",
    ]);
  }

  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, ["Charades_v1_480", "Charades_v1", "videos", "video"], warnings);
  let queries: Query[];
  let bad: Query[] = [];
  let durations = new Map<string, number>();
  const files: string[] = [];
  let variant: string;
  if (txt !== null || rel === null) {
    if (txt !== null) {
      queries = await queriesFromTxt(ctx, txt);
      files.push(txt);
      variant = "txt";
    } else {
      queries = await queriesFromParquet(ctx, shards);
      files.push(...shards.map((abs) => shownPath(ctx, abs)));
      variant = `parquet (lmms-lab/charades_sta, ${shards.length} file${shards.length > 1 ? "s" : ""})`;
    }
    const csv = await findFile(ctx.dir, CSV_FILES);
    if (csv !== null) {
      durations = await durationsFromCsv(ctx, csv);
      files.push(csv);
      variant += " + csv";
    } else {
      warnings.push(
        "no Charades_v1_test.csv: video lengths unknown, so a start past the end of a video is not detected",
      );
    }
  } else {
    ({ queries, bad } = await queriesFromJson(ctx, rel));
    files.push(rel);
    variant = "json";
  }

  const out = new Collector("charades_sta", "test", variant, new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  for (const f of files) out.readFile(f);
  for (const q of bad)
    out.skip(q.file, q.row, "invalid_field", `video ${q.videoId}: timestamps and sentences do not pair up`);

  // Queries carry no id; the n-th query of a video in file order is stable for a given release
  // (the same video, times and sentence can occur twice, so they cannot serve as the key).
  const perVideo = new Map<string, number>();
  for (const q of queries) {
    const k = perVideo.get(q.videoId) ?? 0;
    perVideo.set(q.videoId, k + 1);
    const key = `${q.videoId}#${k}`;
    if (q.sentence === null || q.videoId === "") {
      out.skip(q.file, q.row, "missing_field", q.sentence === null ? "no sentence" : "no video", key);
      continue;
    }
    const durationS = q.durationS ?? durations.get(q.videoId);
    const span = checkSpan(q.start, q.end, durationS);
    if (!span.ok) {
      out.skip(q.file, q.row, span.reason, span.detail, key);
      continue;
    }
    const [s, e] = span.value;
    await out.add(q.file, q.row, {
      key,
      video: q.videoFile ? [q.videoFile] : withExtensions(q.videoId),
      question: q.sentence,
      options: null,
      answer: spanAnswer(span.value),
      questionType: "tvg",
      ...(durationS === undefined ? {} : { durationS }),
      ...(q.reference ? { reference: { dataset: "charades", isMcq: false, body: q.reference.body } } : {}),
      metadata: compact({
        videoId: q.videoId,
        query: q.sentence,
        span: [s, e],
        endBeyondDuration: durationS !== undefined && e > durationS ? true : undefined,
        referenceId: q.reference?.id,
        referenceKey: q.reference?.key,
      }),
    });
  }
  return out.result();
}
