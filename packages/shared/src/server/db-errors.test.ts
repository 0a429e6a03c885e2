// The shapes below are what Prisma 6 + @prisma/adapter-pg threw against a real Postgres 15 that
// was stopped under a live client (see db-errors.ts); the fault suite (faults/) exercises the real thing.
import { describe, expect, it } from "vitest";
import { isDatabaseOutage } from "./db-errors";

function prismaKnown(code: string, cause: unknown): Error {
  return Object.assign(new Error("Invalid `prisma.run.findUnique()` invocation"), {
    name: "PrismaClientKnownRequestError",
    code,
    meta: { driverAdapterError: { name: "DriverAdapterError", cause } },
  });
}

describe("isDatabaseOutage", () => {
  it("recognises a vanished server, a refused connection and an administrator shutdown", () => {
    expect(isDatabaseOutage(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isDatabaseOutage(prismaKnown("P1001", { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 })),
    ).toBe(true);
    expect(isDatabaseOutage(prismaKnown("P2010", { kind: "DatabaseNotReachable" }))).toBe(true);
    expect(
      isDatabaseOutage(
        prismaKnown("P2010", {
          kind: "postgres",
          code: "57P01",
          message: "terminating connection due to administrator command",
        }),
      ),
    ).toBe(true);
    expect(
      isDatabaseOutage(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(isDatabaseOutage(new Error("wrapped", { cause: new Error("Connection terminated unexpectedly") }))).toBe(
      true,
    );
  });

  it("does not mistake a failed query or an ordinary error for an outage", () => {
    expect(isDatabaseOutage(prismaKnown("P2002", { kind: "UniqueConstraintViolation" }))).toBe(false);
    expect(
      isDatabaseOutage(
        prismaKnown("P2010", { kind: "postgres", code: "22P05", message: "unsupported Unicode escape sequence" }),
      ),
    ).toBe(false);
    expect(isDatabaseOutage(new Error("The training process died (SIGKILL)"))).toBe(false);
    expect(isDatabaseOutage("Connection terminated unexpectedly")).toBe(false);
    expect(isDatabaseOutage(null)).toBe(false);
  });
});
