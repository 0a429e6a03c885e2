// `paravt follow <framework> <path>`: reads a trainer's own files (Trackio's SQLite store, verl's
// rollout dumps, TRL's completion parquets, AReaL's logs and dumps), turns what is new into
// ingestion items with client ids derived from the source, appends them to a local spool in the
// JSON Lines format of docs/ingestion-format.md, and uploads the spool with `paravt ingest`'s
// uploader (batches, retries with Retry-After, position saved after each acknowledged batch).
// Run again, it resumes where it stopped on both sides: the source position and the upload's.
import { setTimeout as sleep } from "node:timers/promises";
import type { MetricItem, RolloutItemInput } from "@paravt/shared";
import { uploadFile, type IngestApi, type UploadState } from "../remote/ingest-file";
import { spoolDirOf, Spool, type Framework, type SavedFollow } from "./spool";

/** A data line of the spool (docs/ingestion-format.md). */
export type SpoolLine = ({ type: "metrics" } & MetricItem) | ({ type: "rollout" } & RolloutItemInput);

/** What one read of the source produced. */
export interface SourceRead<S> {
  lines: SpoolLine[];
  state: S;
  /** The source holds more than this read took: read again without waiting. */
  more?: boolean;
  /** The source says the run is over (an end marker the framework writes). */
  finished?: { status: "SUCCEEDED" | "FAILED"; message: string };
}

export interface RunDescription {
  /** Derived from the source, so a restarted follower finds the same run. */
  clientId: string;
  name: string;
  config: Record<string, unknown>;
}

/** One framework's reader. Its state is plain JSON (saved between reads). */
export interface Converter<S> {
  readonly framework: Framework;
  /** Names the source (a real path, plus the run for a store of many runs). */
  readonly sourceKey: string;
  initialState(): S;
  /** The run to create; null while the source holds nothing yet. */
  describeRun(): Promise<RunDescription | null>;
  /** Everything new since `state`. Must not change `state` in place. */
  read(state: S): Promise<SourceRead<S>>;
  close?(): void;
}

export interface FollowOptions<S> {
  converter: Converter<S>;
  api: IngestApi;
  /** Upload into this external run instead of creating one from the source. */
  runId?: string;
  /** Name of the run created from the source (default: the source's own name). */
  name?: string;
  /** Read and upload once, then stop (default: follow until the source ends or `signal`). */
  once?: boolean;
  pollMs?: number;
  /** Where the spool and the source position live (`stateRoot()`). */
  root: string;
  signal?: AbortSignal;
  log(message: string): void;
}

export interface FollowResult {
  spoolDir: string;
  upload: UploadState;
  /** The source ended and its final status was sent. */
  finished: boolean;
}

const split = <T>(lines: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < lines.length; i += size) out.push(lines.slice(i, i + size));
  return out;
};

export async function follow<S>(o: FollowOptions<S>): Promise<FollowResult> {
  const { converter } = o;
  const spool = new Spool(spoolDirOf(o.root, converter.framework, converter.sourceKey));
  const saved: SavedFollow = (await spool.load()) ?? {
    framework: converter.framework,
    source: converter.sourceKey,
    runLine: false,
    finished: false,
    state: converter.initialState(),
  };
  if (saved.framework !== converter.framework || saved.source !== converter.sourceKey) {
    throw new Error(
      `${spool.stateFile} belongs to ${saved.framework} ${saved.source}; delete ${spool.dir} to start over`,
    );
  }
  o.log(`following ${converter.framework} ${converter.sourceKey} (spool and position in ${spool.dir})`);
  let upload: UploadState | null = null;
  const send = async () => {
    upload = await uploadFile({
      file: spool.file,
      api: o.api,
      ...(o.runId ? { runId: o.runId } : {}),
      follow: false,
      ...(o.signal ? { signal: o.signal } : {}),
      log: o.log,
    });
  };
  const wait = () => sleep(o.pollMs ?? 2000, undefined, { signal: o.signal }).catch(() => undefined);
  try {
    // The run line first (once): the uploader creates the run from it.
    let waiting = false;
    while (!o.runId && !saved.runLine) {
      const run = await converter.describeRun();
      if (run) {
        await spool.append([{ type: "run", kind: "rl", ...run, ...(o.name ? { name: o.name } : {}) }]);
        saved.runLine = true;
        await spool.save(saved);
        break;
      }
      if (o.once) throw new Error(`${converter.sourceKey} has nothing to follow yet`);
      if (!waiting) o.log(`waiting for ${converter.sourceKey} to hold a run…`);
      waiting = true;
      await wait();
      if (o.signal?.aborted) throw new Error("stopped before the source held a run");
    }
    await spool.append([]); // repairs a line cut by an earlier crash before the uploader reads
    while (!o.signal?.aborted) {
      let more = false;
      if (!saved.finished) {
        const read = await converter.read(saved.state as S);
        more = !!read.more;
        // Appended in slices of the uploader's batch size, so a huge first read is flushed bit by bit.
        for (const part of split(read.lines, 1000)) await spool.append(part);
        const lines: unknown[] = [];
        if (read.finished) lines.push({ type: "status", status: read.finished.status, message: read.finished.message });
        await spool.append(lines);
        saved.state = read.state;
        saved.finished = !!read.finished;
        await spool.save(saved);
      }
      await send();
      if (saved.finished || (o.once && !more)) break;
      if (!more) await wait();
    }
    if (!upload) await send();
    return { spoolDir: spool.dir, upload: upload!, finished: saved.finished };
  } finally {
    converter.close?.();
  }
}
