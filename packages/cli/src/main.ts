import type { CliIo, Command } from "./command";
import { followCommand } from "./commands/follow";
import { nanoCommand } from "./commands/nano";
import { parquetCommand } from "./commands/parquet";
import { parseCommand } from "./commands/parse";
import {
  authCommand,
  datasetCommand,
  episodesCommand,
  evalCommand,
  ingestCommand,
  metricsCommand,
  runsCommand,
} from "./commands/remote";
import { rewardCommand } from "./commands/reward";
import { suiteCommand } from "./commands/suite";

/** Every subcommand, in the order `paravt --help` lists them. */
export const COMMANDS: readonly Command[] = [
  rewardCommand,
  parseCommand,
  suiteCommand,
  nanoCommand,
  parquetCommand,
  authCommand,
  ingestCommand,
  followCommand,
  datasetCommand,
  evalCommand,
  runsCommand,
  metricsCommand,
  episodesCommand,
];

/** Commands that read their own arguments; the others take none. */
const TAKES_ARGUMENTS: ReadonlySet<Command> = new Set([
  suiteCommand,
  nanoCommand,
  parquetCommand,
  authCommand,
  ingestCommand,
  followCommand,
  datasetCommand,
  evalCommand,
  runsCommand,
  metricsCommand,
  episodesCommand,
]);

const HELP_FLAGS = new Set(["-h", "--help"]);

/** Top-level help text. */
export function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: paravt <command> [--help]

Commands:
${lines.join("\n")}
  ${"help".padEnd(width)}  show help for a command (paravt help <command>)

reward and parse read JSON Lines on stdin and write one JSON line per input line on stdout.
auth, ingest, follow, dataset, eval, runs, metrics and episodes talk to a running workbench through its
REST API (/api/v1): log in first with "paravt auth login --url URL --token pvt_…".
Run "paravt <command> --help" for the input and output of a command.
`;
}

/** Runs `paravt <argv...>`; resolves to the process exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(usage());
    return 2;
  }
  if (HELP_FLAGS.has(name) || name === "help") {
    const topic = name === "help" ? rest[0] : undefined;
    if (topic === undefined) {
      io.stdout.write(usage());
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === topic);
    if (!command) {
      io.stderr.write(`paravt: unknown command "${topic}"\n\n${usage()}`);
      return 2;
    }
    io.stdout.write(command.help);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`paravt: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  if (rest.some((a) => HELP_FLAGS.has(a))) {
    // `paravt nano serve --help` is serve's help, not the whole command's.
    const sub = rest[0] === undefined ? undefined : command.subcommandHelp?.[rest[0]];
    io.stdout.write(sub ?? command.help);
    return 0;
  }
  if (rest.length > 0 && !TAKES_ARGUMENTS.has(command)) {
    io.stderr.write(`paravt ${name}: unexpected argument "${rest[0]}"\n\n${command.help}`);
    return 2;
  }
  return command.run(rest, io);
}
