import fs from "node:fs/promises";
import path from "node:path";
import { NANO_PRESETS, sftRunConfig } from "@paravt/shared";
import { db, metrics, serverEnv } from "@paravt/shared/server";
import { defaultTokenizer, modelConfig, trainSft, TrainError } from "@paravt/nano";
import { z } from "zod";
import { PermanentJobError, SkipJobError, type JobHandler } from "../job-context";

/** Latest `step-NNNNNN` checkpoint of a run, to continue after a crash or a lost lock. */
async function latestCheckpoint(outDir: string): Promise<string | undefined> {
  const names = await fs.readdir(outDir).catch(() => [] as string[]);
  const steps = names.filter((n) => /^step-\d+$/.test(n)).sort();
  return steps.length ? path.join(outDir, steps.at(-1)!) : undefined;
}

/**
 * Cold-start SFT of ParaVT-nano on a needle suite's oracle trajectories (issue 6 / SPEC §3).
 * Metrics go to the metrics table per step (unique run+name+step, so a resumed run never writes
 * a step twice); checkpoints to DATA_DIR/checkpoints/<run>; the final one is registered as a
 * NANO_CHECKPOINT model of the project.
 */
export const handleTrainSft: JobHandler<"train.sft"> = async ({ runId }, ctx) => {
  const run = await db().run.findUnique({ where: { id: runId } });
  if (!run) throw new SkipJobError(`run ${runId} no longer exists`);
  const parsed = sftRunConfig.safeParse(run.config);
  if (!parsed.success) throw new PermanentJobError(`Invalid SFT settings: ${z.prettifyError(parsed.error)}`);
  const cfg = parsed.data;
  const dataset = await db().dataset.findUnique({ where: { id: cfg.datasetId } });
  const dir = (dataset?.source as { dir?: unknown } | undefined)?.dir;
  if (!dataset || typeof dir !== "string") throw new PermanentJobError("The dataset is gone or has no suite directory");

  const tokenizer = defaultTokenizer();
  const model = modelConfig(tokenizer, { ...NANO_PRESETS[cfg.preset], seed: cfg.seed });
  const outDir = path.join(serverEnv().DATA_DIR, "checkpoints", runId);
  const resumeFrom = await latestCheckpoint(outDir);
  await ctx.progress(0.01, resumeFrom ? `Resuming from ${path.basename(resumeFrom)}` : "Loading data and frames");
  try {
    const result = await trainSft({
      suiteDir: dir,
      tokenizer,
      modelConfig: model,
      steps: cfg.steps,
      batchSize: cfg.batchSize,
      lr: { kind: "cosine", lr: cfg.lr, warmupSteps: Math.ceil(cfg.steps * 0.05) },
      seed: cfg.seed,
      checkpointEvery: cfg.checkpointEvery,
      outDir,
      ...(resumeFrom ? { resumeFrom } : {}),
      onStep: async (m) => {
        await metrics.recordStep(runId, m.step, {
          loss: m.loss,
          token_accuracy: m.tokenAccuracy,
          tokens_per_s: m.tokensPerSecond,
          step_time_ms: m.stepTimeMs,
          grad_norm: m.gradNorm,
          lr: m.lr,
        });
        // Also the cancellation point: throws RunCancelledError once the run is cancelled.
        await ctx.progress(m.step / cfg.steps, `step ${m.step}/${cfg.steps} · loss ${m.loss.toFixed(3)}`);
      },
    });
    const final = result.checkpoints.at(-1) ?? (await latestCheckpoint(outDir));
    if (!final) throw new Error("training finished without writing a checkpoint");
    await db().model.upsert({
      where: { projectId_name: { projectId: run.projectId, name: run.name } },
      create: {
        projectId: run.projectId,
        name: run.name,
        kind: "NANO_CHECKPOINT",
        config: { checkpoint: final, runId, preset: cfg.preset, datasetId: cfg.datasetId },
      },
      update: { config: { checkpoint: final, runId, preset: cfg.preset, datasetId: cfg.datasetId } },
    });
    const last = result.metrics.at(-1);
    return `${cfg.steps} steps · final loss ${last ? last.loss.toFixed(3) : "?"} · model "${run.name}" registered`;
  } catch (err) {
    // Diverged training or a mismatched checkpoint will not heal by retrying.
    if (err instanceof TrainError) throw new PermanentJobError(err.message);
    throw err;
  }
};
