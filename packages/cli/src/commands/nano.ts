import { readdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { SftCurriculum, StepMetrics, Tokenizer } from "@paravt/nano";
import type { Suite } from "@paravt/suite";
import { UsageError, type CliIo, type Command } from "../command";
import { serve, SERVE_HELP } from "./nano-serve";

const PRESETS = {
  tiny: { width: 64, layers: 2, heads: 2, contextLength: 2048 },
  small: { width: 128, layers: 4, heads: 4, contextLength: 2048 },
  default: { width: 256, layers: 6, heads: 8, contextLength: 2048 },
} as const;

const USAGE = `Usage: paravt nano train --suite DIR --out DIR [options]

Cold-start SFT of ParaVT-nano on a needle suite's oracle trajectories (main agent and sub-agent
turns, loss on assistant tokens only, SPEC §3), on the C++ compute core (kernels/). Checkpoints
go to OUT/step-NNNNNN; an existing checkpoint in OUT is resumed (same settings required).
`;

const OPTIONS = `Options:
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
  --think-prefix           SPEC §1.7: the forced "<think>\\n" is prompt, not target (as at evaluation)
  --alias-video-paths      name each main-agent trajectory's video by a random path of the same
                           shape (videos/v0871.mp4, drawn from --seed), so the model learns to copy
                           the path from the prompt rather than recall training paths
  --main-agent-only        train on the main-agent trajectories only, no sub-agent samples (a
                           curriculum stage for what only the main agent does: copying the
                           question's target, planning crops, answering)
  --spell-sub-agent-times  with a tokenizer-version-2 --init-from: sub-agent summaries keep their
                           MM:SS as digits (prompts and the main agent keep one token per time)
  --frame-encoding E       rgb | rgb+foreground: how a frame thumbnail becomes features (default:
                           the --init-from checkpoint's, else rgb). rgb+foreground adds the frame
                           minus its median color; from an rgb checkpoint the frame projection is
                           widened with zero columns, so training starts from the same model
  --repeat-template LIST   repeat the main-agent trajectories of these question templates, e.g.
                           when=4: each such trajectory is trained as 4 examples (each its own
                           aliased path), so a template's answer turn is seen more often
`;

const OUTPUT = `
Progress goes to stderr; at the end one JSON line (steps, final loss, token accuracy, seconds,
checkpoint) goes to stdout. Exit codes: 0 done, 1 training failed, 2 bad arguments.
`;

const HELP = `${USAGE}\n${OPTIONS}${OUTPUT}
Example:
  paravt nano train --suite var/suites/s1 --out var/checkpoints/nano-s1 --steps 1500
`;

/**
 * More flags for `nano train` and the SFT curricula they ask for (@paravt/nano `SftCurriculum`):
 * how research/curricula/train.ts runs the stages of the default's lineage that used curricula.
 * The product passes none (research imports the product, never the reverse).
 */
export interface NanoTrainExtension {
  /** The program's name in messages. */
  name: string;
  /** Its usage and its own options' lines; the command's options follow. */
  usage: string;
  options: Record<string, { type: "string" | "boolean" }>;
  /**
   * Checks the parsed flags before anything loads (a throw is a usage error, exit 2) and returns
   * what builds the run's curricula once its tokenizer and suite are known.
   */
  parse(values: Readonly<Record<string, string | boolean | undefined>>): CurriculaBuilder;
  /** Text appended to a progress line, from the steps since the previous one. */
  progress?(steps: readonly StepMetrics[]): string;
}

export type CurriculaBuilder = (run: {
  tokenizer: Tokenizer;
  suite: () => Promise<Suite>;
}) => SftCurriculum[] | Promise<SftCurriculum[]>;

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

/** `paravt nano train ARGS`, or with `extension` its flags and curricula too (see NanoTrainExtension). */
export async function nanoTrain(args: readonly string[], io: CliIo, extension?: NanoTrainExtension): Promise<number> {
  const name = extension?.name ?? "paravt nano train";
  const help = extension
    ? `${extension.usage}\nOptions of paravt nano train:\n${OPTIONS.slice("Options:\n".length)}${OUTPUT}`
    : HELP;
  if (extension && args.some((a) => a === "--help" || a === "-h")) {
    io.stdout.write(help); // `paravt nano train --help` is answered by main.ts
    return 0;
  }
  let o;
  let curricula: CurriculaBuilder | undefined;
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
        "repeat-template": { type: "string" },
        "main-agent-only": { type: "boolean" },
        "frame-encoding": { type: "string" },
        "spell-sub-agent-times": { type: "boolean" },
        ...extension?.options,
      },
    });
    if (!v.suite) throw new UsageError("--suite is required");
    if (!v.out) throw new UsageError("--out is required");
    const preset = (v.preset ?? "tiny") as keyof typeof PRESETS;
    if (!(preset in PRESETS)) throw new UsageError(`--preset must be tiny, small or default (got ${v.preset})`);
    if (v["init-from"] && v.preset)
      throw new UsageError("--init-from takes the checkpoint's model config: drop --preset");
    const frameEncoding = v["frame-encoding"] as "rgb" | "rgb+foreground" | undefined;
    if (frameEncoding !== undefined && frameEncoding !== "rgb" && frameEncoding !== "rgb+foreground")
      throw new UsageError(`--frame-encoding must be rgb or rgb+foreground (got ${v["frame-encoding"]})`);
    const repeats = v["repeat-template"] === undefined ? undefined : parseTemplateRepeats(v["repeat-template"]);
    const ks = v.ks === undefined ? undefined : v.ks.split(",").map((k) => num("ks", k.trim(), 0, true));
    curricula = extension?.parse(v);
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
      spellSubAgentTimes: v["spell-sub-agent-times"] ?? false,
      frameEncoding,
      repeatTemplates: repeats,
    };
  } catch (e) {
    io.stderr.write(`${name}: ${(e as Error).message}\n\n${help}`);
    return 2;
  }
  // Loaded only here: the compute core (native addon) is not needed by other commands.
  const { defaultTokenizer, lineageParent, loadCheckpoint, modelConfig, repeatTemplates, trainSft, withFrameEncoding } =
    await import("@paravt/nano");
  const started = Date.now();
  try {
    // A warm start takes the checkpoint's architecture, tokenizer (version 1 or 2: time pieces)
    // and weights; the optimizer starts fresh.
    const loaded = o.initFrom ? await loadCheckpoint(o.initFrom) : undefined;
    const tokenizer = loaded?.tokenizer ?? defaultTokenizer();
    const init = loaded && o.frameEncoding ? withFrameEncoding(loaded.config, loaded.params, o.frameEncoding) : loaded;
    const resumeFrom = await latestCheckpoint(o.out);
    if (resumeFrom) io.stderr.write(`resuming from ${resumeFrom}\n`);
    let read: Promise<Suite> | undefined;
    const suite = () => (read ??= import("@paravt/suite").then((s) => s.readSuite(o.suite)));
    const repeated = o.repeatTemplates ? await suite() : undefined;
    let window: StepMetrics[] = [];
    // This run as a stage of the checkpoint's lineage (config.json `lineage`, `trainedKs`).
    const { OVERVIEW_KS, oracleStyleFlag } = await import("@paravt/suite");
    const manifest = (await suite()).manifest;
    const lineage = {
      parent: o.initFrom ? await lineageParent(o.initFrom) : null,
      stage: {
        name: path.basename(path.resolve(o.out)),
        trainer: name,
        arguments: [...args],
        data: {
          description: `the SFT examples of the suite ${o.suite}`,
          suite: {
            name: path.basename(path.resolve(o.suite)),
            seed: manifest.seed,
            count: manifest.count,
            options: `--oracle-style ${oracleStyleFlag(manifest.config.oracleStyle)}`,
          },
        },
        batch: o.batch,
        seed: o.seed,
        hardware: `${os.cpus().length}-core CPU (the compute core)`,
        ks: o.ks ?? [...OVERVIEW_KS],
      },
    };
    const result = await trainSft({
      lineage,
      suiteDir: o.suite,
      ...(repeated && o.repeatTemplates
        ? {
            suite: {
              oracle: repeatTemplates(
                repeated.oracle,
                new Map(repeated.questions.map((q) => [q.id, q.template])),
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
      ...(curricula ? { curricula: await curricula({ tokenizer, suite }) } : {}),
      resumeFrom,
      sft: {
        ks: o.ks,
        thinkPrefix: o.thinkPrefix,
        ...(o.aliasVideoPaths ? { aliasVideoPathsSeed: o.seed } : {}),
        ...(o.mainAgentOnly ? { subAgents: false } : {}),
        ...(o.spellSubAgentTimes ? { spellSubAgentTimes: true } : {}),
      },
      steps: o.steps,
      batchSize: o.batch,
      lr: { kind: "cosine", lr: o.lr, warmupSteps: Math.ceil(o.steps * 0.05) },
      seed: o.seed,
      checkpointEvery: o.every,
      outDir: o.out,
      onStep: (m) => {
        window.push(m);
        if (m.step % 25 === 0 || m.step === o.steps) {
          io.stderr.write(
            `step ${m.step}/${o.steps}  loss ${m.loss.toFixed(4)}  acc ${(m.tokenAccuracy * 100).toFixed(1)}%` +
              `${extension?.progress?.(window) ?? ""}  ${Math.round(m.tokensPerSecond)} tok/s\n`,
          );
          window = [];
        }
      },
    });
    const last = result.metrics.at(-1);
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
    io.stderr.write(`${name}: ${(e as Error).message}\n`);
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
    if (sub === "train") return nanoTrain(rest, io);
    if (sub === "serve") return serve(rest, io);
    io.stderr.write(`paravt nano: expected the subcommand "train" or "serve"\n\n${HELP}\n${SERVE_HELP}`);
    return 2;
  },
};
