// A Charades-STA copy of any size as lmms-lab/charades_sta ships it (the parquet the reference
// evaluator reads, `Charades_v1_test.csv`, `Charades_v1_480/<video>.mp4`), and the reference
// evaluator's output for its queries as ParaVT writes it: rows of paravt/eval/driver.py::_make_result
// (id = the row position, answer = str(timestamp), pred, correct None, tool_calls, score = IoU,
// full_response cut at 500 characters, key, pred_text), error rows of utils.py::base_result + error,
// the `[API error: …]` final of driver.py line 475, in the `{summary, results, submission}` file of
// utils.py::run_dataset. For import tests at scale and bench/import (no test runner needed).
import { write, touchVideos, writeParquet } from "./write-copy";

/** Queries per video, as in the real test split (a few per video; more keeps the copy small). */
const PER_VIDEO = 500;

/** Writes `queries` queries over ceil(queries / 500) videos of 60 s; returns the video count. */
export async function writeCharadesCopy(dir: string, queries: number): Promise<number> {
  const videos = Math.ceil(queries / PER_VIDEO);
  const name = (v: number) => `V${String(v).padStart(4, "0")}`;
  const spans = Array.from({ length: queries }, (_, i) => {
    const start = (i % 50) + (i % 7) / 10;
    return [start, start + 3 + (i % 5)];
  });
  await writeParquet(dir, "test-00000-of-00001.parquet", [
    { name: "video", kind: "string", data: spans.map((_, i) => `${name(Math.floor(i / PER_VIDEO))}.mp4`) },
    { name: "caption", kind: "string", data: spans.map((_, i) => `person does thing number ${i}`) },
    { name: "timestamp", kind: "doubles", data: spans },
  ]);
  const ids = Array.from({ length: videos }, (_, v) => name(v));
  await write(dir, "Charades_v1_test.csv", `id,subject,length\n${ids.map((id) => `${id},s1,60`).join("\n")}\n`);
  await touchVideos(
    dir,
    ids.map((id) => `Charades_v1_480/${id}.mp4`),
  );
  return videos;
}

/** What the Charades-STA loader keeps on a sample and the output rows need. */
export interface CharadesSample {
  metadata: Record<string, unknown>;
}

export interface ReferenceOutputOptions {
  /** Every n-th row is an error row (utils.py::base_result + error); 0: none. */
  errorEvery?: number;
  /** Every n-th row (of the others) ends in the driver's `[API error: …]` final; 0: none. */
  apiErrorEvery?: number;
  /** Rows added that name no query of the copy, and rows repeating an earlier one. */
  unmatched?: number;
  duplicates?: number;
}

function iou(a: readonly number[], b: readonly number[]): number {
  const inter = Math.max(0, Math.min(a[1]!, b[1]!) - Math.max(a[0]!, b[0]!));
  const hull = Math.max(a[1]!, b[1]!) - Math.min(a[0]!, b[0]!);
  return hull > 0 ? Math.round((inter / hull) * 10_000) / 10_000 : 0;
}

/**
 * The `charades.json` output of the reference evaluator for `samples` (loaded from a copy above).
 * Rows come in shards' completion order, not the dataset's: here a fixed interleaving.
 */
export function charadesReferenceOutput(samples: readonly CharadesSample[], opts: ReferenceOutputOptions = {}) {
  const n = samples.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (a % 4) - (b % 4) || a - b);
  const results: Record<string, unknown>[] = [];
  const submission: Record<string, string> = {};
  let errors = 0;
  let iouSum = 0;
  for (const i of order) {
    const m = samples[i]!.metadata;
    const key = String(m.referenceKey);
    const id = Number(m.referenceId);
    const span = m.span as number[];
    const answer = key.slice(key.lastIndexOf(">>>") + 3);
    if (opts.errorEvery && i % opts.errorEvery === 1) {
      errors++;
      results.push({
        id,
        answer,
        pred: "",
        correct: false,
        tool_calls: 0,
        score: 0.0,
        error: `api error: timed out (${i})`,
      });
      continue;
    }
    if (opts.apiErrorEvery && i % opts.apiErrorEvery === 2) {
      const final = "[API error: Connection error.]";
      results.push({
        id,
        answer,
        pred: final,
        correct: null,
        tool_calls: 1,
        score: 0.0,
        full_response: final,
        key,
        pred_text: final,
      });
      continue;
    }
    const pred = [span[0]! + (i % 3) * 0.5, span[1]! + (i % 2)];
    const text = `<think>${"the person moves around the room. ".repeat(12)}</think>The event happens in the ${pred[0]!.toFixed(1)} - ${pred[1]!.toFixed(1)} seconds.`;
    const score = iou(span, pred);
    iouSum += score;
    const full = text.slice(0, 500);
    submission[key] = full;
    results.push({
      id,
      answer,
      pred: `${pred[0]!.toFixed(1)}-${pred[1]!.toFixed(1)}`,
      correct: null,
      tool_calls: i % 4,
      score,
      full_response: full,
      key,
      pred_text: full,
    });
  }
  for (let u = 0; u < (opts.unmatched ?? 0); u++) {
    results.push({
      id: n + 1000 + u,
      answer: "[1.0, 2.0]",
      pred: "",
      correct: false,
      tool_calls: 0,
      score: 0.0,
      error: "boom",
    });
  }
  for (let d = 0; d < (opts.duplicates ?? 0); d++) results.push({ ...results[d]! });
  return {
    summary: {
      dataset: "charades",
      total: results.length,
      errors,
      mIoU: n ? iouSum / n : 0,
      submission_count: Object.keys(submission).length,
    },
    results,
    submission,
  };
}
