// The sample grid (issue 41 item 13): one page of cards for an eval run (filtered with the samples
// table's own filter contract) or for a dataset. A card carries what a thumbnail-sized view of a
// sample needs and nothing more: the outcome fields exactly as the samples table reads them, the
// crop windows and overview timestamps for the mini timeline, and the video's duration and whether
// it has filmstrip sprites. Payloads are bounded: every list and text on a card has a cap.
import { z } from "zod";
import { id, pageLimit, syncFirst } from "./common";
import { datasetRefInput, questionTypeSchema } from "./datasets";
import { evalSampleListInput } from "./evals";

/** Overview timestamps kept per card (evenly picked, first and last included): ticks and tiles. */
export const GRID_OVERVIEW_CAP = 16;
/** Crop windows kept per card; `windowCount` says how many the episode has. */
export const GRID_WINDOW_CAP = 64;
/** Characters of the question's first line, the answer and the prediction on a card. */
export const GRID_TEXT_CAP = 200;
/** Cards per page: divisible by 2, 3, 4 and 6 columns, so full rows until the last page. */
export const GRID_PAGE_DEFAULT = 48;
export const GRID_PAGE_MAX = 96;

/**
 * Up to `max` of `values`, evenly spaced by index, the first and the last included (the overview
 * timestamps a card keeps, the tiles its filmstrip shows). `max` below 2 keeps the first only.
 */
export function capEvenly<T>(values: readonly T[], max: number): T[] {
  if (values.length <= max) return [...values];
  if (max < 2) return values.slice(0, Math.max(0, max));
  return Array.from({ length: max }, (_, i) => values[Math.round((i * (values.length - 1)) / (max - 1))]!);
}

/**
 * The eval grid's query: the samples table's filters (`evalSampleListInput`: outcome, question
 * type, tool calls, K, duration group, flipped against a run), plus a run to compare each card
 * with (`compareWith`, which filters nothing; `flippedAgainst` filters).
 */
export const evalSampleGridInput = evalSampleListInput.extend({
  compareWith: id.optional(),
  limit: pageLimit(GRID_PAGE_MAX, GRID_PAGE_DEFAULT),
});
export type EvalSampleGridInput = z.infer<typeof evalSampleGridInput>;

export const datasetSampleGridInput = datasetRefInput.extend({
  questionType: questionTypeSchema.optional(),
  cursor: z.string().optional(),
  limit: pageLimit(GRID_PAGE_MAX, GRID_PAGE_DEFAULT),
});
export type DatasetSampleGridInput = z.infer<typeof datasetSampleGridInput>;

/** The sample's video as a card draws it: its duration is the mini timeline's length. */
export const gridVideo = z.object({
  id: z.string(),
  durationS: z.number().nullable(),
  /** Filmstrip sprites exist (video.assets job done): the card draws tiles from them. */
  hasFilmstrip: z.boolean(),
});
export type GridVideo = z.infer<typeof gridVideo>;

/** One crop_video window of an episode: turn and call index (0-based) pick its lane and colour. */
export const gridWindow = z.object({
  turn: z.number().int(),
  call: z.number().int(),
  startS: z.number(),
  endS: z.number(),
  status: z.enum(["OK", "ERROR", "REJECTED"]),
});
export type GridWindow = z.infer<typeof gridWindow>;

/**
 * A card's sample against the comparison run (issue 8's flip, the `flippedAgainst` filter's
 * definition: right = answered and correct; wrong = answered and not correct; errors are neither):
 * `not_comparable` when this episode is an error or the other run has no answered episode on it.
 */
export const FLIP_STATES = ["right_to_wrong", "wrong_to_right", "unchanged", "not_comparable"] as const;
export const flipStateSchema = z.enum(FLIP_STATES);
export type FlipState = z.infer<typeof flipStateSchema>;

const cardSample = {
  sampleId: z.string(),
  key: z.string(),
  questionType: questionTypeSchema,
  /** The question's first line, at most GRID_TEXT_CAP characters. */
  question: z.string(),
  /** The reference answer (a grounding span "[s, e]" for tvg), at most GRID_TEXT_CAP characters. */
  answer: z.string(),
  video: gridVideo.nullable(),
};

export const evalSampleCard = z.object({
  ...cardSample,
  episodeId: z.string(),
  k: z.number().int(),
  rolloutIndex: z.number().int(),
  // The outcome, as the samples table reads it (status, then the verdict, then the number).
  status: z.enum(["OK", "ERROR"]),
  correct: z.boolean().nullable(),
  score: z.number().nullable(),
  prediction: z.string().nullable(),
  error: z.string().nullable(),
  toolCallCount: z.number().int(),
  /** Windows with end > start, in turn and call order, at most GRID_WINDOW_CAP. */
  windows: z.array(gridWindow),
  windowCount: z.number().int(),
  /** At most GRID_OVERVIEW_CAP of the episode's overview timestamps (`capEvenly`). */
  overviewTimestamps: z.array(z.number()),
  overviewCount: z.number().int(),
  /** Null without `compareWith`. */
  flip: flipStateSchema.nullable(),
});
export type EvalSampleCard = z.infer<typeof evalSampleCard>;

export const evalSampleGridOutput = syncFirst(
  z.object({ items: z.array(evalSampleCard), nextCursor: z.string().nullable() }),
);
export type EvalSampleGridOutput = z.infer<typeof evalSampleGridOutput>;

export const datasetSampleCard = z.object({
  ...cardSample,
  /** Needle suites: whether the evidence is visible in the overview at each K (metadata.visibleAtK). */
  visibleAtK: z.record(z.string(), z.boolean()).nullable(),
});
export type DatasetSampleCard = z.infer<typeof datasetSampleCard>;

export const datasetSampleGridOutput = syncFirst(
  z.object({
    items: z.array(datasetSampleCard),
    nextCursor: z.string().nullable(),
  }),
);
export type DatasetSampleGridOutput = z.infer<typeof datasetSampleGridOutput>;
