import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { MaterializeReport, SentinelRoot } from "@paravt/benchmarks";
import { runSubcommand, UsageError, type CliIo, type Command } from "../command";

// SPEC §6 virtual roots, as @paravt/benchmarks' SENTINEL_ROOTS (the test checks they match): a
// literal so that `paravt --help` does not load the parquet stack.
const ROOTS = ["longvt_source", "museg/charades", "museg/et_instruct_164k", "selfqa"] as const;

const HELP = `Usage: paravt parquet materialize --in FILE --out FILE (--media-root DIR | --root ROOT=DIR ...) [--strict]

Writes a ParaVT RL / SFT parquet file (SPEC §6) back out with its sentinel paths materialized,
value for value as the reference materializer (paravt/data/materialize.py of ParaVT) writes them:
in the messages column (a list, or a JSON string, which comes back in Python's json.dumps form)
the url of every item typed video_url / image_url, and in the videos column the video of every
{video} item. A value under a virtual root (${ROOTS.map((r) => `${r}/`).join(", ")}),
with or without file://, becomes file://<(root / path).resolve()> (links followed, ".." applied);
every other value (absolute paths, file:// URIs of them, URLs, other relative paths, plain string
items of videos, the prompt and images columns, text) is left untouched. Values on which the
reference stops (a string under messages that is not JSON, a url that is not a string, a symlink
loop) are left untouched and counted as unreadable. Same rows, columns, schema, row groups and
key-value metadata; pages are snappy-compressed.

Options:
  --in FILE          the parquet file to read
  --out FILE         the file to write (not the input; replaced if it exists)
  --media-root DIR   the extraction root holding longvt_source/, museg/..., selfqa/ (the
                     reference's --root)
  --root ROOT=DIR    one root's own folder (the folder that IS ROOT), e.g.
                     --root museg/charades=/data/charades; repeatable; wins over --media-root
  --strict           exit 3 (after writing) when a file is missing, a path has an unknown
                     shape, a value is unreadable, or a root has no directory

The report goes to stdout as one JSON line: {in, out, rows, references, materialized,
roots: [{root, dir, references, materialized, files, missing, missingExamples}],
missingByBucket (the reference's materialize_report.json entry), unknownShape: {references,
examples: [{path, why}]}, unreadable: {count, examples: [{at, why}]}}. A summary per root goes to
stderr.

Exit codes: 0 written, 1 cannot read or write, 2 bad arguments, 3 written but --strict found problems.

Example:
  paravt parquet materialize --in rl_train.parquet --out rl_train.local.parquet --media-root /data/paravt
`;

interface MaterializeArgs {
  input: string;
  output: string;
  mediaRoot?: string;
  roots: Partial<Record<SentinelRoot, string>>;
  strict: boolean;
}

function parseMaterialize(args: readonly string[]): MaterializeArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        in: { type: "string" },
        out: { type: "string" },
        "media-root": { type: "string" },
        root: { type: "string", multiple: true },
        strict: { type: "boolean" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (!v.in) throw new UsageError("--in is required");
  if (!v.out) throw new UsageError("--out is required");
  const roots: Partial<Record<SentinelRoot, string>> = {};
  for (const spec of v.root ?? []) {
    const eq = spec.indexOf("=");
    const root = eq < 0 ? spec : spec.slice(0, eq);
    const dir = eq < 0 ? "" : spec.slice(eq + 1);
    if (!(ROOTS as readonly string[]).includes(root)) {
      throw new UsageError(`--root ${spec}: the root must be one of ${ROOTS.join(", ")}`);
    }
    if (dir === "") throw new UsageError(`--root ${spec}: give the directory as ROOT=DIR`);
    if (roots[root as SentinelRoot] !== undefined) throw new UsageError(`--root ${root} is given twice`);
    // As given: Python's resolve() of the joined path decides (links before "..").
    roots[root as SentinelRoot] = dir;
  }
  const mediaRoot = v["media-root"];
  if (mediaRoot === "") throw new UsageError("--media-root is empty");
  if (mediaRoot === undefined && Object.keys(roots).length === 0) {
    throw new UsageError("give --media-root or at least one --root ROOT=DIR");
  }
  const input = resolve(v.in);
  const output = resolve(v.out);
  if (input === output) throw new UsageError("--out must be another file than --in");
  return {
    input,
    output,
    ...(mediaRoot === undefined ? {} : { mediaRoot }),
    roots,
    strict: v.strict === true,
  };
}

function problems(report: MaterializeReport): boolean {
  return (
    report.unknownShape.references > 0 ||
    report.unreadable.count > 0 ||
    report.roots.some((r) => r.missing > 0 || (r.dir === null && r.references > 0))
  );
}

async function materialize(args: readonly string[], io: CliIo): Promise<number> {
  let opts: MaterializeArgs;
  try {
    opts = parseMaterialize(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`paravt parquet materialize: ${e.message}\n\n${HELP}`);
    return 2;
  }
  // Loaded here, not at the top: the JSON Lines commands must not pay for the parquet stack.
  const { materializeParquetFile, reportLines } = await import("@paravt/benchmarks");
  let report: MaterializeReport;
  try {
    report = await materializeParquetFile({
      input: opts.input,
      output: opts.output,
      ...(opts.mediaRoot === undefined ? {} : { mediaRoot: opts.mediaRoot }),
      roots: opts.roots,
    });
  } catch (e) {
    io.stderr.write(`paravt parquet materialize: ${(e as Error).message}\n`);
    return 1;
  }
  for (const line of reportLines(report)) io.stderr.write(`${line}\n`);
  io.stderr.write(
    `wrote ${report.rows} rows to ${opts.output}: ${report.materialized} of ${report.references} path(s) materialized\n`,
  );
  io.stdout.write(JSON.stringify({ in: opts.input, out: opts.output, ...report }) + "\n");
  return opts.strict && problems(report) ? 3 : 0;
}

export const parquetCommand: Command = {
  name: "parquet",
  summary: "materialize the sentinel paths of a ParaVT RL / SFT parquet file (writes a file; not JSON Lines)",
  help: HELP,
  run: (args, io) => runSubcommand("parquet", HELP, { materialize: materialize }, args, io),
};
