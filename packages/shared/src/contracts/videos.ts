import { z } from "zod";
import { projectRef } from "./common";

export const VIDEO_STATUSES = ["PENDING", "PROBING", "PROCESSING", "READY", "FAILED"] as const;

export const demoVideoInput = projectRef.extend({
  name: z.string().trim().min(1).max(120).optional(),
  durationS: z.number().int().min(2, "At least 2 seconds").max(1800, "At most 30 minutes").default(20),
});

export const videoOutput = z.object({
  id: z.string(),
  name: z.string(),
  source: z.enum(["UPLOAD", "PATH", "GENERATED"]),
  status: z.enum(VIDEO_STATUSES),
  error: z.string().nullable(),
  durationS: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  fps: z.number().nullable(),
  codec: z.string().nullable(),
  createdAt: z.date(),
});
export type VideoOutput = z.infer<typeof videoOutput>;
