import { z } from "zod";

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
     * How the oracle's `when` answer turn writes the range (suite README "Oracle trajectories"):
     * `seconds` "[58, 64]" (start and exclusive end in seconds, what SPEC §2's training IoU reads),
     * or `mmss` "00:58 - 01:03" (first and last second the shape is visible, as the sub-agents'
     * summaries write them, read by SPEC §4's evaluation extraction but not by §2's training IoU):
     * a copy of the tool responses' times instead of a conversion from MM:SS to seconds.
     */
    whenAnswer: z.enum(["seconds", "mmss"]).default("seconds"),
    /**
     * Where the oracle's main agent looks for a `when` question's target (suite README "Oracle
     * trajectories"): `overview` (default) starts from what its K overview frames show; `crops`
     * ignores them for the target and reads the whole video through its sub-agents, at most 5
     * windows a round, then answers from their summaries alone. `crops` costs more calls and
     * frames, and it never asks the main agent to spot a small shape in a thumbnail: the step
     * ParaVT-nano's main agent gets wrong (nano README, Quality bar).
     */
    whenSearch: z.enum(["overview", "crops"]).default("overview"),
    /**
     * Where the oracle's main agent looks for a `scene_color` / `scene_position` question's scene
     * (suite README "Oracle trajectories"): `overview` (default) starts from the backgrounds its K
     * overview frames show; `crops` reads the whole video through its sub-agents, like `whenSearch:
     * "crops"`, and with `sceneAnswer: "quote"` crops the shape's own seconds once more when the
     * window that showed it spans two scenes, so that the answer can quote a summary that says
     * "The background is olive throughout. A red circle …". Why: ParaVT-nano's main agent names its
     * overview frames' backgrounds no better than a blind guess, while its sub-agents name a window's
     * background 0.997 of the time; crops-only makes the scene answer a copy from a tool response,
     * as it made `when` answers (nano README, Quality bar).
     */
    sceneSearch: z.enum(["overview", "crops"]).default("overview"),
    /**
     * Where the oracle's main agent looks for an `order` question's shapes (suite README "Oracle
     * trajectories"): `overview` (default) starts from the shapes its K overview frames show and
     * crops the stretches before the earliest; `crops` reads the video from 0 s through contiguous
     * crops until a summary names one of the four shapes, then answers by quoting that sentence
     * ("The first of the four shapes in my crops: A cyan square from 00:27 to 00:31 is in the
     * top-center. So the cyan square came first (A)."). Why: ParaVT-nano's main agent states which
     * overview frames show a shape no better than a blind guess (0.094, blind 0.074) and names the
     * right first shape in 6 of 57 `order` answers (nano README, Quality bar); crops-only makes the
     * answer a copy from the first tool response that names an option, as `sceneSearch` did.
     */
    orderSearch: z.enum(["overview", "crops"]).default("overview"),
    /**
     * Word order of a shape's sentence in a sub-agent summary (suite README "Oracle
     * trajectories"): `position-first` (default) "A cyan square is in the center from 00:56 to
     * 01:03", or `time-first` "A cyan square from 00:56 to 01:03 is in the center", where the
     * times follow the shape's name at once. With `time-first` an MM:SS `when` answer says "The
     * cyan square from 00:56 to 01:03 is the one asked about.", so copying the target's times is
     * the plain induction "the tokens after `cyan square from`" (nano README, Quality bar).
     */
    shapeSentence: z.enum(["position-first", "time-first"]).default("position-first"),
    /**
     * When on, the oracle's main agent first writes down what each overview frame shows, in time
     * order ("My frames: 0 s teal with a white cross in the top-left; 22 s teal; …"), at K ≤
     * DESCRIBED_MAX_K, then reasons as before (suite README "Oracle trajectories"). Why: ParaVT-nano's
     * main agent states which of its frames show a background or a shape no better than a blind
     * guess, while its sub-agents, which describe their frames one after another, are right 0.997
     * of the time (nano README, Quality bar, "The main agent does not see its overview"); with the
     * notes, the claims that follow are a copy from its own text.
     */
    describeOverview: z.boolean().default(false),
    /**
     * How the oracle's main agent says where it found a scene question's shape (suite README
     * "Oracle trajectories"): `frame` (default) "The frame at 122 s has the olive background and a
     * red circle in the top-left." (the time converted from the summary's MM:SS), or `quote`, which
     * when a crop's summary says "The background is olive throughout." repeats that summary word
     * for word up to the shape's sentence. Why: ParaVT-nano's main agent answers the scene
     * questions at chance although its sub-agents name every window's background and shapes
     * (nano README, Quality bar); quoted, the color is the plain induction copy "the tokens after
     * `olive throughout. A`", the copy that made `when` work (`shapeSentence: "time-first"`).
     */
    sceneAnswer: z.enum(["frame", "quote"]).default("frame"),
    /**
     * How the oracle's main agent goes from its conclusion to an option letter in `scene_color`
     * and `order` answers (suite README "Oracle trajectories"): `letter` (default) "so its color
     * is white: option C.", or `scan`, which first repeats the options in order up to the one it
     * concluded, each with yes or no: "so its color is white. A. red no; B. green no; C. white
     * yes: option C." Why: ParaVT-nano's answers there name an option's text right well above
     * chance but write a letter that matches the text they named no better than chance (nano
     * README, Quality bar). The letter comes before its text in the question ("C. white"), so no
     * copy that follows a match reaches it; scanning makes each step a copy of the question's next
     * tokens or a comparison with the word just written. (`count` options are always 1-4 in
     * order, and its letters already match.)
     */
    mcqAnswer: z.enum(["letter", "scan"]).default("letter"),
    /**
     * How an mcq question lists its options: "letter-first" ("C. white", the default) or
     * "text-first" ("- white (C)"), and, with mcqAnswer "letter", how the oracle's conclusion names
     * the letter: ": option C" or " (C)". Why: the letter-first lookup "text I named -> its
     * letter" needs the token BEFORE a match, which ParaVT-nano did not learn even from a drill
     * (nano README, Quality bar, "tenth session"); text-first makes the letter the token after a
     * repeated bigram ("white (" -> "C"), the induction copy it does learn. SPEC §2/§4 read only
     * the answer's letter, not the question's layout.
     */
    optionStyle: z.enum(["letter-first", "text-first"]).default("letter-first"),
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
