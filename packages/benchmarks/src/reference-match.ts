// Which sample each row of a reference evaluator output belongs to, and what it becomes (SPEC §6).
// Pure: the import service loads the dataset's samples and stores what this returns.
//
// Row ids per benchmark are paravt/eval/utils.py::load_samples's (REFERENCE_DATASETS); the loaders
// keep them as `metadata.referenceId` (and Charades-STA's `key` as `metadata.referenceKey`). A row is
// matched by that id first, then by the sample key (custom datasets, copies whose key is the id).
// - Video-MME: the id is the videoID, shared by the video's three questions. The row's answer letter
//   picks the question when exactly one of them has it; otherwise the row is `ambiguous` (the output
//   names no question, and the order of rows is the shards' completion order: nothing to go by).
// - Charades-STA: the id is the row position; a row whose key differs from the sample's is a
//   `key_mismatch` (another release or order of the dataset), never attached to the wrong query.
// - A sample matched by an earlier row: `duplicate` (a file concatenated from two runs).
// - A row with `error` (utils.py::base_result + error, driver.py lines 440, 460, 544) or whose final
//   text is the driver's `[API error: …]` (driver.py line 475) is an ERROR with that reason, never a
//   wrong answer.
// A file for another benchmark than the dataset's is refused as a whole.

import { BenchmarkError } from "./errors";
import { REFERENCE_DATASETS, type ReferenceOutput, type ReferenceResult } from "./reference-output";
import type { ReferenceDatasetName } from "./reference-question";
import type { BenchmarkId, JsonRecord } from "./schemas";

export interface MatchableSample {
  id: string;
  key: string;
  answer: string;
  metadata: JsonRecord;
}

export interface MatchTarget {
  /** The dataset's benchmark and split when it was imported from a benchmark copy, else null. */
  benchmark: BenchmarkId | null;
  split: string | null;
  samples: readonly MatchableSample[];
}

export const REFERENCE_SKIP_REASONS = ["unmatched", "ambiguous", "key_mismatch", "duplicate"] as const;
export type ReferenceSkipReason = (typeof REFERENCE_SKIP_REASONS)[number];

export interface MatchedRow {
  result: ReferenceResult;
  sampleId: string;
  /** Why the row is an ERROR episode (the row's error, or the API error text); null when it is an answer. */
  failure: { kind: "row_error" | "api_error"; reason: string } | null;
}

export interface SkippedReferenceRow {
  index: number;
  id: string;
  reason: ReferenceSkipReason;
  detail: string;
}

export interface ReferenceMatch {
  matched: MatchedRow[];
  skipped: SkippedReferenceRow[];
  report: ReferenceImportReport;
}

/** What an import of one reference file did, row by row counted: rows = matched + skipped. */
export interface ReferenceImportReport {
  /** The reference dataset name (summary.dataset or the file name) and what it is here, when known. */
  dataset: string | null;
  benchmark: BenchmarkId | null;
  rows: number;
  matched: number;
  /** Matched rows stored as ERROR episodes, by cause. */
  errors: { total: number; rowError: number; apiError: number };
  skipped: number;
  byReason: Partial<Record<ReferenceSkipReason, number>>;
}

const referenceIdOf = (s: MatchableSample): string | null => {
  const v = s.metadata.referenceId;
  return typeof v === "string" || typeof v === "number" ? String(v) : null;
};

/** The benchmark a reference output is for, when its dataset name is one of the reference's. */
export function referenceBenchmark(output: ReferenceOutput): (typeof REFERENCE_DATASETS)[ReferenceDatasetName] | null {
  return output.dataset !== null && Object.hasOwn(REFERENCE_DATASETS, output.dataset)
    ? REFERENCE_DATASETS[output.dataset as ReferenceDatasetName]
    : null;
}

function checkBenchmark(output: ReferenceOutput, target: MatchTarget): void {
  const ref = referenceBenchmark(output);
  if (ref === null || target.benchmark === null) return;
  if (ref.benchmark !== target.benchmark || (target.split !== null && ref.split !== target.split)) {
    const here = `${target.benchmark}${target.split === null ? "" : ` (split ${target.split})`}`;
    throw new BenchmarkError(
      "options",
      `${output.file ?? "the file"} is the reference output of "${output.dataset}" (${ref.title}, ${ref.benchmark} split ${ref.split}), but the dataset is ${here}`,
    );
  }
}

function failureOf(r: ReferenceResult): MatchedRow["failure"] {
  if (r.error !== null) return { kind: "row_error", reason: r.error.trim() || "error (no message)" };
  if (r.apiError !== null) return { kind: "api_error", reason: r.apiError };
  return null;
}

export function matchReferenceOutput(output: ReferenceOutput, target: MatchTarget): ReferenceMatch {
  checkBenchmark(output, target);
  const byReference = new Map<string, MatchableSample[]>();
  const byKey = new Map<string, MatchableSample>();
  for (const s of target.samples) {
    byKey.set(s.key, s);
    const ref = referenceIdOf(s);
    if (ref !== null) byReference.set(ref, [...(byReference.get(ref) ?? []), s]);
  }
  const withIds = byReference.size > 0;

  const matched: MatchedRow[] = [];
  const skipped: SkippedReferenceRow[] = [];
  const takenBy = new Map<string, number>();
  const skip = (r: ReferenceResult, reason: ReferenceSkipReason, detail: string) =>
    skipped.push({ index: r.index, id: r.id, reason, detail });

  for (const r of output.results) {
    let candidates = byReference.get(r.id) ?? [];
    if (candidates.length === 0) {
      const byItsKey = (r.key !== null ? byKey.get(r.key) : undefined) ?? byKey.get(r.id);
      if (byItsKey) candidates = [byItsKey];
    }
    if (candidates.length === 0) {
      skip(
        r,
        "unmatched",
        withIds
          ? `no sample with reference id ${JSON.stringify(r.id)}`
          : `no sample with key ${JSON.stringify(r.key ?? r.id)} (the dataset's samples carry no reference ids: re-import it, from the copy the reference evaluator reads)`,
      );
      continue;
    }
    let sample = candidates[0]!;
    if (candidates.length > 1) {
      const wanted = r.answer.trim();
      const same = candidates.filter((c) => c.answer === wanted);
      if (same.length !== 1) {
        skip(
          r,
          same.length === 0 ? "unmatched" : "ambiguous",
          same.length === 0
            ? `id ${JSON.stringify(r.id)} names ${candidates.length} questions, none with answer ${JSON.stringify(wanted)}`
            : `id ${JSON.stringify(r.id)} names ${candidates.length} questions and ${same.length} of them have answer ${JSON.stringify(wanted)}; the row does not say which`,
        );
        continue;
      }
      sample = same[0]!;
    }
    const expectedKey = sample.metadata.referenceKey;
    if (r.key !== null && typeof expectedKey === "string" && expectedKey !== r.key) {
      skip(
        r,
        "key_mismatch",
        `id ${r.id} is ${JSON.stringify(expectedKey)} here, the row says ${JSON.stringify(r.key)}`,
      );
      continue;
    }
    const earlier = takenBy.get(sample.id);
    if (earlier !== undefined) {
      skip(r, "duplicate", `sample ${sample.key} was already matched by results[${earlier}]`);
      continue;
    }
    takenBy.set(sample.id, r.index);
    matched.push({ result: r, sampleId: sample.id, failure: failureOf(r) });
  }

  const byReason: ReferenceImportReport["byReason"] = {};
  for (const s of skipped) byReason[s.reason] = (byReason[s.reason] ?? 0) + 1;
  const rowError = matched.filter((m) => m.failure?.kind === "row_error").length;
  const apiError = matched.filter((m) => m.failure?.kind === "api_error").length;
  return {
    matched,
    skipped,
    report: {
      dataset: output.dataset,
      benchmark: referenceBenchmark(output)?.benchmark ?? null,
      rows: output.results.length,
      matched: matched.length,
      errors: { total: rowError + apiError, rowError, apiError },
      skipped: skipped.length,
      byReason,
    },
  };
}
