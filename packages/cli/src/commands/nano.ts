import { readdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { UsageError, type CliIo, type Command } from "../command";
import { serve, SERVE_HELP } from "./nano-serve";

const PRESETS = {
  tiny: { width: 64, layers: 2, heads: 2, contextLength: 2048 },
  small: { width: 128, layers: 4, heads: 4, contextLength: 2048 },
  default: { width: 256, layers: 6, heads: 8, contextLength: 2048 },
} as const;

const HELP = `Usage: paravt nano train --suite DIR --out DIR [options]

Cold-start SFT of ParaVT-nano on a needle suite's oracle trajectories (main agent and sub-agent
turns, loss on assistant tokens only, SPEC §3), on the C++ compute core (kernels/). Checkpoints
go to OUT/step-NNNNNN; an existing checkpoint in OUT is resumed (same settings required).

Options:
  --suite DIR              suite directory (paravt suite generate)
  --out DIR                checkpoint directory
  --preset P               tiny | small | default (default tiny)
  --steps N                optimizer steps (default 1000)
  --batch B                sequences per step (default 2)
  --lr X                   peak learning rate, cosine schedule with 5 % warm-up (default 1e-3)
  --seed S                 initialisation and data-order seed (default 1)
  --checkpoint-every N     also save every N steps (default 250; the last step is always saved)
  --init-from DIR          start from this checkpoint's parameters (fresh AdamW moments, step 0);
                           its model config is used and --preset must not be given
  --ks LIST                main-agent trajectories of these K only, e.g. 4,8,16 (default: all)
  --think-prefix           SPEC §1.7: the forced "<think>\n" is prompt, not target (as at evaluation)
  --alias-video-paths      name each main-agent trajectory's video by a random path of the same
                           shape (videos/v0871.mp4, drawn from --seed), so the model learns to copy
                           the path from the prompt rather than recall training paths
  --main-agent-only        train on the main-agent trajectories only, no sub-agent samples (a
                           curriculum stage for what only the main agent does: copying the
                           question's target, planning crops, answering)
  --sub-agents-only        train on the sub-agent samples only (a curriculum stage for perception:
                           a window's frames → its summary)
  --spell-sub-agent-times  with a tokenizer-version-2 --init-from: sub-agent summaries keep their
                           MM:SS as digits (prompts and the main agent keep one token per time)
  --frame-targets W        auxiliary perception loss of weight W (> 0): each frame slot and the two
                           prompt positions after it predict the frame's shape, color and position
                           (or its background color), from the suite's annotations; training only
  --frame-target-order O   with --frame-targets: which label the slot, slot + 1 and slot + 2
                           predict (default shape,color,position); position,shape,color makes the
                           shape a label read by attending back to the frame, as a summary must
  --frame-drill S,F        with --frame-targets: each step also trains S sequences of F random
                           frames of the training set on their frame targets alone (e.g. 2,16)
  --reset-frame-projection SEED
                           with --init-from: re-draw the frame projection (frame_w ~ N(0, 0.02²)
                           from SEED, frame_b = 0) and keep the rest: a trained projection does
                           not learn to read shapes any more, a fresh one does (nano README)
  --rgb-projection-scale X with --reset-frame-projection on an rgb+foreground model: keep the
                           trained rgb columns times X (>= 0) and frame_b; draw only the
                           foreground columns
  --frame-encoding E       rgb | rgb+foreground: how a frame thumbnail becomes features (default:
                           the --init-from checkpoint's, else rgb). rgb+foreground adds the frame
                           minus its median color; from an rgb checkpoint the frame projection is
                           widened with zero columns, so training starts from the same model
  --emphasize-palette W    loss weight W (> 0) on target tokens that name a color, shape or
                           position of the suite's palette, 1 on the rest (so the few words a
                           trajectory must copy or see are not drowned by its phrasing)
  --emphasize-answer W     loss weight W (> 0) on the last turn of each main-agent trajectory (its
                           answer: finding the target in the tool responses, writing its times),
                           times any palette weight; 1 on earlier turns and sub-agent samples
  --permute-palette P      with probability P (0 < P <= 1) per main-agent example of a batch whose
                           answer's colors and shapes are all named in its question or tool
                           responses: swap the shape colors, shapes and scene colors by a random
                           bijection in the text (not the frames) and train the answer turn only,
                           so the answer learns to copy its words from the text (nano README)
  --permute-digits P       with probability P (0 < P <= 1) per main-agent example of a batch whose
                           answer's digit runs all appear in its question, frame timestamps or
                           tool responses: swap the ten digits by a random bijection in the text and
                           train the answer turn only, so the answer learns to copy its numbers
                           (e.g. the MM:SS of a suite generated with --when-answer mmss)
  --repeat-template LIST   repeat the main-agent trajectories of these question templates, e.g.
                           when=4: each such trajectory is trained as 4 examples (each its own
                           aliased path), so a template's answer turn is seen more often

Progress goes to stderr; at the end one JSON line (steps, final loss, token accuracy, seconds,
checkpoint) goes to stdout. Exit codes: 0 done, 1 training failed, 2 bad arguments.

Example:
  paravt nano train --suite var/suites/s1 --out var/checkpoints/nano-s1 --steps 1500
`;

/** `--repeat-template` "when=4,after=2" -> { when: 4, after: 2 } (a template once, a count >= 1). */
export function parseTemplateRepeats(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of text.split(",")) {
    const m = /^\s*([a-z_]+)\s*=\s*(\d+)\s*$/.exec(part);
    if (!m || Number(m[2]) < 1)
      throw new UsageError(`--repeat-template takes TEMPLATE=N with N >= 1, e.g. when=4 (got ${part})`);
    if (out[m[1]!] !== undefined) throw new UsageError(`--repeat-template names ${m[1]} twice`);
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

/** The newest `step-NNNNNN` checkpoint under `dir` (what an interrupted run left), if any. */
async function latestCheckpoint(dir: string): Promise<string | undefined> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const steps = names.filter((n) => /^step-\d{6}$/.test(n)).sort();
  return steps.length > 0 ? path.join(dir, steps.at(-1)!) : undefined;
}

function num(name: string, v: string | undefined, fallback: number, integer: boolean): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new UsageError(`--${name} must be a positive ${integer ? "integer" : "number"} (got ${v})`);
  }
  return n;
}

async function train(args: readonly string[], io: CliIo): Promise<number> {
  let o;
  try {
    const { values: v } = parseArgs({
      args: [...args],
      strict: true,
      options: {
        suite: { type: "string" },
        out: { type: "string" },
        preset: { type: "string" },
        steps: { type: "string" },
        batch: { type: "string" },
        lr: { type: "string" },
        seed: { type: "string" },
        "checkpoint-every": { type: "string" },
        "init-from": { type: "string" },
        ks: { type: "string" },
        "think-prefix": { type: "boolean" },
        "alias-video-paths": { type: "boolean" },
        "emphasize-palette": { type: "string" },
        "emphasize-answer": { type: "string" },
        "permute-palette": { type: "string" },
        "repeat-template": { type: "string" },
        "permute-digits": { type: "string" },
        "main-agent-only": { type: "boolean" },
        "frame-encoding": { type: "string" },
        "sub-agents-only": { type: "boolean" },
        "spell-sub-agent-times": { type: "boolean" },
        "frame-targets": { type: "string" },
        "frame-drill": { type: "string" },
        "frame-target-order": { type: "string" },
        "reset-frame-projection": { type: "string" },
        "rgb-projection-scale": { type: "string" },
      },
    });
    if (!v.suite) throw new UsageError("--suite is required");
    if (!v.out) throw new UsageError("--out is required");
    const preset = (v.preset ?? "tiny") as keyof typeof PRESETS;
    if (!(preset in PRESETS)) throw new UsageError(`--preset must be tiny, small or default (got ${v.preset})`);
    if (v["init-from"] && v.preset)
      throw new UsageError("--init-from takes the checkpoint's model config: drop --preset");
    if (v["main-agent-only"] && v["sub-agents-only"])
      throw new UsageError("--main-agent-only and --sub-agents-only exclude each other");
    const frameEncoding = v["frame-encoding"] as "rgb" | "rgb+foreground" | undefined;
    if (frameEncoding !== undefined && frameEncoding !== "rgb" && frameEncoding !== "rgb+foreground")
      throw new UsageError(`--frame-encoding must be rgb or rgb+foreground (got ${v["frame-encoding"]})`);
    const drill = v["frame-drill"]?.split(",").map((x) => num("frame-drill", x.trim(), 0, true));
    if (drill && drill.length !== 2) throw new UsageError(`--frame-drill takes S,F (got ${v["frame-drill"]})`);
    if (drill && v["frame-targets"] === undefined) throw new UsageError("--frame-drill needs --frame-targets");
    // Checked here as well as by parseFrameTargetOrder: @paravt/nano loads the native core, which
    // the argument check must not need, and a bad flag is a usage error (exit 2), not a failed run.
    const order = v["frame-target-order"]?.split(",").map((x) => x.trim());
    if (order && v["frame-targets"] === undefined) throw new UsageError("--frame-target-order needs --frame-targets");
    if (order && !(order.length === 3 && ["shape", "color", "position"].every((l) => order.includes(l))))
      throw new UsageError(
        `--frame-target-order must be a permutation of shape,color,position (got ${v["frame-target-order"]})`,
      );
    const resetSeed = v["reset-frame-projection"];
    if (resetSeed !== undefined && !v["init-from"]) throw new UsageError("--reset-frame-projection needs --init-from");
    if (resetSeed !== undefined && !/^\d+$/.test(resetSeed))
      throw new UsageError(`--reset-frame-projection takes a seed, a non-negative integer (got ${resetSeed})`);
    const rgbScale = v["rgb-projection-scale"] === undefined ? undefined : Number(v["rgb-projection-scale"]);
    if (rgbScale !== undefined && resetSeed === undefined)
      throw new UsageError("--rgb-projection-scale needs --reset-frame-projection");
    if (rgbScale !== undefined && !(Number.isFinite(rgbScale) && rgbScale >= 0))
      throw new UsageError(`--rgb-projection-scale must be a number >= 0 (got ${v["rgb-projection-scale"]})`);
    const permute = v["permute-palette"] === undefined ? undefined : Number(v["permute-palette"]);
    if (permute !== undefined && !(permute > 0 && permute <= 1))
      throw new UsageError(`--permute-palette must be a probability in (0, 1] (got ${v["permute-palette"]})`);
    const digits = v["permute-digits"] === undefined ? undefined : Number(v["permute-digits"]);
    if (digits !== undefined && !(digits > 0 && digits <= 1))
      throw new UsageError(`--permute-digits must be a probability in (0, 1] (got ${v["permute-digits"]})`);
    const repeats = v["repeat-template"] === undefined ? undefined : parseTemplateRepeats(v["repeat-template"]);
    const ks = v.ks === undefined ? undefined : v.ks.split(",").map((k) => num("ks", k.trim(), 0, true));
    o = {
      suite: v.suite,
      out: v.out,
      preset,
      steps: num("steps", v.steps, 1000, true),
      batch: num("batch", v.batch, 2, true),
      lr: num("lr", v.lr, 1e-3, false),
      seed: v.seed === undefined ? 1 : num("seed", v.seed, 1, true),
      every: num("checkpoint-every", v["checkpoint-every"], 250, true),
      initFrom: v["init-from"],
      ks,
      thinkPrefix: v["think-prefix"] ?? false,
      aliasVideoPaths: v["alias-video-paths"] ?? false,
      mainAgentOnly: v["main-agent-only"] ?? false,
      subAgentsOnly: v["sub-agents-only"] ?? false,
      spellSubAgentTimes: v["spell-sub-agent-times"] ?? false,
      frameEncoding,
      resetFrameProjectionSeed: resetSeed === undefined ? undefined : Number(resetSeed),
      rgbProjectionScale: rgbScale,
      frameDrill: drill ? { sequences: drill[0]!, framesPerSequence: drill[1]! } : undefined,
      frameTargets: v["frame-targets"] === undefined ? undefined : num("frame-targets", v["frame-targets"], 1, false),
      frameTargetOrder: order?.join(","),
      emphasizePalette:
        v["emphasize-palette"] === undefined ? undefined : num("emphasize-palette", v["emphasize-palette"], 1, false),
      emphasizeAnswer:
        v["emphasize-answer"] === undefined ? undefined : num("emphasize-answer", v["emphasize-answer"], 1, false),
      permutePalette: permute,
      repeatTemplates: repeats,
      permuteDigits: digits,
    };
  } catch (e) {
    io.stderr.write(`paravt nano train: ${(e as Error).message}\n\n${HELP}`);
    return 2;
  }
  // Loaded only here: the compute core (native addon) is not needed by other commands.
  const {
    defaultTokenizer,
    loadCheckpoint,
    modelConfig,
    paletteTokenIds,
    parseFrameTargetOrder,
    repeatTemplates,
    resetFrameProjection,
    suiteFrameTargets,
    trainSft,
    withFrameEncoding,
  } = await import("@paravt/nano");
  const started = Date.now();
  try {
    // A warm start takes the checkpoint's architecture, tokenizer (version 1 or 2: time pieces)
    // and weights; the optimizer starts fresh.
    const loaded = o.initFrom ? await loadCheckpoint(o.initFrom) : undefined;
    const tokenizer = loaded?.tokenizer ?? defaultTokenizer();
    const widened =
      loaded && o.frameEncoding ? withFrameEncoding(loaded.config, loaded.params, o.frameEncoding) : loaded;
    // A re-drawn frame projection: a trained one no longer learns to read shapes (nano README).
    const init =
      widened && o.resetFrameProjectionSeed !== undefined
        ? {
            ...widened,
            params: resetFrameProjection(
              widened.config,
              widened.params,
              o.resetFrameProjectionSeed,
              o.rgbProjectionScale === undefined ? undefined : { scale: o.rgbProjectionScale },
            ),
          }
        : widened;
    const resumeFrom = await latestCheckpoint(o.out);
    if (resumeFrom) io.stderr.write(`resuming from ${resumeFrom}\n`);
    let copies: [number, number] = [0, 0];
    let digitCopies: [number, number] = [0, 0];
    const suite =
      o.frameTargets !== undefined || o.repeatTemplates
        ? await (await import("@paravt/suite")).readSuite(o.suite)
        : undefined;
    const result = await trainSft({
      suiteDir: o.suite,
      ...(suite && o.repeatTemplates
        ? {
            suite: {
              oracle: repeatTemplates(
                suite.oracle,
                new Map(suite.questions.map((q) => [q.id, q.template])),
                o.repeatTemplates,
              ),
            },
          }
        : {}),
      tokenizer,
      modelConfig: init
        ? { ...init.config, seed: o.seed }
        : modelConfig(tokenizer, {
            ...PRESETS[o.preset],
            seed: o.seed,
            ...(o.frameEncoding ? { frameEncoding: o.frameEncoding } : {}),
          }),
      initialParameters: init?.params,
      ...(o.emphasizePalette !== undefined
        ? { emphasis: { tokenIds: paletteTokenIds(tokenizer), weight: o.emphasizePalette } }
        : {}),
      ...(o.frameTargets !== undefined
        ? {
            frameTargets: suiteFrameTargets(
              suite!.videos,
              tokenizer,
              o.frameTargets,
              o.frameTargetOrder === undefined ? undefined : parseFrameTargetOrder(o.frameTargetOrder),
            ),
          }
        : {}),
      ...(o.frameDrill ? { frameDrill: o.frameDrill } : {}),
      ...(o.emphasizeAnswer !== undefined ? { answerEmphasis: o.emphasizeAnswer } : {}),
      ...(o.permutePalette !== undefined ? { permutePalette: o.permutePalette } : {}),
      ...(o.permuteDigits !== undefined ? { permuteDigits: o.permuteDigits } : {}),
      resumeFrom,
      sft: {
        ks: o.ks,
        thinkPrefix: o.thinkPrefix,
        ...(o.aliasVideoPaths ? { aliasVideoPathsSeed: o.seed } : {}),
        ...(o.mainAgentOnly ? { subAgents: false } : {}),
        ...(o.subAgentsOnly ? { mainAgent: false } : {}),
        ...(o.spellSubAgentTimes ? { spellSubAgentTimes: true } : {}),
      },
      steps: o.steps,
      batchSize: o.batch,
      lr: { kind: "cosine", lr: o.lr, warmupSteps: Math.ceil(o.steps * 0.05) },
      seed: o.seed,
      checkpointEvery: o.every,
      outDir: o.out,
      onStep: (m) => {
        // Palette copies of permuted answers since the last progress line (a few per step).
        copies[0] += Math.round((m.permutedPaletteAccuracy ?? 0) * (m.permutedPaletteCount ?? 0));
        copies[1] += m.permutedPaletteCount ?? 0;
        digitCopies[0] += Math.round((m.permutedDigitAccuracy ?? 0) * (m.permutedDigitCount ?? 0));
        digitCopies[1] += m.permutedDigitCount ?? 0;
        if (m.step % 25 === 0 || m.step === o.steps) {
          const copied = copies[1] > 0 ? `  copy ${copies[0]}/${copies[1]}` : "";
          const digitsCopied = digitCopies[1] > 0 ? `  digits ${digitCopies[0]}/${digitCopies[1]}` : "";
          copies = [0, 0];
          digitCopies = [0, 0];
          io.stderr.write(
            `step ${m.step}/${o.steps}  loss ${m.loss.toFixed(4)}  acc ${(m.tokenAccuracy * 100).toFixed(1)}%` +
              `${m.frameTargetAccuracy !== undefined ? `  frame ${(m.frameTargetAccuracy * 100).toFixed(1)}%` : ""}` +
              `${m.drillAccuracy !== undefined ? `  drill ${(m.drillAccuracy * 100).toFixed(1)}%` : ""}${copied}${digitsCopied}` +
              `  ${Math.round(m.tokensPerSecond)} tok/s\n`,
          );
        }
      },
    });
    const last = result.metrics.at(-1);
    if (last?.frameTargetAccuracy !== undefined)
      io.stderr.write(`frame targets: ${(last.frameTargetAccuracy * 100).toFixed(1)}% right at the last step\n`);
    io.stdout.write(
      JSON.stringify({
        steps: o.steps,
        loss: last?.loss ?? null,
        tokenAccuracy: last?.tokenAccuracy ?? null,
        seconds: Math.round((Date.now() - started) / 100) / 10,
        checkpoint: path.resolve(result.checkpoints.at(-1) ?? o.out),
      }) + "\n",
    );
    return 0;
  } catch (e) {
    io.stderr.write(`paravt nano train: ${(e as Error).message}\n`);
    return 1;
  }
}

export const nanoCommand: Command = {
  name: "nano",
  summary: "train ParaVT-nano on a needle suite, or serve a checkpoint (paravt nano train | serve)",
  help: `${HELP}\n${SERVE_HELP}`,
  subcommandHelp: { train: HELP, serve: SERVE_HELP },
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === "train") return train(rest, io);
    if (sub === "serve") return serve(rest, io);
    io.stderr.write(`paravt nano: expected the subcommand "train" or "serve"\n\n${HELP}\n${SERVE_HELP}`);
    return 2;
  },
};
