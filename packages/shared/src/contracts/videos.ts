import { z } from "zod";
import { id, projectRef, storable } from "./common";

export const VIDEO_STATUSES = ["PENDING", "PROBING", "PROCESSING", "READY", "FAILED"] as const;

export const demoVideoInput = projectRef.extend({
  name: storable(z.string().trim().min(1).max(120)).optional(),
  durationS: z.number().int().min(2, "At least 2 seconds").max(1800, "At most 30 minutes").default(20),
});

export const videoListInput = projectRef.extend({
  query: z.string().trim().max(200).optional(),
});

export const videoRefInput = projectRef.extend({ videoId: id });

export const registerVideoInput = projectRef.extend({
  path: z.string().trim().min(1, "Enter a server path or a file:// URI").max(4096, "The path is too long"),
  name: storable(z.string().trim().min(1).max(200)).optional(),
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
  sizeBytes: z.number().nullable(),
  hasThumbnail: z.boolean(),
  hasFilmstrip: z.boolean(),
  createdAt: z.date(),
});
export type VideoOutput = z.infer<typeof videoOutput>;

/** What the video.assets job stores in Video.assets (file names relative to the asset dir). */
export const videoAssetsSchema = z.object({
  thumbnail: z.string().optional(),
  filmstrip: z
    .object({
      index: z.string(),
      sheets: z.array(z.string()),
    })
    .optional(),
});
export type VideoAssets = z.infer<typeof videoAssetsSchema>;
