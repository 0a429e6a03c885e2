// A follower's local files: the ingestion JSON Lines it derived from the source (the spool, which
// `paravt ingest`'s uploader sends with its own saved position) and where it stopped reading the
// source. Order of writes: lines are appended and flushed to disk BEFORE the source position that
// produced them is saved, so a crash in between derives the same lines again (same client ids:
// the server answers them as duplicates) and never loses one.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { sha } from "./items";

export const FRAMEWORKS = ["trackio", "verl", "trl", "areal"] as const;
export type Framework = (typeof FRAMEWORKS)[number];

/** Where followers keep their files: --state-dir, else $PARAVT_STATE_DIR, else ~/.paravt. */
export function stateRoot(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  return explicit ?? env.PARAVT_STATE_DIR ?? path.join(os.homedir(), ".paravt");
}

/** One folder per followed source: `<root>/follow/<framework>-<hash of the source>`. */
export function spoolDirOf(root: string, framework: Framework, sourceKey: string): string {
  return path.join(root, "follow", `${framework}-${sha(sourceKey)}`);
}

const savedSchema = z.object({
  framework: z.enum(FRAMEWORKS),
  source: z.string(),
  /** The run line has been written (or --run named the run): it is written once. */
  runLine: z.boolean(),
  /** A final status line has been written. */
  finished: z.boolean(),
  /** The converter's own position in the source. */
  state: z.unknown(),
});
export type SavedFollow = z.infer<typeof savedSchema>;

export class Spool {
  readonly file: string;
  readonly stateFile: string;

  constructor(readonly dir: string) {
    this.file = path.join(dir, "spool.jsonl");
    this.stateFile = path.join(dir, "source-state.json");
  }

  async load(): Promise<SavedFollow | null> {
    const raw = await fs.readFile(this.stateFile, "utf8").catch(() => null);
    if (raw === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new Error(`${this.stateFile} is not valid JSON; delete ${this.dir} to follow the source from the start`);
    }
    const parsed = savedSchema.safeParse(json);
    if (!parsed.success)
      throw new Error(`${this.stateFile} is not a follower's state; delete ${this.dir} to start over`);
    return parsed.data;
  }

  /** Written to a temporary file and renamed, so a crash never leaves half a state file. */
  async save(saved: SavedFollow): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const tmp = `${this.stateFile}.tmp`;
    await fs.writeFile(tmp, `${JSON.stringify(saved)}\n`);
    await fs.rename(tmp, this.stateFile);
  }

  /**
   * Appends one JSON line per object and flushes them to disk. A last line without its newline
   * (this process died while appending) is repaired first: a complete JSON line gets its newline
   * (the uploader may have sent it already), a cut one is removed (its item is derived again).
   */
  async append(objects: readonly unknown[]): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const handle = await fs.open(this.file, "a+");
    try {
      await this.repairTail(handle);
      if (objects.length) await handle.appendFile(objects.map((o) => `${JSON.stringify(o)}\n`).join(""));
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  private async repairTail(handle: fs.FileHandle): Promise<void> {
    const { size } = await handle.stat();
    if (size === 0) return;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return;
    const start = await this.lastNewlineEnd(handle, size);
    const tail = Buffer.alloc(size - start);
    await handle.read(tail, 0, tail.length, start);
    let complete = true;
    try {
      JSON.parse(tail.toString("utf8"));
    } catch {
      complete = false;
    }
    if (complete) await handle.appendFile("\n");
    else await handle.truncate(start);
  }

  /** The byte offset just past the last newline before `size` (0 when there is none). */
  private async lastNewlineEnd(handle: fs.FileHandle, size: number): Promise<number> {
    const chunk = 64 * 1024;
    for (let end = size; end > 0; end -= chunk) {
      const start = Math.max(0, end - chunk);
      const buf = Buffer.alloc(end - start);
      await handle.read(buf, 0, buf.length, start);
      const i = buf.lastIndexOf(0x0a);
      if (i >= 0) return start + i + 1;
    }
    return 0;
  }
}
