import { z } from "zod";

/** NUL, or a UTF-16 surrogate without its pair. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses what Postgres cannot store as typed (issue 37): NUL fails a TEXT write outright and an
 * unpaired surrogate turns into U+FFFD. Names and comments are typed by people, so such input is
 * a validation error (422 on REST, BAD_REQUEST on tRPC), never a 500. Model outputs are escaped
 * instead (server/storable-text.ts).
 */
export function storable<T extends z.ZodString>(schema: T): T {
  return schema.refine((v) => !UNSTORABLE.test(v), {
    message: "Text cannot contain NUL characters or unpaired surrogates",
  });
}

/** cuid-like ids as produced by Prisma; anything else is a validation error, never a DB query. */
export const id = storable(z.string().trim().min(1, "id is required").max(64, "id is too long"));

export const projectRef = z.object({ projectId: id });

export const pagination = z.object({
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
