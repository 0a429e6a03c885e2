// Domain errors: services throw these; the API maps them to HTTP/tRPC codes in ONE place
// (packages/api/src/errors.ts). Client-safe.

export type DomainErrorCode = "NOT_FOUND" | "CONFLICT" | "VALIDATION" | "FORBIDDEN" | "UNAUTHORIZED";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Unknown id OR an entity of a project the caller cannot see: both read the same. */
export class NotFoundError extends DomainError {
  constructor(entity: string) {
    super("NOT_FOUND", `${entity} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super("CONFLICT", message);
  }
}

export class ValidationError extends DomainError {
  constructor(message: string) {
    super("VALIDATION", message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = "You do not have permission to do this") {
    super("FORBIDDEN", message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = "Sign in first") {
    super("UNAUTHORIZED", message);
  }
}
