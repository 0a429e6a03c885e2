// File formats of a suite directory, as zod schemas: the writer builds these shapes and the
// reader (read-suite.ts) validates every file against them. TypeScript types derive from here.

import { z } from "zod";
import { OVERVIEW_KS, SuiteConfigSchema } from "./config";
import { POSITIONS, SCENE_COLORS, SHAPE_COLORS, SHAPES } from "./palette";

/** Bumped whenever the same (seed, count, config) would produce different files. */
export const SUITE_GENERATOR_VERSION = 1;

const seconds = z.number().int().min(0);
const id = z.string().regex(/^[A-Za-z0-9_-]+$/, "ids use letters, digits, _ and -");
/** Suite-relative POSIX path without "..": what RL rows and tool calls carry. */
const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), "must be a relative path inside the suite");

export const AppearanceSchema = z.strictObject({ shape: z.enum(SHAPES), color: z.enum(SHAPE_COLORS) });

export const SceneSchema = z.strictObject({
  index: z.number().int().min(0),
  start: seconds,
  end: seconds,
  color: z.enum(SCENE_COLORS),
});
export type Scene = z.output<typeof SceneSchema>;

export const EventSchema = z.strictObject({
  id,
  start: seconds,
  end: seconds,
  shape: z.enum(SHAPES),
  color: z.enum(SHAPE_COLORS),
  position: z.enum(POSITIONS),
  /** "needle": planted for a question; "distractor": everything else. */
  role: z.enum(["needle", "distractor"]),
});
export type SuiteEvent = z.output<typeof EventSchema>;

/** annotations/<id>.json: the exact timeline the video was rendered from. Intervals are [start, end). */
export const AnnotationSchema = z
  .strictObject({
    generatorVersion: z.literal(SUITE_GENERATOR_VERSION),
    id,
    file: relPath,
    durationS: z.number().int().positive(),
    fps: z.number().int().positive(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    scenes: z.array(SceneSchema).min(1),
    events: z.array(EventSchema),
  })
  .superRefine((a, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    let t = 0;
    a.scenes.forEach((s, i) => {
      if (s.index !== i) issue(["scenes", i, "index"], `expected index ${i}`);
      if (s.start !== t || s.end <= s.start) issue(["scenes", i], `scenes must tile [0, durationS) in order`);
      t = s.end;
    });
    if (t !== a.durationS) issue(["scenes"], `scenes end at ${t}, the video at ${a.durationS}`);
    const ids = new Set<string>();
    a.events.forEach((e, i) => {
      if (ids.has(e.id)) issue(["events", i, "id"], `duplicate event id ${e.id}`);
      ids.add(e.id);
      if (e.end <= e.start || e.end > a.durationS) issue(["events", i], `event interval outside (0, durationS]`);
      const prev = a.events[i - 1];
      if (prev && prev.end > e.start) issue(["events", i], `events must be sorted and must not overlap`);
    });
  });
export type VideoAnnotation = z.output<typeof AnnotationSchema>;

const visibleAtK = z.strictObject(
  Object.fromEntries(OVERVIEW_KS.map((k) => [String(k), z.boolean()])) as Record<
    `${(typeof OVERVIEW_KS)[number]}`,
    z.ZodBoolean
  >,
);
export type VisibleAtK = z.output<typeof visibleAtK>;

const questionBase = {
  id,
  videoId: id,
  video: relPath,
  /** The full question text the model sees (options and answer instructions included). */
  question: z.string().min(1),
  /** The ground truth scored by SPEC §2: a letter (mcq), "[start, end]" (tvg), or words (oe). */
  answer: z.string().min(1),
  /** The answer in words (for mcq, the correct option's text). */
  answerText: z.string().min(1),
  /** Ids of the events whose visibility in the overview decides `visibleAtK` (see visibility.ts). */
  evidence: z.array(id).min(1),
  visibleAtK,
};
const mcq = { type: z.literal("mcq"), options: z.array(z.string().min(1)).length(4) };

export const QuestionSchema = z.discriminatedUnion("template", [
  z.strictObject({
    ...questionBase,
    ...mcq,
    template: z.literal("scene_color"),
    params: z.strictObject({ scene: z.enum(SCENE_COLORS) }),
  }),
  z.strictObject({
    ...questionBase,
    ...mcq,
    template: z.literal("count"),
    params: z.strictObject({ target: AppearanceSchema }),
  }),
  z.strictObject({
    ...questionBase,
    ...mcq,
    template: z.literal("order"),
    params: z.strictObject({ options: z.array(AppearanceSchema).length(4) }),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal("tvg"),
    options: z.null(),
    template: z.literal("when"),
    params: z.strictObject({ target: AppearanceSchema }),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal("oe"),
    options: z.null(),
    template: z.literal("scene_position"),
    params: z.strictObject({ scene: z.enum(SCENE_COLORS), position: z.enum(POSITIONS) }),
  }),
  z.strictObject({
    ...questionBase,
    type: z.literal("oe"),
    options: z.null(),
    template: z.literal("after"),
    params: z.strictObject({ anchor: AppearanceSchema }),
  }),
]);
export type SuiteQuestion = z.output<typeof QuestionSchema>;
export type QuestionOf<T extends SuiteQuestion["template"]> = Extract<SuiteQuestion, { template: T }>;

const windowSchema = z.strictObject({ start: seconds, end: seconds });
export type CropCall = z.output<typeof windowSchema>;

export const TurnSchema = z.strictObject({ role: z.enum(["user", "assistant"]), content: z.string().min(1) });
export type Turn = z.output<typeof TurnSchema>;

export const SubAgentSampleSchema = z.strictObject({
  /** 1-based tool round and 0-based call index within it. */
  round: z.number().int().min(1),
  call: z.number().int().min(0),
  video: relPath,
  start: seconds,
  end: seconds,
  /** The crop's frame times (SPEC §1.4: 1 fps from start). */
  timestamps: z.array(z.number().min(0)).min(1).max(16),
  prompt: z.string().min(1),
  summary: z.string().min(1),
});
export type SubAgentSample = z.output<typeof SubAgentSampleSchema>;

const rewardTerms = z.strictObject({
  reward: z.number(),
  acc: z.number(),
  format: z.number(),
  tool: z.number(),
});

/** oracle.jsonl: one main-agent trajectory per (question, K) that the oracle settled. */
export const OracleRowSchema = z.strictObject({
  id,
  questionId: id,
  videoId: id,
  video: relPath,
  k: z.union([z.literal(4), z.literal(8), z.literal(16), z.literal(32), z.literal(64)]),
  overviewTimestamps: z.array(z.number().min(0)).min(1),
  questionType: z.enum(["mcq", "tvg", "oe"]),
  answer: z.string().min(1),
  /** First a user turn (`<video>` = the K overview frames, then the question), then assistant and tool-response turns. */
  turns: z.array(TurnSchema).min(2),
  /** The crop_video calls of each tool round, in call order (the intended parse of each assistant turn). */
  rounds: z.array(z.array(windowSchema).min(1).max(5)).max(3),
  subAgents: z.array(SubAgentSampleSchema),
  /** SPEC §2 reward of the whole trajectory (all turns concatenated) under PARA-GRPO defaults. */
  reward: rewardTerms,
});
export type OracleRow = z.output<typeof OracleRowSchema>;

/** rl.jsonl: SPEC §6 ParaVT RL row. */
export const RlRowSchema = z.strictObject({
  id,
  data_source: z.string(),
  prompt: z
    .array(z.strictObject({ role: z.enum(["system", "user", "assistant"]), content: z.string() }))
    .min(1)
    .refine((p) => p.some((m) => m.content.includes("<video>")), "the prompt must contain a <video> marker"),
  videos: z.array(z.strictObject({ video: relPath })).length(1),
  extra_info: z.strictObject({ answer: z.string().min(1), question_type: z.enum(["mcq", "tvg", "oe"]) }),
});
export type RlRow = z.output<typeof RlRowSchema>;

const shareByK = z.strictObject(
  Object.fromEntries(OVERVIEW_KS.map((k) => [String(k), z.number().min(0).max(1)])) as Record<
    `${(typeof OVERVIEW_KS)[number]}`,
    z.ZodNumber
  >,
);

export const VisibilityRowSchema = z.strictObject({
  group: z.string(),
  questions: z.number().int().min(0),
  /** Share of questions whose evidence is visible in the K overview frames. */
  visible: shareByK,
  /** Share of questions the oracle answers from the overview alone (no crop). */
  noCrop: shareByK,
});
export type VisibilityRow = z.output<typeof VisibilityRowSchema>;

export const ManifestSchema = z.strictObject({
  generator: z.literal("@paravt/suite"),
  generatorVersion: z.literal(SUITE_GENERATOR_VERSION),
  seed: z.number().int().min(0),
  count: z.number().int().min(1),
  config: SuiteConfigSchema,
  counts: z.strictObject({
    videos: z.number().int().min(0),
    questions: z.number().int().min(0),
    oracle: z.number().int().min(0),
    /** (question, K) pairs the oracle could not settle within 3 rounds of 5 crops (not in oracle.jsonl). */
    oracleUnsettled: z.number().int().min(0),
    subAgentSamples: z.number().int().min(0),
    rl: z.number().int().min(0),
    questionsDropped: z.number().int().min(0),
  }),
  totalDurationS: z.number().int().min(0),
  videos: z.array(
    z.strictObject({
      id,
      file: relPath,
      annotation: relPath,
      durationS: z.number().int().positive(),
      bytes: z.number().int().positive(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
  visibility: z.array(VisibilityRowSchema),
});
export type Manifest = z.output<typeof ManifestSchema>;
