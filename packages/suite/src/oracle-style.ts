// The oracle's style: how its trajectories search and word what they find (suite README "Oracle
// styles"). One schema and its named presets; `SuiteConfig.oracleStyle` takes a preset name or a
// partial style over `reference`. Pure (zod only): the CLI imports it at start-up through
// `@paravt/suite/oracle-style` without loading the video stack.

import { z } from "zod";

export const OracleStyleSchema = z.strictObject({
  /**
   * How a `when` answer writes the range: `seconds` "[58, 64]" (start and exclusive end, what
   * SPEC §2's training IoU reads) or `mmss` "00:58 - 01:03" (the first and last second the shape
   * is visible, copied from the sub-agents' summaries; SPEC §4's extraction reads it, §2's IoU does not).
   */
  whenAnswer: z.enum(["seconds", "mmss"]),
  /**
   * Where the main agent looks for a `when` target: `overview` (starts from its K overview frames)
   * or `crops` (reads the whole video through its sub-agents, at most 5 windows a round, and
   * answers from their summaries alone).
   */
  whenSearch: z.enum(["overview", "crops"]),
  /**
   * The same for a `scene_color` / `scene_position` question's scene. With `sceneAnswer: "quote"`,
   * `crops` also crops the shape's own seconds when the window that showed it spans two scenes,
   * so that the answer can quote a summary that shows the scene throughout.
   */
  sceneSearch: z.enum(["overview", "crops"]),
  /**
   * The same for an `order` question's shapes: `crops` reads from 0 s through contiguous crops
   * until a summary names one of the four shapes, and the answer quotes that sentence.
   */
  orderSearch: z.enum(["overview", "crops"]),
  /**
   * Word order of a shape's sentence in a sub-agent summary: `position-first` "A cyan square is in
   * the center from 00:56 to 01:03" or `time-first` "A cyan square from 00:56 to 01:03 is in the
   * center" (an MM:SS `when` answer then says "The cyan square from 00:56 to 01:03 is the one asked about.").
   */
  shapeSentence: z.enum(["position-first", "time-first"]),
  /**
   * How a scene question's answer says where its shape is: `frame` "The frame at 122 s has the
   * olive background and …" or `quote`, which repeats a crop's summary that says "The background
   * is olive throughout." word for word up to the shape's sentence, when one does.
   */
  sceneAnswer: z.enum(["frame", "quote"]),
  /**
   * How an mcq question lists its options and the answer names the letter: `letter-first`
   * ("C. white", "…is white: option C.") or `text-first` ("- white (C)", "…is white (C).").
   * SPEC §2 / §4 read only the answer's letter.
   */
  optionStyle: z.enum(["letter-first", "text-first"]),
});
export type OracleStyle = z.output<typeof OracleStyleSchema>;
export type OracleKnob = keyof OracleStyle;

/** The knobs in schema order (the order a resolved style, and so a manifest, lists them in). */
export const ORACLE_KNOBS = Object.keys(OracleStyleSchema.shape) as OracleKnob[];

/** Each knob's allowed values. */
export const ORACLE_KNOB_VALUES = Object.fromEntries(
  ORACLE_KNOBS.map((k) => [k, OracleStyleSchema.shape[k].options]),
) as unknown as { [K in OracleKnob]: readonly OracleStyle[K][] };

export const ORACLE_PRESETS = {
  /** SPEC's plain oracle: every knob at its first value. */
  reference: {
    whenAnswer: "seconds",
    whenSearch: "overview",
    sceneSearch: "overview",
    orderSearch: "overview",
    shapeSentence: "position-first",
    sceneAnswer: "frame",
    optionStyle: "letter-first",
  },
  /** What the shipped default checkpoint's last stage was trained on (research/recipes/default.sh, stage 18). */
  "nano-default": {
    whenAnswer: "mmss",
    whenSearch: "crops",
    sceneSearch: "crops",
    orderSearch: "crops",
    shapeSentence: "time-first",
    sceneAnswer: "quote",
    optionStyle: "text-first",
  },
} as const satisfies Record<string, OracleStyle>;
export type OraclePreset = keyof typeof ORACLE_PRESETS;
export const ORACLE_PRESET_NAMES = Object.keys(ORACLE_PRESETS) as OraclePreset[];

/** A preset name, or some knobs over `reference`. */
export const OracleStyleInputSchema = z.union([
  z.enum(ORACLE_PRESET_NAMES as [OraclePreset, ...OraclePreset[]]),
  OracleStyleSchema.partial(),
]);
export type OracleStyleInput = z.input<typeof OracleStyleInputSchema>;

/** The full style of a preset name or of knobs over `reference`, its keys always in schema order. */
export function resolveOracleStyle(input: OracleStyleInput = "reference"): OracleStyle {
  const base: OracleStyle = ORACLE_PRESETS.reference;
  const over: Partial<OracleStyle> = typeof input === "string" ? ORACLE_PRESETS[input] : input;
  return Object.fromEntries(ORACLE_KNOBS.map((k) => [k, over[k] ?? base[k]])) as OracleStyle;
}

/** A knob's CLI name: whenAnswer -> when-answer. */
export const knobFlag = (k: OracleKnob) => k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The `--oracle-style` value that gives `style`: a preset's name when it is one, else the knobs
 * that differ from `reference` (`when-answer=mmss,when-search=crops`). `parseOracleStyle` inverts it.
 */
export function oracleStyleFlag(style: OracleStyle): string {
  const same = (p: OraclePreset) => ORACLE_KNOBS.every((k) => ORACLE_PRESETS[p][k] === style[k]);
  const preset = ORACLE_PRESET_NAMES.find(same);
  if (preset) return preset;
  const base: OracleStyle = ORACLE_PRESETS.reference;
  return ORACLE_KNOBS.filter((k) => style[k] !== base[k])
    .map((k) => `${knobFlag(k)}=${style[k]}`)
    .join(",");
}

/** A bad `--oracle-style` value; the message names what is allowed. */
export class OracleStyleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OracleStyleError";
  }
}

/**
 * Parses the CLI's `PRESET`, `knob=value,knob=value` or `PRESET,knob=value,…` (a preset only
 * first, each knob at most once; knobs in their CLI names, e.g. `when-answer=mmss`) into the
 * full style: the knobs given over the preset, or over `reference` when none is named.
 */
export function parseOracleStyle(text: string): OracleStyle {
  const knobs = new Map(ORACLE_KNOBS.map((k) => [knobFlag(k), k]));
  const presets = ORACLE_PRESET_NAMES.join(", ");
  let preset: OraclePreset = "reference";
  const over: Partial<Record<OracleKnob, string>> = {};
  text.split(",").forEach((raw, i) => {
    const item = raw.trim();
    if (item === "") throw new OracleStyleError(`empty item in "${text}"`);
    const eq = item.indexOf("=");
    if (eq === -1) {
      if (!(ORACLE_PRESET_NAMES as readonly string[]).includes(item))
        throw new OracleStyleError(
          `unknown preset "${item}" (presets: ${presets}; or knob=value, knobs: ${[...knobs.keys()].join(", ")})`,
        );
      if (i > 0) throw new OracleStyleError(`a preset may only come first (got "${item}" after other items)`);
      preset = item as OraclePreset;
      return;
    }
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    const knob = knobs.get(name);
    if (knob === undefined)
      throw new OracleStyleError(`unknown knob "${name}" (knobs: ${[...knobs.keys()].join(", ")})`);
    if (over[knob] !== undefined) throw new OracleStyleError(`${name} is given twice`);
    const allowed: readonly string[] = ORACLE_KNOB_VALUES[knob];
    if (!allowed.includes(value))
      throw new OracleStyleError(`${name} must be ${allowed.join(" or ")} (got ${value === "" ? "nothing" : value})`);
    over[knob] = value;
  });
  return resolveOracleStyle({ ...ORACLE_PRESETS[preset], ...(over as Partial<OracleStyle>) });
}

/**
 * The fields suites written before `oracleStyle` existed kept flat in their manifest's config.
 * `describeOverview` and `mcqAnswer` were removed (research/LOG.md); their values are dropped.
 */
const LEGACY_KNOBS = [...ORACLE_KNOBS, "describeOverview", "mcqAnswer"] as const;

/**
 * A manifest config of such a suite with its flat knobs moved into `oracleStyle` (the removed
 * ones dropped); any other value is returned as it is, for the schema to judge.
 */
export function upgradeLegacyConfig(config: unknown): unknown {
  if (typeof config !== "object" || config === null || Array.isArray(config) || "oracleStyle" in config) return config;
  const entries = Object.entries(config);
  if (!entries.some(([k]) => (LEGACY_KNOBS as readonly string[]).includes(k))) return config;
  const style = Object.fromEntries(entries.filter(([k]) => (ORACLE_KNOBS as readonly string[]).includes(k)));
  // Rebuilt in place of the first flat knob, so the config keeps its key order.
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (!(LEGACY_KNOBS as readonly string[]).includes(k)) out[k] = v;
    else if (!("oracleStyle" in out)) out.oracleStyle = style;
  }
  return out;
}
