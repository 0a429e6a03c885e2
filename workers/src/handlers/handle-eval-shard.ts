import { ReferenceQuestionSchema } from "@paravt/benchmarks/reference-question";
import type { EvalRunConfig } from "@paravt/shared";
import { db, episodePrompts, evals, models, onRunEvents, runs } from "@paravt/shared/server";
import { backendName } from "@paravt/kernels";
import { isRunSettingsError, nanoEvalEngineKind, openEvalEngine, runSample, type SampleInput } from "../eval-sample";
import { deviceLoss, PermanentJobError, SkipJobError, type JobHandler } from "../job-context";

const TERMINAL = new Set(["SUCCEEDED", "FAILED", "CANCELLED"]);

/** Aborts `controller` as soon as the run stops being RUNNING (cancel, or another shard failed it). */
async function abortOnStop(projectId: string, runId: string, controller: AbortController) {
  return onRunEvents(projectId, (e) => {
    if (e.runId === runId && TERMINAL.has(e.status)) controller.abort(new runs.RunCancelledError(`run is ${e.status}`));
  });
}

/** What the runner is given for one sample (the episode transcript renders its prompts from the same inputs). */
export function sampleInput(
  sample: NonNullable<Awaited<ReturnType<typeof loadSample>>>,
  cfg: EvalRunConfig,
): SampleInput | { error: string } {
  if (!sample.video) return { error: "The sample has no video" };
  if (sample.video.status === "FAILED")
    return { error: `The sample's video is unreadable: ${sample.video.error ?? "failed"}` };
  const meta = (sample.metadata ?? {}) as Record<string, unknown>;
  // The same inputs the episode transcript renders the prompts from (services/episode-prompts.ts).
  const subtitles = episodePrompts.evalEpisodeSubtitles(cfg.knobs, meta);
  let reference: SampleInput["reference"];
  if (cfg.knobs.requestStyle === "reference") {
    // The reference's question text (its load_samples), stored by the benchmark loaders.
    const parsed = ReferenceQuestionSchema.safeParse(meta.reference);
    if (!parsed.success) {
      return {
        error:
          "The sample has no reference question text (metadata.reference): the reference request needs a dataset " +
          "imported from a copy the reference evaluator reads (re-import it if it was imported before)",
      };
    }
    reference = {
      question: parsed.data,
      ...(meta.referenceScoring === "extract_letter" ? { scoring: "extract_letter" as const } : {}),
    };
  }
  return {
    video: {
      file: sample.video.path,
      key: sample.video.id,
      // What the model is shown as the video's path (a suite's relative path, else the file name).
      name: episodePrompts.evalEpisodeVideoPath(meta, sample.video.name),
    },
    question: sample.question,
    options: Array.isArray(sample.options) ? (sample.options as string[]) : null,
    answer: sample.answer,
    questionType: sample.questionType,
    ...(subtitles ? { subtitles } : {}),
    ...(reference ? { reference } : {}),
    mode: cfg.mode,
    k: cfg.k,
    knobs: cfg.knobs,
  };
}

export function loadSample(sampleId: string) {
  return db().sample.findUnique({
    where: { id: sampleId },
    include: { video: { select: { id: true, path: true, name: true, status: true, error: true } } },
  });
}

/**
 * One shard of an evaluation: the run's samples at ordinals [from, to) (`eval_run_samples`, of
 * which it reads only this slice), one after another. Samples already stored (by an earlier
 * attempt, or a worker that died) are skipped, so a retried or taken-over shard resumes where the
 * last one stopped. Each sample's episode is stored with its
 * turns and tool calls in one transaction before the next starts; an engine that fails (dead
 * server, decode error) makes that sample ERROR with the reason, never a wrong answer, and the
 * shard goes on; except a lost CUDA context of this worker (DeviceLostError): nothing is stored, the
 * shard fails to be retried, and the worker stops. Cancellation is seen between samples (the row) and during one (run events abort
 * the episode, which is then not stored).
 */
export const handleEvalShard: JobHandler<"eval.shard"> = async ({ runId, shard, from, to }, ctx) => {
  const run = await db().run.findUnique({ where: { id: runId } });
  if (!run) throw new SkipJobError(`run ${runId} no longer exists`);
  const cfg = evals.evalSettings(run);
  if (!cfg) throw new PermanentJobError("This run has no valid evaluation settings");
  const ids = await evals.runSampleSlice(runId, from, to);
  const done = await evals.storedSampleIds(runId, ids);
  const todo = ids.filter((id) => !done.has(id));
  if (!todo.length) return `shard ${shard}: all ${ids.length} samples already stored`;

  const model = await db().model.findUnique({ where: { id: cfg.modelId } });
  if (!model) throw new PermanentJobError("The model of this run was deleted");
  const apiKey = model.kind === "OPENAI_COMPATIBLE" ? await models.modelApiKey(model.id) : null;
  // A model that cannot be opened (missing checkpoint, refused endpoint URL) fails the run with
  // the reason; an engine that fails while answering only fails that sample.
  // Nano on the CUDA core runs in this process: a lost CUDA context there is this worker's fault.
  const inProcessCuda = model.kind === "NANO_CHECKPOINT" && nanoEvalEngineKind(backendName()) === "core";
  const engine = await openEvalEngine(model, apiKey).catch((err: Error) => {
    throw (
      deviceLoss(err.message, inProcessCuda) ??
      new PermanentJobError(`Cannot open model "${model.name}": ${err.message}`)
    );
  });
  const controller = new AbortController();
  const stopListening = await abortOnStop(run.projectId, runId, controller);
  // This worker lost the shard's lock: the worker that took it over skips what is stored, so
  // this one stops rather than evaluating the same samples twice.
  const onLockLost = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onLockLost();
  else ctx.signal.addEventListener("abort", onLockLost, { once: true });
  let evaluated = 0;
  let errors = 0;
  try {
    for (const sampleId of todo) {
      await evals.assertRunActive(runId);
      const sample = await loadSample(sampleId);
      if (!sample) continue; // deleted with its dataset: nothing to evaluate or count
      const input = sampleInput(sample, cfg);
      const base = { sampleId, rolloutIndex: 0, modelId: model.id, k: cfg.k, promptMode: cfg.mode };
      let record: evals.EpisodeRecord;
      if ("error" in input) {
        record = errorRecord(base, input.error);
      } else {
        try {
          record = { ...base, ...(await runSample(engine, input, controller.signal)) };
        } catch (err) {
          if (controller.signal.aborted) throw controller.signal.reason;
          // Invalid knobs or prompt templates fail every sample alike: fail the run, once.
          if (isRunSettingsError(err)) throw new PermanentJobError(`Invalid evaluation settings: ${err.message}`);
          record = errorRecord(base, err instanceof Error ? err.message : String(err));
        }
        // An episode cut short by a cancel is not a result: nothing is stored.
        if (controller.signal.aborted) throw controller.signal.reason;
        // Nor is one cut short by this worker's lost GPU: the shard is retried, the worker stops.
        const lost = record.status === "ERROR" ? deviceLoss(record.error, inProcessCuda) : null;
        if (lost) throw lost;
      }
      const fresh = await evals.storeEpisode(runId, record);
      evaluated++;
      if (record.status === "ERROR") errors++;
      await evals.reportStoredProgress(runId, cfg.sampleCount, fresh ? 1 : 0);
    }
  } finally {
    ctx.signal.removeEventListener("abort", onLockLost);
    await stopListening();
    await engine.close().catch(() => undefined);
  }
  return `shard ${shard}: ${evaluated} samples evaluated (${errors} errors), ${done.size} already stored`;
};

function errorRecord(
  base: Pick<evals.EpisodeRecord, "sampleId" | "rolloutIndex" | "modelId" | "k" | "promptMode">,
  error: string,
): evals.EpisodeRecord {
  return {
    ...base,
    status: "ERROR",
    error,
    finalText: null,
    prediction: null,
    score: null,
    correct: null,
    overviewTimestamps: [],
    timings: null,
    tokenCounts: null,
    details: null,
    turns: [],
  };
}
