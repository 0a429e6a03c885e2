import type { Readable, Writable } from "node:stream";

/** The streams a command talks to (process streams in the bin, in-memory ones in tests). */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

/**
 * A bad command line: the command that catches it prints the message and its help on stderr and
 * exits 2 (any other error exits 1).
 */
export class UsageError extends Error {}

/** One `paravt <name>` subcommand. Later issues add more (auth, dataset import, eval...). */
export interface Command {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Full help text (`paravt <name> --help`). */
  readonly help: string;
  /** A subcommand's own help (`paravt <name> <sub> --help`), when it has one. */
  readonly subcommandHelp?: Readonly<Record<string, string>>;
  /** Runs with the arguments after the command name; resolves to the exit code. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/**
 * Runs `paravt <name> <sub> ...` from a table of subcommands; a missing or unknown one prints the
 * help on stderr and exits 2.
 */
export function runSubcommand(
  name: string,
  help: string,
  subs: Record<string, (args: readonly string[], io: CliIo) => Promise<number>>,
  args: readonly string[],
  io: CliIo,
): Promise<number> {
  const [sub, ...rest] = args;
  const fn = sub === undefined ? undefined : subs[sub];
  if (!fn) {
    io.stderr.write(
      `paravt ${name}: ${sub === undefined ? "missing subcommand" : `unknown subcommand "${sub}"`}\n\n${help}`,
    );
    return Promise.resolve(2);
  }
  return fn(rest, io);
}
