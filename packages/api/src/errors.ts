// The ONE place where errors become tRPC and HTTP status codes: domain errors of the services,
// the rate limiter's refusal, what the database refused of a request, and what each transport
// answers for them. Anything else is an incident: logged with a request id, answered as a bare
// "Internal server error (request <id>)" (never the driver's message, a stack or a server path).
import { randomUUID } from "node:crypto";
import { DomainError, UNSTORABLE_TEXT_MESSAGE, type DomainErrorCode } from "@paravt/shared";
import { databaseRefusal, RateLimitExceededError } from "@paravt/shared/server";
import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";

const CODE: Record<DomainErrorCode, TRPCError["code"]> = {
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  VALIDATION: "BAD_REQUEST",
  FORBIDDEN: "FORBIDDEN",
  UNAUTHORIZED: "UNAUTHORIZED",
};

/** The same mapping for plain HTTP route handlers (uploads, file streaming). */
export const HTTP_STATUS: Record<DomainErrorCode, number> = {
  NOT_FOUND: 404,
  CONFLICT: 409,
  VALIDATION: 400,
  FORBIDDEN: 403,
  UNAUTHORIZED: 401,
};

/**
 * What the database refused of a request, as the domain error it means: a row gone by the time it
 * was written (404), a unique key taken (409), a reference to nothing or a value Postgres cannot
 * store (422 on REST). Services check what they can first and say it better; this covers races
 * and values no schema bounds. The messages are ours: the driver's quotes values and columns.
 */
export function refusalAsDomainError(err: unknown): DomainError | null {
  const refusal = databaseRefusal(err);
  switch (refusal?.kind) {
    case "missing":
      return new DomainError("NOT_FOUND", "Not found (it may have just been deleted)");
    case "unique":
      return new DomainError("CONFLICT", "This conflicts with an existing one (a name, path or id already in use)");
    case "reference":
      return new DomainError("VALIDATION", "This refers to something that does not exist (or no longer does)");
    case "value":
      return new DomainError(
        "VALIDATION",
        refusal.text ? UNSTORABLE_TEXT_MESSAGE : "A value is out of the range the database stores",
      );
    default:
      return null;
  }
}

export function toTRPCError(err: unknown): TRPCError | null {
  const thrown = err instanceof TRPCError ? err.cause : err;
  const cause = thrown instanceof DomainError ? thrown : (refusalAsDomainError(thrown) ?? thrown);
  if (cause instanceof DomainError) {
    return new TRPCError({ code: CODE[cause.code], message: cause.message, cause });
  }
  if (cause instanceof RateLimitExceededError) {
    return new TRPCError({ code: "TOO_MANY_REQUESTS", message: cause.message, cause });
  }
  return null;
}

const incidents = new WeakMap<object, string>();

/**
 * The request id of an unexpected error, logged (once per error, with its cause and stack) the
 * first time it is asked for. The caller is told only the id; the log has the rest.
 */
export function reportIncident(error: unknown, where: string): string {
  const known = error !== null && typeof error === "object" ? incidents.get(error) : undefined;
  if (known) return known;
  const id = randomUUID().slice(0, 8);
  if (error !== null && typeof error === "object") incidents.set(error, id);
  console.error(`[request ${id}] ${where} failed:`, error instanceof TRPCError ? (error.cause ?? error) : error);
  return id;
}

/** What a caller is told about an unexpected error. */
export function internalErrorMessage(requestId: string): string {
  return `Internal server error (request ${requestId})`;
}

/** A zod error of the procedure's input (tRPC wraps it as BAD_REQUEST with the ZodError as cause). */
export function isInputValidationError(error: TRPCError): boolean {
  return error.code === "BAD_REQUEST" && error.cause instanceof Error && error.cause.name === "ZodError";
}

/** Seconds a rate-limited caller should wait, when `error` is the limiter's refusal. */
export function retryAfterSeconds(error: TRPCError): number | null {
  return error.cause instanceof RateLimitExceededError ? error.cause.retryAfterSeconds : null;
}

export type Transport = "rest" | "trpc";

/**
 * The HTTP status a caller sees for `error`. tRPC keeps its own mapping (an invalid input is
 * 400). The REST API (/api/v1) answers 422 for input that parsed as JSON but is not acceptable
 * (a zod issue, or a service's ValidationError such as a path outside MEDIA_ROOTS), and keeps 400
 * for a body that is not JSON at all, so scripts can tell "fix the values" from "fix the client".
 */
export function httpStatusOf(error: TRPCError, transport: Transport): number {
  if (transport === "rest") {
    if (isInputValidationError(error)) return 422;
    if (error.code === "BAD_REQUEST" && error.cause instanceof DomainError) return 422;
  }
  return getHTTPStatusCodeFromError(error);
}
