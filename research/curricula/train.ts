// Usage: npx tsx research/curricula/train.ts --suite DIR --out DIR [curriculum flags] [paravt nano train flags] (--help)
//
// The permmix stages of research/recipes/ run here (e.g. `--ks 4,8,16 --think-prefix
// --alias-video-paths --frame-targets 3 --frame-drill 2,16 --emphasize-palette 2 --batch 2`);
// the curricula go in the order whose fingerprints those stages' checkpoints carry (index.ts).
import type { StepMetrics } from "@paravt/nano";
// The product command itself, by path: research imports the product, and the CLI package exports
// only its entry point.
import { nanoTrain, type NanoTrainExtension } from "@paravt/cli/nano-train";
import { answerEmphasis, frameDrill, frameTargets, paletteEmphasis, permutePalette, suiteFrameTargets } from "./index";

const USAGE = `Usage: npx tsx research/curricula/train.ts --suite DIR --out DIR [options]

paravt nano train with the SFT curricula that trained the shipped default (research/curricula).

Curricula:
  --emphasize-palette W    loss weight W (> 0) on target tokens that name a color, shape or
                           position of the suite's palette, 1 on the rest (so the few words a
                           trajectory must copy or see are not drowned by its phrasing)
  --emphasize-answer W     loss weight W (> 0) on the last turn of each main-agent trajectory (its
                           answer: finding the target in the tool responses, writing its times),
                           times any palette weight; 1 on earlier turns and sub-agent samples
  --frame-targets W        auxiliary perception loss of weight W (> 0): each frame slot and the two
                           prompt positions after it predict the frame's shape, color and position
                           (or its background color), from the suite's annotations; training only
  --frame-drill S,F        with --frame-targets: each step also trains S sequences of F random
                           frames of the training set on their frame targets alone (e.g. 2,16)
  --permute-palette P      with probability P (0 < P <= 1) per main-agent example of a batch whose
                           answer's colors and shapes are all named in its question or tool
                           responses: swap the shape colors, shapes and scene colors by a random
                           bijection in the text (not the frames) and train the answer turn only,
                           so the answer learns to copy its words from the text
`;

/** A positive number (or integer) flag; undefined when absent. */
function positive(name: string, v: string | boolean | undefined, integer = false): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
    throw new Error(`--${name} must be a positive ${integer ? "integer" : "number"} (got ${v})`);
  return n;
}

const hitsOf = (m: StepMetrics, accuracy: string, count: string) =>
  Math.round((m.curricula?.[accuracy] ?? 0) * (m.curricula?.[count] ?? 0));

const curricula: NanoTrainExtension = {
  name: "research/curricula/train.ts",
  usage: USAGE,
  options: {
    "emphasize-palette": { type: "string" },
    "emphasize-answer": { type: "string" },
    "frame-targets": { type: "string" },
    "frame-drill": { type: "string" },
    "permute-palette": { type: "string" },
  },
  parse(v) {
    const palette = positive("emphasize-palette", v["emphasize-palette"]);
    const answer = positive("emphasize-answer", v["emphasize-answer"]);
    const targets = positive("frame-targets", v["frame-targets"]);
    const drill = typeof v["frame-drill"] === "string" ? v["frame-drill"].split(",") : undefined;
    if (drill && drill.length !== 2) throw new Error(`--frame-drill takes S,F (got ${v["frame-drill"]})`);
    const [sequences, framesPerSequence] = (drill ?? []).map((x) => positive("frame-drill", x.trim(), true)!);
    if (drill && targets === undefined) throw new Error("--frame-drill needs --frame-targets");
    const permute = v["permute-palette"] === undefined ? undefined : Number(v["permute-palette"]);
    if (permute !== undefined && !(permute > 0 && permute <= 1))
      throw new Error(`--permute-palette must be a probability in (0, 1] (got ${v["permute-palette"]})`);
    return async ({ tokenizer, suite }) => {
      const labels = targets === undefined ? undefined : suiteFrameTargets((await suite()).videos, tokenizer, targets);
      return [
        ...(palette === undefined ? [] : [paletteEmphasis(tokenizer, palette)]),
        ...(answer === undefined ? [] : [answerEmphasis(answer)]),
        ...(labels ? [frameTargets(labels)] : []),
        ...(labels && drill
          ? [frameDrill(labels, { sequences: sequences!, framesPerSequence: framesPerSequence! })]
          : []),
        ...(permute === undefined ? [] : [permutePalette(permute)]),
      ];
    };
  },
  // As the former `paravt nano train` line: the last step's frame-target and drill accuracy, and
  // the palette copies of permuted answers since the previous line.
  progress(steps) {
    const m = steps.at(-1)!.curricula ?? {};
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const copies = steps.reduce((s, x) => s + hitsOf(x, "permutedPaletteAccuracy", "permutedPaletteCount"), 0);
    const words = steps.reduce((s, x) => s + (x.curricula?.permutedPaletteCount ?? 0), 0);
    return (
      `${m.frameTargetAccuracy !== undefined ? `  frame ${pct(m.frameTargetAccuracy)}` : ""}` +
      `${m.drillAccuracy !== undefined ? `  drill ${pct(m.drillAccuracy)}` : ""}` +
      `${words > 0 ? `  copy ${copies}/${words}` : ""}`
    );
  },
};

process.exitCode = await nanoTrain(process.argv.slice(2), process, curricula);
