// The Run lifecycle. The row is the truth; the queue only delivers its id. Status moves
// QUEUED -> RUNNING -> SUCCEEDED | FAILED | CANCELLED, and each change is published to the
// project's event channel for live pages.
import { Prisma, type Run, type RunKind } from "@paravt/db";
import {
  RUN_CONFIG_RECORD_KEYS,
  runAttemptSchema,
  runWorkerSchema,
  type RunAttempt,
  type RunChange,
  type RunConfigOutput,
  type RunEvent,
  type RunOutput,
} from "../../contracts/runs";
import { NotFoundError, ValidationError } from "../../errors";
import { JOB_CATALOG, type JobName, type JobPayload } from "../../jobs/catalog";
import { db } from "../db";
import { publishRunEvent } from "../events";
import { enqueue, removeQueuedJob } from "../queues";
import type { ProjectAccess } from "./access";
import { closeAttempt, recordAttemptStart } from "./run-attempts";

type RunWithCreator = Run & { createdBy: { email: string } | null };

/** The API shape of a run row (also the base of eval run outputs). */
export function toRunOutput(r: RunWithCreator): RunOutput {
  return {
    id: r.id,
    kind: r.kind,
    jobName: r.jobName,
    name: r.name,
    status: r.status,
    progress: r.progress,
    message: r.message,
    error: r.error,
    attempts: r.attempts,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    createdBy: r.createdBy?.email ?? null,
  };
}

/** A change of the run's status (what every lifecycle step publishes). */
export const STATUS_CHANGED: RunChange = { status: true };

/**
 * The fields of a run row its live event carries. Reads made only to publish an event select
 * these: the row's `config` can hold every sample id of a large evaluation (~3 MB at 100k
 * samples), which reading after every stored episode made the first bottleneck of the eval write
 * path (bench/scale, docs/scale.md).
 */
export const RUN_EVENT_FIELDS = {
  projectId: true,
  id: true,
  kind: true,
  status: true,
  progress: true,
  message: true,
  error: true,
} as const satisfies Prisma.RunSelect;
export type RunEventRow = Pick<Run, keyof typeof RUN_EVENT_FIELDS>;

/** Reads the run's event fields and publishes its event (nothing when the run is gone). */
export async function publishRunState(runId: string, changed: RunChange): Promise<void> {
  const row = await db().run.findUnique({ where: { id: runId }, select: RUN_EVENT_FIELDS });
  if (row) await publishRunEvent(toEvent(row, changed));
}

/**
 * The live event of a run row (what pages refresh from) and what changed besides its progress
 * and message (`{}`: nothing else), so pages refetch only that (issue 42 item 1).
 */
export function toEvent(r: RunEventRow, changed: RunChange): RunEvent {
  return {
    projectId: r.projectId,
    runId: r.id,
    kind: r.kind,
    status: r.status,
    progress: r.progress,
    message: r.message,
    error: r.error,
    at: new Date().toISOString(),
    changed,
  };
}

/**
 * Tells live pages that the run has new data (metric points, episodes) without writing its row:
 * ingested batches, a trainer's validation.
 */
export async function announceRunChange(run: RunEventRow | string, changed: RunChange): Promise<void> {
  if (typeof run === "string") await publishRunState(run, changed);
  else await publishRunEvent(toEvent(run, changed));
}

/** Writes the QUEUED row, then enqueues with the row id as job id (idempotent). */
export async function launchRun<N extends JobName>(
  access: Pick<ProjectAccess, "projectId"> & { principal: { userId: string } | null },
  input: {
    jobName: N;
    name: string;
    kind?: RunKind;
    config?: Prisma.InputJsonValue;
    payload: Omit<JobPayload<N>, "runId">;
  },
): Promise<RunOutput> {
  const run = await db().run.create({
    data: {
      projectId: access.projectId,
      createdById: access.principal?.userId ?? null,
      kind: input.kind ?? "job",
      jobName: input.jobName,
      name: input.name,
      config: input.config ?? (input.payload as Prisma.InputJsonValue),
    },
    include: { createdBy: { select: { email: true } } },
  });
  // Published before enqueueing so that no subscriber can see RUNNING before QUEUED.
  await publishRunEvent(toEvent(run, STATUS_CHANGED));
  try {
    await enqueue(input.jobName, { ...input.payload, runId: run.id } as JobPayload<N>);
  } catch (err) {
    // The row must not claim QUEUED when nothing will ever run it.
    const failed = await db().run.update({
      where: { id: run.id },
      data: { status: "FAILED", error: `Could not enqueue: ${(err as Error).message}`, finishedAt: new Date() },
    });
    await publishRunEvent(toEvent(failed, STATUS_CHANGED)).catch(() => undefined);
    throw err;
  }
  return toRunOutput(run);
}

/** A run the system starts on its own (e.g. assets after a probe), attributed to nobody. */
export function launchSystemRun<N extends JobName>(projectId: string, input: Parameters<typeof launchRun<N>>[1]) {
  return launchRun({ projectId, principal: null }, input);
}

export async function listRuns(
  access: ProjectAccess,
  input: { status?: RunOutput["status"]; limit: number },
): Promise<RunOutput[]> {
  const rows = await db().run.findMany({
    where: { projectId: access.projectId, ...(input.status ? { status: input.status } : {}) },
    include: { createdBy: { select: { email: true } } },
    orderBy: { createdAt: "desc" },
    take: input.limit,
  });
  return rows.map(toRunOutput);
}

export async function getRun(access: ProjectAccess, runId: string): Promise<RunOutput> {
  const r = await db().run.findFirst({
    where: { id: runId, projectId: access.projectId },
    include: { createdBy: { select: { email: true } } },
  });
  if (!r) throw new NotFoundError("Run");
  return toRunOutput(r);
}

/** A run's attempt log as stored (entries this version cannot read are left out). */
function attemptLog(stored: unknown): RunAttempt[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((e) => {
    const p = runAttemptSchema.safeParse(e);
    return p.success ? [p.data] : [];
  });
}

/**
 * A run's stored config and what it names (dataset, model), every attempt and the worker of the
 * last one. An eval's config says how many samples it covers (`sampleCount`; the ids are rows of
 * `eval_run_samples`, never read here).
 */
export async function getRunConfig(access: ProjectAccess, runId: string): Promise<RunConfigOutput> {
  const r = await db().run.findFirst({ where: { id: runId, projectId: access.projectId } });
  if (!r) throw new NotFoundError("Run");
  const stored = (
    r.config !== null && typeof r.config === "object" && !Array.isArray(r.config) ? r.config : {}
  ) as Record<string, unknown>;
  const config = Object.fromEntries(Object.entries(stored).filter(([k]) => !RUN_CONFIG_RECORD_KEYS.includes(k)));
  const attempts = attemptLog(stored.workerAttempts);
  const last = attempts.findLast((a) => a.attempt !== undefined);
  const datasetId = typeof config.datasetId === "string" ? config.datasetId : null;
  const modelId = r.modelId ?? (typeof config.modelId === "string" ? config.modelId : null);
  const [dataset, model] = await Promise.all([
    datasetId
      ? db().dataset.findFirst({
          where: { id: datasetId, projectId: access.projectId },
          select: { id: true, name: true },
        })
      : null,
    modelId
      ? db().model.findFirst({ where: { id: modelId, projectId: access.projectId }, select: { id: true, name: true } })
      : null,
  ]);
  // A row from before the log kept only its last attempt's worker (`config.worker`).
  const w = last
    ? runWorkerSchema.safeParse({
        host: last.host,
        pid: last.pid,
        attempt: last.attempt,
        ...(last.backend !== undefined ? { backend: last.backend } : {}),
        ...(last.device !== undefined ? { device: last.device } : {}),
      })
    : runWorkerSchema.safeParse(stored.worker);
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    status: r.status,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    config,
    sampleCount: r.kind === "eval" && typeof stored.sampleCount === "number" ? stored.sampleCount : null,
    worker: w.success ? w.data : null,
    attempts,
    dataset,
    model,
  };
}

export async function cancelRun(access: ProjectAccess, runId: string): Promise<RunOutput> {
  const r = await db().run.findFirst({ where: { id: runId, projectId: access.projectId } });
  if (!r) throw new NotFoundError("Run");
  if (r.status !== "QUEUED" && r.status !== "RUNNING") {
    throw new ValidationError(`Run is already ${r.status.toLowerCase()}`);
  }
  // A queued job is removed from the queue; a running one sees CANCELLED at its next
  // progress report (RunContext.checkpoint) and stops.
  if (Object.hasOwn(JOB_CATALOG, r.jobName)) await removeQueuedJob(r.jobName as JobName, r.id);
  const updated = await db().run.update({
    where: { id: r.id },
    data: { status: "CANCELLED", finishedAt: new Date(), message: "Cancelled" },
    include: { createdBy: { select: { email: true } } },
  });
  await closeAttempt(r.id, "cancelled");
  await publishRunEvent(toEvent(updated, STATUS_CHANGED));
  return toRunOutput(updated);
}

// ----- worker side ---------------------------------------------------------------------------

export class RunCancelledError extends Error {
  override name = "RunCancelledError";
}

/**
 * Moves a run to RUNNING for one attempt. Returns null when the job must be skipped: the row is
 * gone (not-found is a skip, not a retry) or already terminal (a duplicate delivery). `queue`: the
 * queue that delivered it, kept in the run's attempt log with this worker process.
 */
export async function startRunAttempt(runId: string, opts: { queue?: string } = {}): Promise<Run | null> {
  // A run already RUNNING keeps its start: an evaluation's shards started it before its parent
  // job's attempt (else its duration would be the parent's last seconds), and a taken-over
  // delivery continues the same attempt's clock. A run coming back from QUEUED (a retry, a
  // resume) starts again now. (Raw SQL for the CASE; updated_at is Prisma's @updatedAt.)
  const count = await db().$executeRaw`UPDATE runs
    SET status = 'RUNNING'::"RunStatus",
        started_at = CASE WHEN status = 'RUNNING'::"RunStatus" AND started_at IS NOT NULL THEN started_at ELSE now() END,
        attempts = attempts + 1, error = NULL, updated_at = now()
    WHERE id = ${runId} AND status IN ('QUEUED'::"RunStatus", 'RUNNING'::"RunStatus")`;
  if (count === 0) return null;
  // The worker process, backend and device of this attempt, for the run page (issue 39 item 6).
  await recordAttemptStart(runId, opts.queue);
  const run = await db().run.findUniqueOrThrow({ where: { id: runId } });
  await publishRunEvent(toEvent(run, STATUS_CHANGED));
  return run;
}

/**
 * Whether the delivery that moved the run to RUNNING as attempt `fence` still owns it: a later
 * delivery (the job taken over after a lost lock) has incremented `attempts`, a cancel or a
 * failure has moved the status.
 */
export async function holdsRunFence(runId: string, fence: number): Promise<boolean> {
  const n = await db().run.count({ where: { id: runId, status: "RUNNING", attempts: fence } });
  return n === 1;
}

/**
 * Records progress; throws RunCancelledError if the run was cancelled meanwhile. `changed`: what
 * the step stored besides (new metric points, episodes), for the event.
 */
export async function reportRunProgress(
  runId: string,
  progress: number,
  message?: string,
  changed: RunChange = {},
): Promise<void> {
  const res = await db().run.updateMany({
    where: { id: runId, status: "RUNNING" },
    data: { progress: Math.max(0, Math.min(1, progress)), ...(message !== undefined ? { message } : {}) },
  });
  const run = await db().run.findUnique({ where: { id: runId }, select: RUN_EVENT_FIELDS });
  if (!run) throw new RunCancelledError("run deleted");
  if (res.count === 0) throw new RunCancelledError(`run is ${run.status}`);
  await publishRunEvent(toEvent(run, changed));
}

/**
 * `fence`: the attempt count the finishing delivery set (startRunAttempt). A delivery whose job
 * was taken over meanwhile (its lock lost) then writes nothing: the row belongs to the newer one.
 */
export async function finishRun(runId: string, message = "Done", fence?: number): Promise<void> {
  // The status and the attempt's outcome in one transaction: a reader never sees one without the other.
  const finished = await db().$transaction(async (tx) => {
    const res = await tx.run.updateMany({
      where: { id: runId, status: "RUNNING", ...(fence !== undefined ? { attempts: fence } : {}) },
      data: { status: "SUCCEEDED", progress: 1, message, finishedAt: new Date() },
    });
    if (res.count) await closeAttempt(runId, "succeeded", { attempt: fence }, tx);
    return res.count > 0;
  });
  if (finished) await publishRunState(runId, STATUS_CHANGED);
}

/**
 * Records a failure. With retries left the run goes back to QUEUED (BullMQ will deliver it
 * again); on the last attempt it becomes FAILED with the reason.
 */
export async function failRunAttempt(runId: string, error: string, willRetry: boolean, fence?: number): Promise<void> {
  const failed = await db().$transaction(async (tx) => {
    const res = await tx.run.updateMany({
      // With `fence`, only the delivery that still owns the run (see finishRun) writes.
      where: { id: runId, status: "RUNNING", ...(fence !== undefined ? { attempts: fence } : {}) },
      data: willRetry
        ? { status: "QUEUED", message: `Retrying after error: ${error}`.slice(0, 1000) }
        : { status: "FAILED", error: error.slice(0, 4000), finishedAt: new Date() },
    });
    if (res.count) await closeAttempt(runId, willRetry ? "retrying" : "failed", { attempt: fence, reason: error }, tx);
    return res.count > 0;
  });
  if (failed) await publishRunState(runId, STATUS_CHANGED);
}
