// `paravt ingest <file>`: uploads a trainer's JSON Lines log (docs/ingestion-format.md) through
// the ingestion API, following the file as it grows and resuming where it stopped. Position is
// saved after each acknowledged batch, so a crash re-sends at most one batch, which the server
// answers as duplicates (every item has a client id).
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { metricItem, rolloutItem, type IngestBatchOutput, type MetricItem, type RolloutItem } from "@paravt/shared";
import { z } from "zod";

/** What the uploader needs of the API (the typed client implements it; tests may too). */
export interface IngestApi {
  createRun(input: {
    clientId: string;
    name: string;
    kind?: "rl" | "sft";
    config?: Record<string, unknown>;
    datasetId?: string;
  }): Promise<{ runId: string; created: boolean }>;
  metrics(runId: string, items: MetricItem[]): Promise<IngestBatchOutput>;
  rollouts(runId: string, items: RolloutItem[]): Promise<IngestBatchOutput>;
  setStatus(
    runId: string,
    input: { status: "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED"; message?: string; error?: string },
  ): Promise<void>;
}

export interface UploadState {
  /** Byte offset just past the last line whose item the server acknowledged. */
  offset: number;
  /** Lines consumed so far (for line numbers in messages). */
  line: number;
  runId: string | null;
  counts: Record<"stored" | "duplicate" | "conflict" | "invalid" | "skipped", number>;
  /** A final status was sent: the upload is complete. */
  finished: boolean;
  /** The file the offset belongs to (see `fingerprint`). */
  fingerprint?: string;
}

const runLine = z.object({
  type: z.literal("run"),
  clientId: z.string(),
  name: z.string(),
  kind: z.enum(["rl", "sft"]).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  datasetId: z.string().optional(),
});
const statusLine = z.object({
  type: z.literal("status"),
  status: z.enum(["RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"]),
  message: z.string().optional(),
  error: z.string().optional(),
});

export type ParsedLine =
  | { kind: "blank" }
  | { kind: "run"; value: z.infer<typeof runLine> }
  | { kind: "metrics"; value: MetricItem }
  | { kind: "rollout"; value: RolloutItem }
  | { kind: "status"; value: z.infer<typeof statusLine> }
  | { kind: "bad"; reason: string };

function firstIssue(err: z.ZodError): string {
  const i = err.issues[0];
  return i ? `${i.path.join(".") || "(line)"}: ${i.message}` : "invalid";
}

/** One line of the log, validated with the API's own item schemas. */
export function parseLine(text: string): ParsedLine {
  if (text.trim() === "") return { kind: "blank" };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { kind: "bad", reason: `not JSON (${(e as Error).message})` };
  }
  const type = (raw as { type?: unknown } | null)?.type;
  const { type: _t, ...rest } = (raw ?? {}) as Record<string, unknown>;
  const parse = <T>(schema: z.ZodType<T>, value: unknown): T | string => {
    const r = schema.safeParse(value);
    return r.success ? r.data : firstIssue(r.error);
  };
  switch (type) {
    case "run": {
      const v = parse(runLine, raw);
      return typeof v === "string" ? { kind: "bad", reason: v } : { kind: "run", value: v };
    }
    case "status": {
      const v = parse(statusLine, raw);
      return typeof v === "string" ? { kind: "bad", reason: v } : { kind: "status", value: v };
    }
    case "metrics": {
      const v = parse(metricItem, rest);
      return typeof v === "string" ? { kind: "bad", reason: v } : { kind: "metrics", value: v };
    }
    case "rollout": {
      const v = parse(rolloutItem, rest);
      return typeof v === "string" ? { kind: "bad", reason: v } : { kind: "rollout", value: v };
    }
    default:
      return { kind: "bad", reason: `unknown type ${JSON.stringify(type)} (run, metrics, rollout or status)` };
  }
}

/** Bytes read per pass: a huge backlog is uploaded a chunk at a time, never held in memory at once. */
const CHUNK_BYTES = 8 << 20;

export interface LinesRead {
  lines: { text: string; end: number }[];
  /** Text after the last newline, when the read reached the end of the file (a line still being written). */
  tail: string;
  /** The file holds more complete data after this chunk. */
  more: boolean;
  size: number;
}

/**
 * Complete lines from `offset` on, at most about `maxBytes` of them (a single longer line is read
 * whole). A last line without its newline is still being written: it comes back as `tail`, for the
 * caller to decide. Offsets are bytes, so a resumed read starts exactly after a line.
 */
export async function readCompleteLines(file: string, offset: number, maxBytes = CHUNK_BYTES): Promise<LinesRead> {
  const handle = await fs.open(file, "r");
  try {
    const { size } = await handle.stat();
    if (size < offset)
      throw new Error(`${file} is shorter than the saved position (${offset} bytes): was it replaced?`);
    let want = Math.min(size - offset, maxBytes);
    let buf = Buffer.alloc(0);
    let lastNewline = -1;
    for (;;) {
      buf = Buffer.alloc(want);
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(buf, got, want - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      buf = buf.subarray(0, got);
      lastNewline = buf.lastIndexOf(0x0a);
      // A line longer than the chunk: read more until its newline (or the end of the file).
      if (lastNewline >= 0 || offset + got >= size) break;
      want = Math.min(size - offset, want * 2);
    }
    const lines: { text: string; end: number }[] = [];
    let start = 0;
    for (let i = 0; i <= lastNewline; i++) {
      if (buf[i] !== 0x0a) continue;
      lines.push({ text: buf.subarray(start, i).toString("utf8").replace(/\r$/, ""), end: offset + i + 1 });
      start = i + 1;
    }
    const atEnd = offset + buf.length >= size;
    return {
      lines,
      tail: atEnd ? buf.subarray(lastNewline + 1).toString("utf8") : "",
      more: !atEnd,
      size,
    };
  } finally {
    await handle.close();
  }
}

/**
 * What the saved position is a position in: the file's inode and a hash of the bytes just before
 * the offset. A log replaced by another (a restarted trainer rewriting it, a rotation) no longer
 * matches, and the upload stops instead of resuming in the middle of unrelated data.
 */
async function fingerprint(file: string, offset: number): Promise<string> {
  const handle = await fs.open(file, "r");
  try {
    const { ino } = await handle.stat();
    const from = Math.max(0, offset - 4096);
    const buf = Buffer.alloc(offset - from);
    if (buf.length) await handle.read(buf, 0, buf.length, from);
    return `${ino}:${createHash("sha256").update(buf).digest("hex").slice(0, 32)}`;
  } finally {
    await handle.close();
  }
}

export function statePathOf(file: string): string {
  return `${file}.paravt-state.json`;
}

async function loadState(path: string): Promise<UploadState> {
  const fresh: UploadState = {
    offset: 0,
    line: 0,
    runId: null,
    counts: { stored: 0, duplicate: 0, conflict: 0, invalid: 0, skipped: 0 },
    finished: false,
  };
  const raw = await fs.readFile(path, "utf8").catch(() => null);
  if (raw === null) return fresh;
  try {
    return { ...fresh, ...(JSON.parse(raw) as Partial<UploadState>) };
  } catch {
    throw new Error(`${path} is not valid JSON; delete it to upload the file from the start`);
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a state file. */
async function saveState(path: string, file: string, state: UploadState): Promise<void> {
  state.fingerprint = await fingerprint(file, state.offset);
  await fs.writeFile(`${path}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  await fs.rename(`${path}.tmp`, path);
}

export interface UploadOptions {
  file: string;
  api: IngestApi;
  /** The run to upload into when the file has no `run` line. */
  runId?: string;
  /** Keep reading as the file grows, until a final status line (or `signal`). */
  follow?: boolean;
  pollMs?: number;
  metricBatch?: number;
  rolloutBatch?: number;
  signal?: AbortSignal;
  /** Human-readable progress and problems (stderr). */
  log(message: string): void;
}

type Pending =
  | { kind: "metrics"; items: MetricItem[]; end: number; lines: number }
  | { kind: "rollout"; items: RolloutItem[]; end: number; lines: number };

/** Network errors, 429 and 5xx are worth retrying; anything else is the batch's own fault. */
export class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A server error (5xx) is retried this many times; no answer and 429 are retried without end. */
const MAX_SERVER_ERROR_ATTEMPTS = 8;

/** RetryableError, or the client's ApiError when it says so (no answer, 429, 5xx). */
function retryable(err: unknown): { retryAfterMs?: number; serverError: boolean } | null {
  if (err instanceof RetryableError) return { retryAfterMs: err.retryAfterMs, serverError: false };
  const e = err as { retryable?: unknown; retryAfterMs?: number; status?: number } | null;
  return e && e.retryable === true ? { retryAfterMs: e.retryAfterMs, serverError: (e.status ?? 0) >= 500 } : null;
}

async function withRetry<T>(what: string, fn: () => Promise<T>, o: UploadOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const r = retryable(err);
      if (!r || o.signal?.aborted || (r.serverError && attempt >= MAX_SERVER_ERROR_ATTEMPTS)) throw err;
      const wait = r.retryAfterMs ?? Math.min(30_000, 500 * 2 ** Math.min(attempt - 1, 6));
      o.log(`${what}: ${(err as Error).message}; retrying in ${(wait / 1000).toFixed(1)} s (attempt ${attempt + 1})`);
      await sleep(wait, undefined, { signal: o.signal }).catch(() => undefined);
    }
  }
}

/** Uploads the file (from its saved position); resolves with the final state. */
export async function uploadFile(o: UploadOptions): Promise<UploadState> {
  const statePath = statePathOf(o.file);
  const state = await loadState(statePath);
  if (o.runId && state.runId && o.runId !== state.runId) {
    throw new Error(`${statePath} belongs to run ${state.runId}, not ${o.runId}; delete it to start over`);
  }
  state.runId ??= o.runId ?? null;
  if (state.offset > 0 && state.fingerprint && (await fingerprint(o.file, state.offset)) !== state.fingerprint) {
    throw new Error(
      `${o.file} is not the file ${statePath} was saved for (replaced or rewritten); delete the state file to upload it from the start`,
    );
  }
  /** A complete-looking last line without its newline, and how many reads it has stayed the same. */
  let tailSeen: { text: string; reads: number } | null = null;
  const maxMetrics = o.metricBatch ?? 1000;
  const maxRollouts = o.rolloutBatch ?? 200;
  let pending: Pending | null = null;

  const report = (out: IngestBatchOutput, firstLine: number) => {
    for (const k of ["stored", "duplicate", "conflict", "invalid"] as const) state.counts[k] += out.counts[k];
    for (const item of out.items) {
      if (item.status === "invalid" || item.status === "conflict") {
        o.log(`item ${item.id} (from line ${firstLine}+): ${item.status}${item.reason ? ` — ${item.reason}` : ""}`);
      }
    }
  };
  const flush = async () => {
    if (!pending) return;
    const p: Pending = pending;
    pending = null;
    const runId = state.runId;
    if (!runId)
      throw new Error("No run to upload into: the file has no run line before its data and no --run was given");
    const firstLine = state.line + 1;
    const out =
      p.kind === "metrics"
        ? await withRetry("metrics batch", () => o.api.metrics(runId, p.items), o)
        : await withRetry("rollout batch", () => o.api.rollouts(runId, p.items), o);
    report(out, firstLine);
    state.offset = p.end;
    state.line += p.lines;
    await saveState(statePath, o.file, state);
  };
  /** A line that sends nothing (blank, bad, or after flushing): the position moves past it. */
  const consume = async (end: number) => {
    if (pending) {
      pending.end = end;
      pending.lines++;
      return;
    }
    state.offset = end;
    state.line++;
    await saveState(statePath, o.file, state);
  };

  while (!state.finished && !o.signal?.aborted) {
    const read = await readCompleteLines(o.file, pending ? pending.end : state.offset);
    const lines = [...read.lines];
    // A last line without its newline: taken once it is complete JSON and, when following,
    // unchanged over two reads (the writer is done with it, e.g. a final status line).
    const tail = read.tail.trim();
    if (tail && parseLine(tail).kind !== "bad") {
      const prev = tailSeen as { text: string; reads: number } | null;
      tailSeen = prev?.text === tail ? { text: tail, reads: prev.reads + 1 } : { text: tail, reads: 1 };
      if (!o.follow || tailSeen.reads >= 2) lines.push({ text: read.tail, end: read.size });
    } else if (tail && !o.follow) {
      o.log(`the last line has no newline and is not complete JSON yet; left for the next run`);
    }
    for (const { text, end } of lines) {
      if (o.signal?.aborted) break;
      const lineNo = state.line + (pending?.lines ?? 0) + 1;
      const parsed = parseLine(text);
      if (parsed.kind === "blank") {
        await consume(end);
      } else if (parsed.kind === "bad") {
        state.counts.skipped++;
        o.log(`line ${lineNo}: skipped, ${parsed.reason}`);
        await consume(end);
      } else if (parsed.kind === "run") {
        await flush();
        const r = await withRetry("create run", () => o.api.createRun(parsed.value), o);
        if (state.runId && state.runId !== r.runId) {
          throw new Error(`line ${lineNo}: the file's run line names another run than ${state.runId}`);
        }
        state.runId = r.runId;
        o.log(`run ${r.runId} ${r.created ? "created" : "found (created before)"}`);
        await consume(end);
      } else if (parsed.kind === "status") {
        await flush();
        const runId = state.runId;
        if (!runId) throw new Error(`line ${lineNo}: a status line before any run`);
        await withRetry("status", () => o.api.setStatus(runId, parsed.value), o);
        o.log(`run ${runId}: ${parsed.value.status.toLowerCase()}`);
        state.finished = parsed.value.status !== "RUNNING";
        await consume(end);
        if (state.finished) break;
      } else {
        const kind = parsed.kind;
        if (pending && pending.kind !== kind) await flush();
        if (!pending)
          pending = kind === "metrics" ? { kind, items: [], end, lines: 0 } : { kind, items: [], end, lines: 0 };
        (pending.items as unknown[]).push(parsed.value);
        pending.end = end;
        pending.lines++;
        if (pending.items.length >= (kind === "metrics" ? maxMetrics : maxRollouts)) await flush();
      }
    }
    if (o.signal?.aborted) break; // what was gathered is not acknowledged: sent again next time
    await flush();
    if (read.more) continue;
    if (!o.follow || state.finished) break;
    await sleep(o.pollMs ?? 1000, undefined, { signal: o.signal }).catch(() => undefined);
  }
  return state;
}
