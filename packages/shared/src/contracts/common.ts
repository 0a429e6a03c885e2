import { z } from "zod";

/** NUL, or a UTF-16 surrogate without its pair. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What a caller is told about text with NUL or an unpaired surrogate (also by the API's error mapping). */
export const UNSTORABLE_TEXT_MESSAGE = "Text cannot contain NUL characters or unpaired surrogates";

/**
 * Refuses what Postgres cannot store as typed (issue 37): NUL fails a TEXT write outright and an
 * unpaired surrogate turns into U+FFFD. Names and comments are typed by people, so such input is
 * a validation error (422 on REST, BAD_REQUEST on tRPC), never a 500. Model outputs are escaped
 * instead (server/storable-text.ts).
 */
export function storable<T extends z.ZodString>(schema: T): T {
  return schema.refine((v) => !UNSTORABLE.test(v), { message: UNSTORABLE_TEXT_MESSAGE });
}

/** cuid-like ids as produced by Prisma; anything else is a validation error, never a DB query. */
export const id = storable(z.string().trim().min(1, "id is required").max(64, "id is too long"));

export const projectRef = z.object({ projectId: id });

/** The range of a Postgres `integer` (int4), the type of Prisma's `Int` columns. */
export const DB_INT_MIN = -(2 ** 31);
export const DB_INT_MAX = 2 ** 31 - 1;
/** The largest Postgres `bigint` (int8), the type of Prisma's `BigInt` columns. */
export const DB_BIGINT_MAX = 2n ** 63n - 1n;

/**
 * An integer an int4 column stores (issue 37 item 11). Every integer input that reaches an `Int`
 * column, a filter on one or a count of rows builds on it (`dbInt.min(0)`, ...): a number beyond
 * is a validation error (422 on REST), never Postgres' "out of range" as a 500. zod's own `.int()`
 * allows up to 2^53.
 */
export const dbInt = z.number().int().min(DB_INT_MIN).max(DB_INT_MAX);

/**
 * A non-negative `bigint` written as decimal digits (a cursor into a BigInt-keyed table): at most
 * int8's largest value, so the query never fails with "out of range".
 */
export function dbBigIntDigits(message: string) {
  return z
    .string()
    .regex(/^\d{1,19}$/, message)
    .refine((v) => BigInt(v) <= DB_BIGINT_MAX, message);
}

/** A page size: 1..max rows, `byDefault` when omitted. */
export function pageLimit(max: number, byDefault: number) {
  return dbInt.min(1).max(max).default(byDefault);
}

export const pagination = z.object({
  cursor: z.string().optional(),
  limit: pageLimit(200, 50),
});

/**
 * `schema`, answering `parseAsync` with a synchronous parse first (what tRPC calls: it prefers a
 * validator's `parseAsync`, @trpc/server unstable-core-do-not-import/parser.ts `getParseFn`).
 * zod 4 runs its compiled object parser only in a synchronous parse (`ctx.async === false`,
 * zod v4/core/schemas.js); `parseAsync` walks every object interpreted: a 6-series chart of
 * 1,000 points took 3.5 ms of CPU to validate through parseAsync and 0.6 ms through parse
 * (CPU profiles of the server; bench/metrics/README.md). A schema with async work still gets its async parse: the synchronous
 * one throws `$ZodAsyncError` when it meets a promise, and the value is parsed again asynchronously
 * (the rule of zod's own sync-first proposal, colinhacks/zod#6501), so an async check's function
 * runs twice: keep side effects out of such checks. For contracts whose values can be large
 * (pages, series, grids); `schema` must be a new instance, made for this (it is changed).
 */
export function syncFirst<T extends z.ZodType>(schema: T): T {
  const parseAsync = schema.parseAsync.bind(schema);
  Object.defineProperty(schema, "parseAsync", {
    value: async (value: unknown, params?: Parameters<T["parseAsync"]>[1]) => {
      try {
        return schema.parse(value, params);
      } catch (e) {
        if (e instanceof z.core.$ZodAsyncError) return parseAsync(value, params);
        throw e;
      }
    },
  });
  return schema;
}
