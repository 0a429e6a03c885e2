// The ONE place where domain errors become tRPC (and so HTTP) error codes.
import { DomainError, type DomainErrorCode } from "@paravt/shared";
import { TRPCError } from "@trpc/server";

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
  return null;
}
