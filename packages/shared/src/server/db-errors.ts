// What a failed Prisma call means: the database is down (`isDatabaseOutage`, below), or, told
// apart from that and from a bug of ours (`databaseRefusal`), the row is gone, a unique key is
// taken, a reference points nowhere, or Postgres (or Prisma's JSON layer) refused one of the values. The API answers these as 404 / 409 / 422
// (packages/api/src/errors.ts) and the eval store turns a refused value into an ERROR episode
// (services/evals-store.ts); everything else stays an unexpected error. Never carries the driver's
// message: it quotes values, column and constraint names.
import { Prisma } from "@paravt/db";

export type DatabaseRefusal =
  /** The row the call needed does not exist (any more): P2025 and kin. */
  | { kind: "missing" }
  /** A unique key is already taken: P2002 / SQLSTATE 23505. */
  | { kind: "unique" }
  /** A foreign key points to no row: P2003 / SQLSTATE 23503. */
  | { kind: "reference" }
  /**
   * A value was refused as such: by Postgres as a data exception (class 22: a NUL byte, an int4
   * out of range, ...) or a program limit (class 54: a value too large to index), or by Prisma's
   * JSON layer (an unpaired surrogate). `reason` names the class, never the value.
   */
  | { kind: "value"; reason: string; text: boolean }
  /** Prisma refused the query before sending it (an argument of the wrong shape or range). */
  | { kind: "query" };

const MISSING = new Set(["P2001", "P2015", "P2018", "P2025"]);

/** SQLSTATEs of text Postgres cannot store: 22021 (NUL in text), 22P05 (NUL in jsonb). */
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

function sqlState(err: unknown): string | null {
  if (!err || typeof err !== "object") return null;
  // Either the driver adapter's own error (thrown as is for SQLSTATEs Prisma does not map) or a
  // Prisma error carrying it in `meta`.
  const adapter =
    (err as { name?: unknown }).name === "DriverAdapterError"
      ? err
      : (err as { meta?: { driverAdapterError?: unknown } }).meta?.driverAdapterError;
  const cause = (adapter as { cause?: { originalCode?: unknown; kind?: unknown } } | undefined)?.cause;
  if (typeof cause?.originalCode === "string") return cause.originalCode;
  if (cause?.kind === "ValueOutOfRange") return "22003";
  if (cause?.kind === "LengthMismatch") return "22001";
  // $executeRaw / $queryRaw failures: P2010 with the SQLSTATE in meta.code.
  const meta = (err as { code?: unknown; meta?: { code?: unknown } }).meta;
  return (err as { code?: unknown }).code === "P2010" && typeof meta?.code === "string" ? meta.code : null;
}

/**
 * Prisma's query engine parses its request as JSON and refuses an unpaired surrogate's escape
 * ("unexpected end of hex escape", "lone leading surrogate in hex escape"): an UnknownRequestError
 * "JSON Error" for model queries, a ValidationError of `parameters` for raw ones.
 */
function refusedEscape(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientUnknownRequestError) return /^\s*JSON Error/m.test(err.message);
  return err instanceof Prisma.PrismaClientValidationError && /hex escape|surrogate/.test(err.message);
}

export function databaseRefusal(err: unknown): DatabaseRefusal | null {
  if (refusedEscape(err)) return { kind: "value", reason: "invalid JSON", text: true };
  if (err instanceof Prisma.PrismaClientValidationError) return { kind: "query" };
  const known = err instanceof Prisma.PrismaClientKnownRequestError ? err.code : null;
  if (known && MISSING.has(known)) return { kind: "missing" };
  const state = sqlState(err);
  if (known === "P2002" || state === "23505") return { kind: "unique" };
  if (known === "P2003" || state === "23503") return { kind: "reference" };
  if (state && /^(22|54)/.test(state)) {
    return { kind: "value", reason: `SQLSTATE ${state}`, text: UNSTORABLE_TEXT.has(state) };
  }
  if (known && ["P2000", "P2005", "P2006", "P2007", "P2019", "P2020", "P2023", "P2033"].includes(known)) {
    return { kind: "value", reason: known, text: false };
  }
  return null;
}

// ----- the database is down ---------------------------------------------------------------
// Whether an error means "the database is unreachable right now" rather than "this work failed".
// A worker that hits one must not spend a job attempt on it: a 12 s Postgres restart used to burn
// all of BullMQ's attempts in 6-10 s and leave the run RUNNING forever (issue 37 item 3).
//
// The shapes are those of Prisma 6 with the pg driver adapter (@prisma/adapter-pg, prisma/src/client.ts),
// read off a real Postgres 15 stopped and restarted under a live client (the fault suite, workers/faults/):
//   - the first query on a pool whose server vanished: a plain pg `Error("Connection terminated
//     unexpectedly")`;
//   - later ones: PrismaClientKnownRequestError P1001 (model queries) or P2010 (raw queries) whose
//     `meta.driverAdapterError.cause.kind` is "DatabaseNotReachable";
//   - a query in flight during a fast shutdown: P2010 with the Postgres code 57P01
//     ("terminating connection due to administrator command") in the adapter error's cause.

/** Prisma codes that name a connection problem (prisma.io/docs/orm/reference/error-reference). */
const PRISMA_CONNECTION_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/** Postgres SQLSTATE classes 08 (connection exception) and 57P (operator intervention), and 53300 (too many connections). */
function isConnectionSqlState(code: string): boolean {
  return code.startsWith("08") || code.startsWith("57P") || code === "53300";
}

/** Driver adapter error kinds of @prisma/driver-adapter-utils that mean the server is not there. */
const ADAPTER_OUTAGE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);

/** Messages of node-postgres (pg) and Node's sockets when the server goes away mid-connection. */
const SOCKET_MESSAGES = [
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
];
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND"]);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
  cause?: unknown;
}

function oneIsOutage(e: ErrorLike): boolean {
  if (e.name === "PrismaClientInitializationError") return true;
  if (typeof e.code === "string") {
    if (PRISMA_CONNECTION_CODES.has(e.code) || SOCKET_CODES.has(e.code)) return true;
    // A driver adapter cause carries the server's SQLSTATE as `code`.
    if (e.kind === "postgres" && isConnectionSqlState(e.code)) return true;
  }
  if (typeof e.kind === "string" && ADAPTER_OUTAGE_KINDS.has(e.kind)) return true;
  const message = typeof e.message === "string" ? e.message : "";
  return SOCKET_MESSAGES.some((m) => message.includes(m));
}

/**
 * A unique key refused the write. Prisma's upsert is a read, then an insert or an update, so two
 * concurrent upserts of a new row can both insert: the loser sees this and retries.
 */
export function isUniqueViolation(err: unknown): boolean {
  return databaseRefusal(err)?.kind === "unique";
}

/**
 * True when `err` (or an error it wraps: `cause`, a driver adapter error, an AggregateError) says
 * the database could not be reached or dropped the connection. Constraint violations, bad
 * queries and anything else are not outages.
 */
export function isDatabaseOutage(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const like = e as ErrorLike;
    if (oneIsOutage(like)) return true;
    queue.push(like.cause, like.meta?.driverAdapterError, like.meta?.driverAdapterError?.cause);
    if (e instanceof AggregateError) queue.push(...(e.errors as unknown[]));
  }
  return false;
}
