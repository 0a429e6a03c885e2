import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NANO_PRESETS, sftRunConfig } from "@paravt/shared";
import { db, metrics, serverEnv } from "@paravt/shared/server";
import { z } from "zod";
import { PermanentJobError, SkipJobError, type JobHandler, type RunContext } from "../job-context";
import type { SftChildMessage, SftChildOptions } from "../sft-child";
import { commitCheckpoint, latestCheckpoint, prepareStaging, RunLostError, runTrainingChild } from "../training-child";

const CHILD = fileURLToPath(new URL("../sft-child.ts", import.meta.url));

/**
 * Trains in a child process (sft-child.ts) and relays its steps: metrics rows, progress and the
 * cancellation check stay here, next to the database. A cancelled run kills the child; a child
 * that dies (native crash, OOM kill) fails this attempt only, and the retry resumes from the
 * latest checkpoint.
 */
function trainInChild(
  options: SftChildOptions,
  runId: string,
  runDir: string,
  ctx: RunContext,
): Promise<{ checkpoints: string[]; lastLoss: number | null }> {
  const checkpoints: string[] = [];
  return runTrainingChild<SftChildMessage, { checkpoints: string[]; lastLoss: number | null }>(
    CHILD,
    options,
    async (msg, child) => {
      if (msg.type === "step") {
        const m = msg.metrics;
        const written = await metrics.recordStep(runId, m.step, {
          loss: m.loss,
          token_accuracy: m.tokenAccuracy,
          tokens_per_s: m.tokensPerSecond,
          step_time_ms: m.stepTimeMs,
          grad_norm: m.gradNorm,
          lr: m.lr,
        });
        await ctx.progress(
          m.step / options.steps,
          `step ${m.step}/${options.steps} · loss ${m.loss.toFixed(3)} · pid ${child.pid}`,
          written ? { metrics: written } : {},
        );
        return;
      }
      if (msg.type === "checkpoint") {
        checkpoints.push(await commitCheckpoint(runDir, msg.dir, () => ctx.ownsRun()));
        return;
      }
      if (msg.type === "done") return { done: { checkpoints, lastLoss: msg.lastLoss } };
      return { fail: msg.permanent ? new PermanentJobError(msg.message) : new Error(msg.message) };
    },
    { signal: ctx.signal, pidFile: path.join(runDir, "trainer.pid") },
  );
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

  const outDir = path.join(serverEnv().DATA_DIR, "checkpoints", runId);
  // Committed checkpoints only (training-child.ts): each one's step is stored.
  const resumeFrom = await latestCheckpoint(outDir, { maxStep: (await metrics.lastStoredStep(runId)) ?? 0 });
  const staging = await prepareStaging(outDir);
  await ctx.progress(0.01, resumeFrom ? `Resuming from ${path.basename(resumeFrom)}` : "Loading data and frames");
  const result = await trainInChild(
    {
      suiteDir: dir,
      model: { ...NANO_PRESETS[cfg.preset], seed: cfg.seed },
      steps: cfg.steps,
      batchSize: cfg.batchSize,
      lr: cfg.lr,
      seed: cfg.seed,
      checkpointEvery: cfg.checkpointEvery,
      outDir: staging,
      ...(resumeFrom ? { resumeFrom } : {}),
    },
    runId,
    outDir,
    ctx,
  );
  await fs.rm(staging, { recursive: true, force: true });
  const final = result.checkpoints.at(-1) ?? (await latestCheckpoint(outDir));
  if (!final) throw new Error("training finished without writing a checkpoint");
  if (!(await ctx.ownsRun())) throw new RunLostError("Another delivery owns this run now: model not registered");
  const modelConfig = { checkpoint: final, runId, preset: cfg.preset, datasetId: cfg.datasetId };
  await db().model.upsert({
    where: { projectId_name: { projectId: run.projectId, name: run.name } },
    create: { projectId: run.projectId, name: run.name, kind: "NANO_CHECKPOINT", config: modelConfig },
    update: { config: modelConfig },
  });
  const loss = result.lastLoss === null ? "?" : result.lastLoss.toFixed(3);
  return `${cfg.steps} steps · final loss ${loss} · model "${run.name}" registered`;
};
