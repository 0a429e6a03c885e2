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

import { join } from "node:path";
import { Collector } from "../collector";
import { parseCsv } from "../csv";
import { fileError } from "../errors";
import { findFile, isRecord, readJson, readText } from "../files";
import { compact, layoutError, pickVideoDir, positiveNumber, text, type LoaderContext } from "../loader-kit";
import type { LoadResult } from "../schemas";
import { checkSpan, spanAnswer } from "../spans";
import { VideoResolver, withExtensions } from "../video-path";

const TXT_FILES = ["charades_sta_test.txt", "annotations/charades_sta_test.txt"];
const JSON_FILES = ["charades_sta_test.json", "charades_test.json", "annotations/charades_sta_test.json"];
const CSV_FILES = ["Charades_v1_test.csv", "annotations/Charades_v1_test.csv", "Charades/Charades_v1_test.csv"];

interface Query {
  row: number;
  videoId: string;
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
    out.push({ row: i + 1, videoId: head[0]!, start: head[1], end: head[2], sentence: text(line.slice(cut + 2)) });
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
      bad.push({ row: ++row, videoId, start: null, end: null, sentence: null });
      continue;
    }
    const durationS = isRecord(entry) ? positiveNumber(entry.duration) : undefined;
    for (let k = 0; k < ts.length; k++) {
      const pair = Array.isArray(ts[k]) ? (ts[k] as unknown[]) : [];
      queries.push({
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

export async function loadCharadesSta(ctx: LoaderContext): Promise<LoadResult> {
  const txt = await findFile(ctx.dir, TXT_FILES);
  const json = txt === null ? await findFile(ctx.dir, JSON_FILES) : null;
  const rel = txt ?? json;
  if (rel === null) throw layoutError(ctx, "Charades-STA test annotations", [...TXT_FILES, ...JSON_FILES]);

  const warnings: string[] = [];
  const videoDir = await pickVideoDir(ctx, ["Charades_v1_480", "Charades_v1", "videos", "video"], warnings);
  let queries: Query[];
  let bad: Query[] = [];
  let durations = new Map<string, number>();
  const files = [rel];
  let variant: string;
  if (txt !== null) {
    queries = await queriesFromTxt(ctx, txt);
    const csv = await findFile(ctx.dir, CSV_FILES);
    if (csv !== null) {
      durations = await durationsFromCsv(ctx, csv);
      files.push(csv);
      variant = "txt + csv";
    } else {
      warnings.push(
        "no Charades_v1_test.csv: video lengths unknown, so a start past the end of a video is not detected",
      );
      variant = "txt";
    }
  } else {
    ({ queries, bad } = await queriesFromJson(ctx, rel));
    variant = "json";
  }

  const out = new Collector("charades_sta", "test", variant, new VideoResolver(videoDir));
  out.warnings.push(...warnings);
  for (const f of files) out.readFile(f);
  for (const q of bad)
    out.skip(rel, q.row, "invalid_field", `video ${q.videoId}: timestamps and sentences do not pair up`);

  // Queries carry no id; the n-th query of a video in file order is stable for a given release
  // (the same video, times and sentence can occur twice, so they cannot serve as the key).
  const perVideo = new Map<string, number>();
  for (const q of queries) {
    const k = perVideo.get(q.videoId) ?? 0;
    perVideo.set(q.videoId, k + 1);
    const key = `${q.videoId}#${k}`;
    if (q.sentence === null) {
      out.skip(rel, q.row, "missing_field", "no sentence", key);
      continue;
    }
    const durationS = q.durationS ?? durations.get(q.videoId);
    const span = checkSpan(q.start, q.end, durationS);
    if (!span.ok) {
      out.skip(rel, q.row, span.reason, span.detail, key);
      continue;
    }
    const [s, e] = span.value;
    await out.add(rel, q.row, {
      key,
      video: withExtensions(q.videoId),
      question: q.sentence,
      options: null,
      answer: spanAnswer(span.value),
      questionType: "tvg",
      ...(durationS === undefined ? {} : { durationS }),
      metadata: compact({
        videoId: q.videoId,
        query: q.sentence,
        span: [s, e],
        endBeyondDuration: durationS !== undefined && e > durationS ? true : undefined,
      }),
    });
  }
  return out.result();
}
