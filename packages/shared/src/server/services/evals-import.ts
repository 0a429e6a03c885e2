// Importing a reference evaluator's output (SPEC §6): one dataset's `{summary, results}` file
// becomes a run (kind `import`) with one episode per result row, matched to the dataset's samples
// by `key` or `id`. A row with `error` is stored as ERROR with its reason, never as a wrong answer.
// The parser is self-contained so a shared one (packages/benchmarks) can replace it in one place.
import crypto from "node:crypto";
import { Prisma } from "@paravt/db";
import { z } from "zod";
import type { EvalMode } from "../../contracts/evals";
import type { RunOutput } from "../../contracts/runs";
import { NotFoundError, ValidationError } from "../../errors";
import { db } from "../db";
import { publishRunEvent } from "../events";
import type { ProjectAccess } from "./access";
import { computeRunSummary } from "./evals-summary";
import { getRun } from "./runs";

const scalarId = z.union([z.string(), z.number()]).transform((v) => String(v));
const text = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null ? null : String(v)));
/** An answer or prediction: text, a letter, a number, or a grounding span [start, end] ("s - e", SPEC §4). */
const answerText = z
  .union([z.tuple([z.number(), z.number()]), z.string(), z.number(), z.boolean(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null ? null : Array.isArray(v) ? `${v[0]} - ${v[1]}` : String(v)));
const flag = z
  .union([z.boolean(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null ? null : Boolean(v)));
const num = z
  .union([z.number(), z.null()])
  .optional()
  .transform((v) => (v === undefined || v === null || !Number.isFinite(v) ? null : v));

/** One result row of the reference evaluator (SPEC §6); unknown extra fields are kept aside. */
export const referenceRowSchema = z.looseObject({
  id: scalarId,
  answer: answerText,
  pred: answerText,
  correct: flag,
  // A count, or the list of calls made (its length is the count).
  tool_calls: z
    .union([z.number().int().min(0), z.array(z.unknown()), z.null()])
    .optional()
    .transform((v) => (Array.isArray(v) ? v.length : (v ?? 0))),
  score: num,
  full_response: text,
  key: scalarId.optional(),
  config: z.unknown().optional(),
  duration: z.union([z.string(), z.number(), z.null()]).optional(),
  pred_text: text,
  error: text,
});
export type ReferenceRow = z.infer<typeof referenceRowSchema>;

export const referenceFileSchema = z.object({
  summary: z.unknown().optional(),
  results: z.array(z.unknown()).min(1, "The file has no result rows"),
});

export interface ParsedReference {
  summary: unknown;
  rows: ReferenceRow[];
}

/** Validates a reference file; a bad row is reported by its position and field. */
export function parseReferenceFile(file: unknown): ParsedReference {
  const top = referenceFileSchema.safeParse(file);
  if (!top.success) {
    throw new ValidationError(`Not a reference evaluator output ({summary, results}): ${z.prettifyError(top.error)}`);
  }
  const rows: ReferenceRow[] = [];
  for (const [i, raw] of top.data.results.entries()) {
    const row = referenceRowSchema.safeParse(raw);
    if (!row.success) throw new ValidationError(`results[${i}]: ${z.prettifyError(row.error)}`);
    rows.push(row.data);
  }
  return { summary: top.data.summary ?? null, rows };
}

export interface ImportReferenceResult {
  run: RunOutput;
  group: { id: string; name: string };
  rows: number;
  matched: number;
  errors: number;
  unmatched: string[];
  unmatchedCount: number;
  duplicates: string[];
}

export async function importReference(
  access: ProjectAccess,
  input: {
    name: string;
    datasetId: string;
    modelId: string;
    mode: EvalMode;
    k: number;
    groupId?: string;
    file: unknown;
  },
): Promise<ImportReferenceResult> {
  const parsed = parseReferenceFile(input.file);
  const dataset = await db().dataset.findFirst({ where: { id: input.datasetId, projectId: access.projectId } });
  if (!dataset) throw new NotFoundError("Dataset");
  const model = await db().model.findFirst({ where: { id: input.modelId, projectId: access.projectId } });
  if (!model) throw new NotFoundError("Model");
  let group = { id: `grp_${crypto.randomBytes(8).toString("hex")}`, name: input.name };
  if (input.groupId) {
    const member = await db().run.findFirst({
      where: { projectId: access.projectId, config: { path: ["group", "id"], equals: input.groupId } },
    });
    if (!member) throw new NotFoundError("Evaluation group");
    group = (member.config as { group: { id: string; name: string } }).group;
  }

  const samples = await db().sample.findMany({
    where: { datasetId: dataset.id },
    select: { id: true, key: true, questionType: true, metadata: true },
  });
  const byKey = new Map(samples.map((s) => [s.key, s]));
  const seen = new Set<string>();
  const unmatched: string[] = [];
  const duplicates: string[] = [];
  const matched: { row: ReferenceRow; sample: (typeof samples)[number] }[] = [];
  for (const row of parsed.rows) {
    // `key` is the evaluator's unique key when present (e.g. video + question); else its id.
    const sample = (row.key !== undefined ? byKey.get(row.key) : undefined) ?? byKey.get(row.id);
    if (!sample) {
      unmatched.push(row.key ?? row.id);
      continue;
    }
    if (seen.has(sample.id)) {
      duplicates.push(row.key ?? row.id);
      continue;
    }
    seen.add(sample.id);
    matched.push({ row, sample });
  }
  if (!matched.length) {
    throw new ValidationError(
      `None of the ${parsed.rows.length} rows matches a sample of "${dataset.name}" by key or id (first ids: ${unmatched.slice(0, 5).join(", ")})`,
    );
  }

  const isError = (r: ReferenceRow) => r.error !== null && r.error.trim() !== "";
  const now = new Date();
  const config = {
    group,
    modelId: model.id,
    datasetId: dataset.id,
    mode: input.mode,
    k: input.k,
    imported: {
      rows: parsed.rows.length,
      matched: matched.length,
      unmatched: unmatched.slice(0, 100),
      duplicates: duplicates.slice(0, 100),
      referenceSummary: parsed.summary ?? null,
    },
  };
  const run = await db().$transaction(async (tx) => {
    const created = await tx.run.create({
      data: {
        projectId: access.projectId,
        createdById: access.principal.userId,
        modelId: model.id,
        kind: "import",
        jobName: "eval.import",
        name: input.name,
        config: JSON.parse(JSON.stringify(config)) as Prisma.InputJsonValue,
        status: "SUCCEEDED",
        progress: 1,
        message: `Imported ${matched.length} of ${parsed.rows.length} rows`,
        startedAt: now,
        finishedAt: now,
      },
    });
    await tx.episode.createMany({
      data: matched.map(({ row, sample }) => ({
        runId: created.id,
        sampleId: sample.id,
        modelId: model.id,
        rolloutIndex: 0,
        k: input.k,
        promptMode: input.mode,
        status: isError(row) ? ("ERROR" as const) : ("OK" as const),
        error: isError(row) ? row.error!.slice(0, 4000) : null,
        finalText: row.full_response,
        prediction: row.pred,
        score: isError(row) ? null : row.score,
        correct: isError(row) ? null : row.correct,
        toolCallCount: row.tool_calls,
        details: JSON.parse(
          JSON.stringify({
            imported: true,
            id: row.id,
            key: row.key ?? null,
            answer: row.answer,
            config: row.config ?? null,
            duration: row.duration ?? null,
            pred_text: row.pred_text,
          }),
        ) as Prisma.InputJsonValue,
      })),
    });
    return created;
  });
  // Summarized from the stored rows, like an evaluated run (evals-summary.ts).
  const summary = await computeRunSummary(run.id, matched.length);
  await db().run.update({
    where: { id: run.id },
    data: { summary: JSON.parse(JSON.stringify(summary)) as Prisma.InputJsonValue },
  });
  const out = await getRun(access, run.id);
  await publishRunEvent({
    projectId: access.projectId,
    runId: run.id,
    status: out.status,
    progress: out.progress,
    message: out.message,
    error: null,
    at: new Date().toISOString(),
  });
  return {
    run: out,
    group,
    rows: parsed.rows.length,
    matched: matched.length,
    errors: summary.errors,
    unmatched: unmatched.slice(0, 100),
    unmatchedCount: unmatched.length,
    duplicates: duplicates.slice(0, 100),
  };
}
