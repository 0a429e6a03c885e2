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
}

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
      metadata: draft.metadata,
    });
    if (!parsed.success) {
      this.skip(file, row, "invalid_field", zodIssues(parsed.error), draft.key);
      return false;
    }
    this.seenKeys.add(draft.key);
    this.samples.push(parsed.data);
    return true;
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
        warnings: this.warnings,
      },
    };
  }
}
