import { once } from "node:events";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import type { ZodError } from "zod";
import type { CliIo } from "./command";

/** Result line of a handler: the output object for one input line. */
export type LineResult = Record<string, unknown>;

/** One-line, readable rendering of a zod error: `path: message; path: message`. */
export function formatZodError(error: ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.length > 0 ? issue.path.map(String).join(".") : "(input)";
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}

/**
 * Batches output lines: flushed when 64 KiB accumulate or once the current burst of input lines
 * has been handled (setImmediate), so interactive callers that write one line and wait get
 * their answer, while bulk input costs one write per batch instead of one per line. Honours
 * backpressure: once the stream asks to wait, the next line waits for 'drain'.
 */
class LineWriter {
  private chunks: string[] = [];
  private size = 0;
  private scheduled = false;
  private draining: Promise<void> | null = null;

  constructor(private readonly out: Writable) {}

  async write(line: string): Promise<void> {
    if (this.draining) await this.draining;
    this.chunks.push(line);
    this.size += line.length;
    if (this.size >= 65536) {
      this.flush();
    } else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  flush(): void {
    if (this.chunks.length === 0 || this.out.destroyed) return;
    const chunk = this.chunks.join("");
    this.chunks = [];
    this.size = 0;
    if (!this.out.write(chunk) && !this.draining) {
      this.draining = once(this.out, "drain").then(
        () => {
          this.draining = null;
        },
        () => {
          this.draining = null;
        },
      );
    }
  }

  async end(): Promise<void> {
    this.flush();
    if (this.draining) await this.draining;
  }
}

/**
 * Streams JSON Lines from stdin to stdout, one output line per non-blank input line, in input
 * order. Blank (whitespace-only) lines are skipped; a UTF-8 BOM before the first line is
 * ignored. A line that is not JSON yields `{"error": "invalid JSON: …"}`; the handler turns a
 * parsed value into the output object (or an `{"error": …}` object for invalid input), and
 * processing always continues. Resolves to the exit code: 0, or 1 if stdin cannot be read.
 */
export async function mapJsonLines(io: CliIo, handle: (value: unknown) => LineResult): Promise<number> {
  const writer = new LineWriter(io.stdout);
  const rl = createInterface({ input: io.stdin, crlfDelay: Infinity });
  let outputClosed = false;
  const onOutputError = () => {
    // The reader went away (e.g. `| head`): stop quietly.
    outputClosed = true;
    rl.close();
  };
  io.stdout.on("error", onOutputError);
  let first = true;
  try {
    for await (const raw of rl) {
      if (outputClosed) break;
      const line = first && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      first = false;
      if (line.trim() === "") continue;
      let result: LineResult;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        await writer.write(JSON.stringify({ error: `invalid JSON: ${(e as Error).message}` }) + "\n");
        continue;
      }
      try {
        result = handle(value);
      } catch (e) {
        // The protocol functions are total; this only guards against a bug taking down a run.
        result = { error: `internal error: ${(e as Error).message}` };
      }
      await writer.write(JSON.stringify(result) + "\n");
    }
  } catch (e) {
    await writer.end();
    io.stderr.write(`paravt: cannot read stdin: ${(e as Error).message}\n`);
    return 1;
  } finally {
    io.stdout.off("error", onOutputError);
  }
  if (!outputClosed) await writer.end();
  return 0;
}
