// Where every row of a benchmark ends: as a validated sample or as a skip with its reason. Each
// row is added or skipped exactly once, so `rows = loaded + skipped` holds by construction and the
// report accounts for every question in the files.

import type { z } from "zod";
import {
  SampleSchema,
  type BenchmarkId,
  type JsonRecord,
  type LoadResult,
  type LoadStats,
  type QuestionType,
  type Sample,
  type SkippedRow,
  type SkipReason,
} from "./schemas";
import type { ReferenceBody } from "./reference-bodies";
import { ReferenceQuestionSchema, type ReferenceDatasetName } from "./reference-question";
import type { VideoResolver } from "./video-path";

export interface SampleDraft {
  key: string;
  /** Alternative references for the row's video (tried in order under the video directory). */
  video: readonly string[];
  question: string;
  options: string[] | null;
  answer: string;
  questionType: QuestionType;
  durationS?: number;
  metadata: JsonRecord;
  /**
   * The reference evaluator's question text for this row (loaders of copies whose rows are the
   * reference's): stored as `metadata.reference`, or, when it cannot be built, counted in a warning.
   */
  reference?: { dataset: ReferenceDatasetName; isMcq: boolean; body: ReferenceBody };
}

/** Distinct reasons listed in the "no reference text" warning before the rest are summed up. */
const REFERENCE_REASONS_SHOWN = 5;

export function zodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 4)
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "(row)"}: ${i.message}`)
    .join("; ");
}

export class Collector {
  readonly samples: Sample[] = [];
  readonly skipped: SkippedRow[] = [];
  readonly warnings: string[] = [];
  private readonly files: string[] = [];
  private readonly seenKeys = new Set<string>();
  private subtitles: { withText: number; missing: number } | undefined;
  /** Why kept samples carry no `metadata.reference`: reason -> count. */
  private readonly withoutReference = new Map<string, number>();

  constructor(
    readonly benchmark: BenchmarkId,
    readonly split: string,
    readonly variant: string,
    readonly videos: VideoResolver,
  ) {}

  readFile(rel: string): void {
    this.files.push(rel);
  }

  countSubtitles(found: boolean): void {
    this.subtitles ??= { withText: 0, missing: 0 };
    if (found) this.subtitles.withText++;
    else this.subtitles.missing++;
  }

  skip(file: string, row: number, reason: SkipReason, detail: string, key?: string): void {
    if (key !== undefined) this.seenKeys.add(key);
    this.skipped.push({ file, row, ...(key === undefined ? {} : { key }), reason, detail });
  }

  /** Resolves the video, validates the sample, and keeps it, or records why not. True when kept. */
  async add(file: string, row: number, draft: SampleDraft): Promise<boolean> {
    if (this.seenKeys.has(draft.key)) {
      this.skip(file, row, "duplicate_key", `key "${draft.key}" already used by an earlier row`, draft.key);
      return false;
    }
    const video = await this.videos.resolve(draft.video);
    if (!video.ok) {
      this.skip(file, row, video.reason, video.detail, draft.key);
      return false;
    }
    const reference = draft.reference?.body.ok
      ? ReferenceQuestionSchema.safeParse({
          dataset: draft.reference.dataset,
          questionBody: draft.reference.body.body,
          isMcq: draft.reference.isMcq,
        })
      : null;
    if (reference && !reference.success) {
      this.skip(file, row, "invalid_field", `reference text: ${zodIssues(reference.error)}`, draft.key);
      return false;
    }
    const parsed = SampleSchema.safeParse({
      key: draft.key,
      benchmark: this.benchmark,
      split: this.split,
      videoPath: video.path,
      question: draft.question,
      options: draft.options,
      answer: draft.answer,
      questionType: draft.questionType,
      ...(draft.durationS === undefined ? {} : { durationS: draft.durationS }),
      metadata: reference ? { ...draft.metadata, reference: reference.data } : draft.metadata,
    });
    if (!parsed.success) {
      this.skip(file, row, "invalid_field", zodIssues(parsed.error), draft.key);
      return false;
    }
    this.seenKeys.add(draft.key);
    this.samples.push(parsed.data);
    const body = draft.reference?.body;
    if (body && !body.ok) this.withoutReference.set(body.why, (this.withoutReference.get(body.why) ?? 0) + 1);
    return true;
  }

  private referenceWarnings(): string[] {
    if (this.withoutReference.size === 0) return [];
    const entries = [...this.withoutReference];
    const total = entries.reduce((n, [, c]) => n + c, 0);
    const shown = entries.slice(0, REFERENCE_REASONS_SHOWN).map(([why, c]) => `${why} (${c})`);
    const rest = entries.length - shown.length;
    return [
      `${total} sample(s) carry no reference-evaluator question text (metadata.reference): ${shown.join("; ")}` +
        (rest > 0 ? `; ${rest} other reason(s)` : ""),
    ];
  }

  result(): LoadResult {
    const byReason: LoadStats["byReason"] = {};
    for (const s of this.skipped) byReason[s.reason] = (byReason[s.reason] ?? 0) + 1;
    const byQuestionType: LoadStats["byQuestionType"] = {};
    const byDurationCategory: Record<string, number> = {};
    const videos = new Set<string>();
    for (const s of this.samples) {
      byQuestionType[s.questionType] = (byQuestionType[s.questionType] ?? 0) + 1;
      const cat = s.metadata.durationCategory;
      if (typeof cat === "string") byDurationCategory[cat] = (byDurationCategory[cat] ?? 0) + 1;
      videos.add(s.videoPath);
    }
    return {
      benchmark: this.benchmark,
      split: this.split,
      samples: this.samples,
      skipped: this.skipped,
      stats: {
        rows: this.samples.length + this.skipped.length,
        loaded: this.samples.length,
        skipped: this.skipped.length,
        byReason,
        byQuestionType,
        byDurationCategory,
        files: this.files,
        variant: this.variant,
        videoDir: this.videos.videoDir,
        videos: videos.size,
        ...(this.subtitles ? { subtitles: this.subtitles } : {}),
        warnings: [...this.warnings, ...this.referenceWarnings()],
      },
    };
  }
}
