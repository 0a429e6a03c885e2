import { z } from "zod";
import { id, projectRef } from "./common";

/** Model sizes of ParaVT-nano offered in the UI (context 2048 fits every default-suite example). */
export const NANO_PRESETS = {
  tiny: { width: 64, layers: 2, heads: 2, contextLength: 2048 },
  small: { width: 128, layers: 4, heads: 4, contextLength: 2048 },
  default: { width: 256, layers: 6, heads: 8, contextLength: 2048 },
} as const;
export type NanoPreset = keyof typeof NANO_PRESETS;

export const sftLaunchInput = projectRef.extend({
  datasetId: id,
  name: z.string().trim().min(1).max(120),
  preset: z.enum(["tiny", "small", "default"]).default("tiny"),
  steps: z.number().int().min(1).max(100_000).default(200),
  batchSize: z.number().int().min(1).max(64).default(4),
  lr: z.number().positive().max(1).default(1e-3),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(1),
  checkpointEvery: z.number().int().min(0).max(100_000).default(50),
});
export type SftLaunchInput = z.infer<typeof sftLaunchInput>;

/** What a train.sft Run stores in its config (the job reads it back, validated). */
export const sftRunConfig = sftLaunchInput.omit({ projectId: true });

export const metricSeriesInput = projectRef.extend({
  runId: id,
  names: z.array(z.string().min(1).max(100)).min(1).max(20),
  /** Points per series after downsampling (min/max preserving). */
  maxPoints: z.number().int().min(10).max(5000).default(600),
});

export const metricSeriesOutput = z.array(
  z.object({
    name: z.string(),
    total: z.number().int(),
    points: z.array(z.object({ step: z.number().int(), value: z.number() })),
  }),
);
