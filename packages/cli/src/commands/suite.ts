import { parseArgs } from "node:util";
import { runSubcommand, UsageError, type CliIo, type Command } from "../command";

const HELP = `Usage: paravt suite generate --seed S --count N --out DIR [--min-minutes A] [--max-minutes B]
                           [--when-answer seconds|mmss] [--when-search overview|crops]
                           [--scene-search overview|crops] [--order-search overview|crops]
                           [--shape-sentence position-first|time-first] [--describe-overview]
                           [--scene-answer frame|quote] [--mcq-answer letter|scan]
                           [--option-style letter-first|text-first]

Generates the long-video needle suite (@paravt/suite): N synthetic videos rendered and encoded
to H.264 MP4, their exact annotations, questions (mcq / tvg / oe), oracle trajectories for
cold-start SFT and SPEC §6 RL rows. Same seed, count and options -> same files.

Options:
  --seed S           non-negative integer (< 2^32)
  --count N          number of videos (1-10000)
  --out DIR          output directory (created; files of the same names are replaced)
  --min-minutes A    shortest video in minutes (1-30, default 1)
  --max-minutes B    longest video in minutes (1-30, default 3, or A when A > 3)
  --when-answer F    how the oracle answers a \`when\` question: seconds "[58, 64]" (default; what
                     SPEC §2's training IoU reads) or mmss "00:58 - 01:03" (the first and last
                     second it is visible, copied from the sub-agents' MM:SS; SPEC §4 reads it)
  --when-search W    where the oracle looks for a \`when\` target: overview (default; starts from
                     what its K overview frames show) or crops (reads the whole video through its
                     sub-agents, up to 5 windows a round, and answers from their summaries alone)
  --scene-search W   the same for scene_color / scene_position questions: overview (default) or
                     crops (with --scene-answer quote it also crops a shape's own seconds when the
                     window that showed it spans two scenes, so the answer quotes one summary)
  --order-search W   the same for order questions: overview (default) or crops (from 0 s until a
                     summary names one of the four shapes; the answer quotes that sentence)
  --shape-sentence O word order of a shape in the sub-agents' summaries: position-first (default;
                     "A red square is in the center from 00:56 to 01:03") or time-first ("A red
                     square from 00:56 to 01:03 is in the center"; an MM:SS when answer then
                     repeats "The red square from 00:56 to 01:03")
  --describe-overview the oracle's main agent first notes what each overview frame shows, in
                     time order ("My frames: 0 s teal with a white cross in the top-left; 22 s
                     teal; …"; K <= 16), then reasons as without it
  --scene-answer A   how the oracle says where a scene question's shape is: frame (default; "The
                     frame at 122 s has the olive background and a red circle in the top-left.")
                     or quote (repeats the summary of a crop that shows the scene throughout, up
                     to the shape's sentence, when one does)
  --mcq-answer M     how the oracle turns a scene_color or order conclusion into a letter: letter
                     (default; "so its color is white: option C.") or scan (first repeats the
                     options up to that one: "A. red no; B. green no; C. white yes: option C.")
  --option-style O   how an mcq question lists its options and the oracle names the letter:
                     letter-first (default; "C. white", "…is white: option C.") or text-first
                     ("- white (C)", "…is white (C).": the letter follows its text)

Writes DIR/videos/<id>.mp4, DIR/annotations/<id>.json, DIR/questions.jsonl, DIR/oracle.jsonl,
DIR/rl.jsonl and DIR/manifest.json (written last). Progress goes to stderr, one line per
video; at the end one JSON line with the counts goes to stdout.

Exit codes: 0 done, 1 generation failed, 2 bad arguments.

Example:
  paravt suite generate --seed 1 --count 20 --out var/suites/s1
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
  whenAnswer?: "seconds" | "mmss";
  whenSearch?: "overview" | "crops";
  sceneSearch?: "overview" | "crops";
  orderSearch?: "overview" | "crops";
  shapeSentence?: "position-first" | "time-first";
  describeOverview?: boolean;
  sceneAnswer?: "frame" | "quote";
  mcqAnswer?: "letter" | "scan";
  optionStyle?: "letter-first" | "text-first";
}

/** An option that takes one of a few words: the word, or undefined when it is not given. */
function choice<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be ${allowed.join(" or ")} (got ${value})`);
  return value as T;
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
        "when-answer": { type: "string" },
        "when-search": { type: "string" },
        "scene-search": { type: "string" },
        "order-search": { type: "string" },
        "shape-sentence": { type: "string" },
        "describe-overview": { type: "boolean" },
        "scene-answer": { type: "string" },
        "mcq-answer": { type: "string" },
        "option-style": { type: "string" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (v.out === undefined || v.out === "") throw new UsageError("--out is required");
  const min = minutes("min-minutes", v["min-minutes"]);
  const max = minutes("max-minutes", v["max-minutes"]);
  const when = choice("when-answer", v["when-answer"], ["seconds", "mmss"] as const);
  const search = choice("when-search", v["when-search"], ["overview", "crops"] as const);
  const sceneSearch = choice("scene-search", v["scene-search"], ["overview", "crops"] as const);
  const orderSearch = choice("order-search", v["order-search"], ["overview", "crops"] as const);
  const order = choice("shape-sentence", v["shape-sentence"], ["position-first", "time-first"] as const);
  const scene = choice("scene-answer", v["scene-answer"], ["frame", "quote"] as const);
  const mcq = choice("mcq-answer", v["mcq-answer"], ["letter", "scan"] as const);
  const style = choice("option-style", v["option-style"], ["letter-first", "text-first"] as const);
  return {
    seed: integer("seed", v.seed, 0, 0xffffffff),
    count: integer("count", v.count, 1, 10_000),
    out: v.out,
    ...(min === undefined ? {} : { minMinutes: min }),
    ...(max === undefined ? {} : { maxMinutes: max }),
    ...(when === undefined ? {} : { whenAnswer: when }),
    ...(search === undefined ? {} : { whenSearch: search }),
    ...(sceneSearch === undefined ? {} : { sceneSearch }),
    ...(orderSearch === undefined ? {} : { orderSearch }),
    ...(order === undefined ? {} : { shapeSentence: order }),
    ...(v["describe-overview"] ? { describeOverview: true } : {}),
    ...(scene === undefined ? {} : { sceneAnswer: scene }),
    ...(mcq === undefined ? {} : { mcqAnswer: mcq }),
    ...(style === undefined ? {} : { optionStyle: style }),
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
      ...(opts.whenAnswer === undefined ? {} : { whenAnswer: opts.whenAnswer }),
      ...(opts.whenSearch === undefined ? {} : { whenSearch: opts.whenSearch }),
      ...(opts.sceneSearch === undefined ? {} : { sceneSearch: opts.sceneSearch }),
      ...(opts.orderSearch === undefined ? {} : { orderSearch: opts.orderSearch }),
      ...(opts.shapeSentence === undefined ? {} : { shapeSentence: opts.shapeSentence }),
      ...(opts.describeOverview ? { describeOverview: true } : {}),
      ...(opts.sceneAnswer === undefined ? {} : { sceneAnswer: opts.sceneAnswer }),
      ...(opts.mcqAnswer === undefined ? {} : { mcqAnswer: opts.mcqAnswer }),
      ...(opts.optionStyle === undefined ? {} : { optionStyle: opts.optionStyle }),
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
