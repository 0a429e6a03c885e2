// The ONE place where errors become tRPC and HTTP status codes: domain errors of the services,
// the rate limiter's refusal, and what each transport answers for them.
import { DomainError, type DomainErrorCode } from "@paravt/shared";
import { RateLimitExceededError } from "@paravt/shared/server";
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

export function toTRPCError(err: unknown): TRPCError | null {
  const cause = err instanceof TRPCError ? err.cause : err;
  if (cause instanceof DomainError) {
    return new TRPCError({ code: CODE[cause.code], message: cause.message, cause });
  }
  if (cause instanceof RateLimitExceededError) {
    return new TRPCError({ code: "TOO_MANY_REQUESTS", message: cause.message, cause });
  }
  return null;
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
