import { z } from "zod";
import { id, projectRef } from "./common";

export const QUESTION_TYPES = ["mcq", "tvg", "oe"] as const;
export const questionTypeSchema = z.enum(QUESTION_TYPES);

const datasetName = z.string().trim().min(1, "Give the dataset a name").max(120);

/** A needle suite rendered by a worker (packages/suite); limits keep one job within hours. */
export const generateSuiteInput = projectRef
  .extend({
    name: datasetName,
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
    count: z.number().int().min(1, "At least one video").max(200, "At most 200 videos per suite").default(5),
    minMinutes: z.number().min(1).max(30).default(1),
    maxMinutes: z.number().min(1).max(30).default(3),
  })
  .refine((v) => v.maxMinutes >= v.minMinutes, { message: "maxMinutes must be >= minMinutes", path: ["maxMinutes"] });

/** A suite directory already on the server (e.g. written by `paravt suite generate`). */
export const importSuiteInput = projectRef.extend({
  name: datasetName,
  path: z.string().trim().min(1, "Enter the suite directory").max(4096),
});

export const datasetRefInput = projectRef.extend({ datasetId: id });

export const sampleListInput = datasetRefInput.extend({
  questionType: questionTypeSchema.optional(),
  cursor: z.string().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});

/** One row of a suite's "answerable from the overview" table (packages/suite manifest). */
export const visibilityRowSchema = z.object({
  group: z.string(),
  questions: z.number(),
  visible: z.record(z.string(), z.number()),
  noCrop: z.record(z.string(), z.number()),
});
export type VisibilityRow = z.infer<typeof visibilityRowSchema>;

export const datasetOutput = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source: z.record(z.string(), z.unknown()),
  sampleCount: z.number().int(),
  countsByType: z.record(z.string(), z.number().int()),
  createdAt: z.date(),
});
export type DatasetOutput = z.infer<typeof datasetOutput>;

export const sampleOutput = z.object({
  id: z.string(),
  key: z.string(),
  question: z.string(),
  options: z.array(z.string()).nullable(),
  answer: z.string(),
  questionType: questionTypeSchema,
  videoId: z.string().nullable(),
  videoName: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});
export type SampleOutput = z.infer<typeof sampleOutput>;

export const samplePageOutput = z.object({ items: z.array(sampleOutput), nextCursor: z.string().nullable() });
