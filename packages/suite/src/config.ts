import { z } from "zod";
import { OracleStyleInputSchema, resolveOracleStyle } from "./oracle-style";

/** Question templates; see templates.ts for their text, evidence and answers. */
export const TEMPLATES = ["scene_color", "count", "order", "when", "scene_position", "after"] as const;
export type TemplateName = (typeof TEMPLATES)[number];

/** The overview sizes of SPEC §1.8 nFrames gating; visibility and oracles are computed for each. */
export const OVERVIEW_KS = [4, 8, 16, 32, 64] as const;
export type OverviewK = (typeof OVERVIEW_KS)[number];

/**
 * Generator knobs. Every field has a default (the demo suite: 1-3 minute videos), so `{}` is a
 * valid config. Times are whole seconds: scene and event boundaries fall on whole seconds, which
 * is what lets a 1 fps crop (SPEC §1.4) pin an event's start and end exactly.
 */
export const SuiteConfigSchema = z
  .strictObject({
    /** Video length range in minutes (1-30). Lengths are multiples of 64/fps seconds, see `durationUnitS`. */
    minMinutes: z.number().min(1).max(30).default(1),
    maxMinutes: z.number().min(1).max(30).default(3),
    /** Frame size; multiples of 6 so the 3x3 grid and yuv420p chroma line up. */
    width: z.number().int().min(48).max(1920).multipleOf(6).default(192),
    height: z.number().int().min(48).max(1080).multipleOf(6).default(108),
    /** Frame rate; must divide 64 so every overview timestamp (K | 64) lands on a frame. */
    fps: z.union([z.literal(1), z.literal(2), z.literal(4), z.literal(8), z.literal(16)]).default(4),
    /** Scene length range (seconds); maxSceneS >= 2 * minSceneS keeps the partition simple. */
    minSceneS: z.number().int().min(4).default(20),
    maxSceneS: z.number().int().min(8).default(60),
    /** Event length range (seconds). */
    minEventS: z.number().int().min(1).default(2),
    maxEventS: z.number().int().min(1).default(10),
    /** Least time between two events (seconds): events never overlap and never touch. */
    minGapS: z.number().int().min(1).default(2),
    /** Target number of events per minute, needles included (distractors fill up to it). */
    eventsPerMinute: z.number().min(0).max(30).default(5),
    /** Questions per video, drawn from `templates` in balanced rotation. */
    questionsPerVideo: z.number().int().min(1).max(TEMPLATES.length).default(3),
    templates: z
      .array(z.enum(TEMPLATES))
      .min(1)
      .refine((t) => new Set(t).size === t.length, "templates must not repeat")
      .default([...TEMPLATES]),
    /**
     * How the oracle's trajectories search and word what they find (oracle-style.ts, suite README
     * "Oracle styles"): a preset name or some knobs over `reference`; resolved to the full style.
     */
    oracleStyle: OracleStyleInputSchema.transform((s) => resolveOracleStyle(s)).default(() =>
      resolveOracleStyle("reference"),
    ),
    /** libx264 settings; see README "Encoding" for the measurement behind the defaults. */
    crf: z.number().int().min(0).max(51).default(23),
    preset: z.enum(["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow"]).default("veryfast"),
  })
  .superRefine((c, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (c.maxMinutes < c.minMinutes) issue("maxMinutes", "maxMinutes must be >= minMinutes");
    if (c.maxSceneS < 2 * c.minSceneS) issue("maxSceneS", "maxSceneS must be >= 2 * minSceneS");
    if (c.maxEventS < c.minEventS) issue("maxEventS", "maxEventS must be >= minEventS");
    if (c.maxEventS > c.minSceneS) issue("maxEventS", "maxEventS must be <= minSceneS (events lie inside scenes)");
    if (c.minMinutes * 60 < c.minSceneS) issue("minMinutes", "videos must be at least one scene long");
  });

export type SuiteConfig = z.output<typeof SuiteConfigSchema>;
export type SuiteConfigInput = z.input<typeof SuiteConfigSchema>;

export const DEFAULT_CONFIG: SuiteConfig = SuiteConfigSchema.parse({});

/** Parses a partial config, filling defaults; throws a ZodError naming the bad field. */
export function resolveConfig(input: SuiteConfigInput = {}): SuiteConfig {
  return SuiteConfigSchema.parse(input);
}

/**
 * Video lengths are whole multiples of this many seconds (64 / fps: 16 s at 4 fps). Then
 * `i * duration / K` is a whole number of frames for every K dividing 64, so each overview
 * timestamp is exactly a frame time (and, with the GOP the encoder uses, a keyframe): what the
 * annotations say is visible at K is what a decoder returns at K.
 */
export function durationUnitS(config: Pick<SuiteConfig, "fps">): number {
  return 64 / config.fps;
}
