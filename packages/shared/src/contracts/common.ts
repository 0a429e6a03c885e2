import { z } from "zod";

/** cuid-like ids as produced by Prisma; anything else is a validation error, never a DB query. */
export const id = z.string().trim().min(1, "id is required").max(64, "id is too long");

export const projectRef = z.object({ projectId: id });

export const pagination = z.object({
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
