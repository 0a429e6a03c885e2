import { parseArgs } from "node:util";
// The oracle style module is pure (zod only), so the parser can use it at start-up.
import { OracleStyleError, parseOracleStyle, type OracleStyle } from "@paravt/suite/oracle-style";
import { runSubcommand, UsageError, type CliIo, type Command } from "../command";

const HELP = `Usage: paravt suite generate --seed S --count N --out DIR [--min-minutes A] [--max-minutes B]
                           [--oracle-style PRESET|knob=value,...]

Generates the long-video needle suite (@paravt/suite): N synthetic videos rendered and encoded
to H.264 MP4, their exact annotations, questions (mcq / tvg / oe), oracle trajectories for
cold-start SFT and SPEC §6 RL rows. Same seed, count and options -> same files.

Options:
  --seed S           non-negative integer (< 2^32)
  --count N          number of videos (1-10000)
  --out DIR          output directory (created; files of the same names are replaced)
  --min-minutes A    shortest video in minutes (1-30, default 1)
  --max-minutes B    longest video in minutes (1-30, default 3, or A when A > 3)
  --oracle-style S   how the oracle searches and words its trajectories (@paravt/suite README,
                     "Oracle styles"): a preset, knob=value pairs over reference, or a preset
                     followed by pairs, comma-separated. Default reference.
                     Presets:
                       reference      SPEC's plain oracle: the first value of every knob
                       nano-default   what the default nano checkpoint was last trained on:
                                      when-answer=mmss, when-search=crops, scene-search=crops,
                                      order-search=crops, shape-sentence=time-first,
                                      scene-answer=quote, option-style=text-first
                     Knobs (reference value first):
                       when-answer    seconds|mmss: a \`when\` answer as "[58, 64]" (what SPEC §2's
                                      training IoU reads) or "00:58 - 01:03" (the first and last
                                      visible second, copied from the sub-agents' MM:SS)
                       when-search    overview|crops: look for a \`when\` target from the K overview
                                      frames, or read the whole video through sub-agents only
                       scene-search   overview|crops: the same for scene_color / scene_position
                       order-search   overview|crops: the same for order (crops: from 0 s until a
                                      summary names one of the four shapes, quoted in the answer)
                       shape-sentence position-first|time-first: "A red square is in the center
                                      from 00:56 to 01:03" or "A red square from 00:56 to 01:03 is
                                      in the center"
                       scene-answer   frame|quote: a scene answer says "The frame at 122 s has …" or
                                      quotes a crop's summary that shows the scene throughout
                       option-style   letter-first|text-first: mcq options as "C. white" (answer
                                      "…: option C") or "- white (C)" (answer "… (C)")

Writes DIR/videos/<id>.mp4, DIR/annotations/<id>.json, DIR/questions.jsonl, DIR/oracle.jsonl,
DIR/rl.jsonl and DIR/manifest.json (written last). Progress goes to stderr, one line per
video; at the end one JSON line with the counts goes to stdout.

Exit codes: 0 done, 1 generation failed, 2 bad arguments.

Examples:
  paravt suite generate --seed 1 --count 20 --out var/suites/s1
  paravt suite generate --seed 9 --count 400 --oracle-style nano-default --out var/suites/n400
  paravt suite generate --seed 9 --count 400 --oracle-style when-answer=mmss,when-search=crops --out var/suites/w400
`;

function integer(name: string, value: string | undefined, min: number, max: number): number {
  const n = value === undefined ? NaN : Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer in [${min}, ${max}] (got ${value ?? "nothing"})`);
  }
  return n;
}

function minutes(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 1 || n > 30)
    throw new UsageError(`--${name} must be a number in [1, 30] (got ${value})`);
  return n;
}

interface GenerateArgs {
  seed: number;
  count: number;
  out: string;
  minMinutes?: number;
  maxMinutes?: number;
  oracleStyle?: OracleStyle;
}

/** --oracle-style's value as the full style; its errors name what is allowed. */
function oracleStyle(value: string | undefined): OracleStyle | undefined {
  if (value === undefined) return undefined;
  try {
    return parseOracleStyle(value);
  } catch (e) {
    if (e instanceof OracleStyleError) throw new UsageError(`--oracle-style: ${e.message}`);
    throw e;
  }
}

function parseGenerate(args: readonly string[]): GenerateArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        seed: { type: "string" },
        count: { type: "string" },
        out: { type: "string" },
        "min-minutes": { type: "string" },
        "max-minutes": { type: "string" },
        "oracle-style": { type: "string" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (v.out === undefined || v.out === "") throw new UsageError("--out is required");
  const min = minutes("min-minutes", v["min-minutes"]);
  const max = minutes("max-minutes", v["max-minutes"]);
  const style = oracleStyle(v["oracle-style"]);
  return {
    seed: integer("seed", v.seed, 0, 0xffffffff),
    count: integer("count", v.count, 1, 10_000),
    out: v.out,
    ...(min === undefined ? {} : { minMinutes: min }),
    ...(max === undefined ? {} : { maxMinutes: max }),
    ...(style === undefined ? {} : { oracleStyle: style }),
  };
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

async function generate(args: readonly string[], io: CliIo): Promise<number> {
  let opts: GenerateArgs;
  try {
    opts = parseGenerate(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`paravt suite generate: ${e.message}\n\n${HELP}`);
    return 2;
  }
  // Loaded here, not at the top: the suite pulls in the video stack (node-av, sharp), which the
  // JSON Lines commands must not pay for at start-up.
  const { resolveConfig, writeSuite } = await import("@paravt/suite");
  let config;
  try {
    config = resolveConfig({
      ...(opts.oracleStyle === undefined ? {} : { oracleStyle: opts.oracleStyle }),
      ...(opts.minMinutes === undefined ? {} : { minMinutes: opts.minMinutes }),
      // A lone --min-minutes above the default maximum raises the maximum with it.
      ...(opts.maxMinutes !== undefined
        ? { maxMinutes: opts.maxMinutes }
        : opts.minMinutes !== undefined && opts.minMinutes > 3
          ? { maxMinutes: opts.minMinutes }
          : {}),
    });
  } catch (e) {
    const issues = (e as { issues?: { message: string }[] }).issues;
    io.stderr.write(`paravt suite generate: ${issues ? issues.map((i) => i.message).join("; ") : String(e)}\n`);
    return 2;
  }
  const started = performance.now();
  try {
    const r = await writeSuite({
      seed: opts.seed,
      count: opts.count,
      out: opts.out,
      config,
      onProgress: (p) =>
        io.stderr.write(
          `[${p.done}/${p.total}] ${p.videoId}: ${clock(p.durationS)} of video in ${p.seconds.toFixed(1)} s\n`,
        ),
    });
    const c = r.manifest.counts;
    const seconds = (performance.now() - started) / 1000;
    io.stderr.write(
      `wrote ${c.videos} videos (${clock(r.manifest.totalDurationS)} in all), ${c.questions} questions, ` +
        `${c.oracle} oracle trajectories, ${c.rl} RL rows to ${opts.out} in ${seconds.toFixed(1)} s\n`,
    );
    io.stdout.write(JSON.stringify({ out: opts.out, totalDurationS: r.manifest.totalDurationS, ...c }) + "\n");
    return 0;
  } catch (e) {
    io.stderr.write(`paravt suite generate: ${(e as Error).message}\n`);
    return 1;
  }
}

export const suiteCommand: Command = {
  name: "suite",
  summary: "generate the long-video needle suite (writes files; not JSON Lines)",
  help: HELP,
  run: (args, io) => runSubcommand("suite", HELP, { generate: generate }, args, io),
};
