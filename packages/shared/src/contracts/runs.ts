import { z } from "zod";
import { id, projectRef } from "./common";

export const RUN_STATUSES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"] as const;
export const runStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof runStatusSchema>;
export const RUN_KINDS = ["sft", "rl", "eval", "import", "job"] as const;

export const TERMINAL_STATUSES: readonly RunStatus[] = ["SUCCEEDED", "FAILED", "CANCELLED"];

export const runListInput = projectRef.extend({
  status: runStatusSchema.optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

export const runRefInput = projectRef.extend({ runId: id });

export const runOutput = z.object({
  id: z.string(),
  kind: z.enum(RUN_KINDS),
  jobName: z.string(),
  name: z.string(),
  status: runStatusSchema,
  progress: z.number(),
  message: z.string().nullable(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  createdAt: z.date(),
  startedAt: z.date().nullable(),
  finishedAt: z.date().nullable(),
  createdBy: z.string().nullable(),
});
export type RunOutput = z.infer<typeof runOutput>;

/** What travels over Redis pub/sub and SSE when a run changes. */
export const runEventSchema = z.object({
  projectId: z.string(),
  runId: z.string(),
  status: runStatusSchema,
  progress: z.number(),
  message: z.string().nullable(),
  error: z.string().nullable(),
  at: z.string(),
});
export type RunEvent = z.infer<typeof runEventSchema>;

/**
 * What the live subscription sends: first `subscribed` once the server listens (anything that
 * happened before it must be refetched, e.g. after a reconnect), then one `run` per change.
 */
export const liveRunMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("subscribed") }),
  z.object({ type: z.literal("run"), event: runEventSchema }),
]);
export type LiveRunMessage = z.infer<typeof liveRunMessageSchema>;
