import { z } from "zod";
import { ROLES } from "../roles";
import { id, projectRef, storable } from "./common";

export const roleSchema = z.enum(ROLES);

export const projectCreateInput = z.object({
  name: storable(z.string().trim().min(2, "Project name needs at least 2 characters").max(80)),
  description: z.string().trim().max(500).default(""),
});

export const projectUpdateInput = projectRef.extend({
  name: storable(z.string().trim().min(2).max(80)).optional(),
  description: z.string().trim().max(500).optional(),
});

export const projectOutput = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  description: z.string(),
  role: roleSchema,
  memberCount: z.number().int(),
  videoCount: z.number().int(),
  runCount: z.number().int(),
  createdAt: z.date(),
});
export type ProjectOutput = z.infer<typeof projectOutput>;

export const memberInviteInput = projectRef.extend({
  email: z.email("Enter a valid email address").transform((e) => e.toLowerCase()),
  role: roleSchema,
});

export const memberUpdateInput = projectRef.extend({ userId: id, role: roleSchema });
export const memberRemoveInput = projectRef.extend({ userId: id });

export const memberOutput = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  joinedAt: z.date(),
});
export type MemberOutput = z.infer<typeof memberOutput>;
