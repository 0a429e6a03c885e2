import { fork } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NANO_PRESETS, sftRunConfig } from "@paravt/shared";
import { db, metrics, serverEnv } from "@paravt/shared/server";
import { z } from "zod";
import { PermanentJobError, SkipJobError, type JobHandler, type RunContext } from "../job-context";
import type { SftChildMessage, SftChildOptions } from "../sft-child";

const CHILD = fileURLToPath(new URL("../sft-child.ts", import.meta.url));

/** Latest `step-NNNNNN` checkpoint of a run, to continue after a crash or a lost lock. */
async function latestCheckpoint(outDir: string): Promise<string | undefined> {
  const names = await fs.readdir(outDir).catch(() => [] as string[]);
  const steps = names.filter((n) => /^step-\d+$/.test(n)).sort();
  return steps.length ? path.join(outDir, steps.at(-1)!) : undefined;
}

/**
 * Trains in a child process (sft-child.ts) and relays its steps: metrics rows, progress and the
 * cancellation check stay here, next to the database. A cancelled run kills the child; a child
 * that dies (native crash, OOM kill) fails this attempt only, and the retry resumes from the
 * latest checkpoint.
 */
function trainInChild(
  options: SftChildOptions,
  runId: string,
  ctx: RunContext,
): Promise<{ checkpoints: string[]; lastLoss: number | null }> {
  return new Promise((resolve, reject) => {
    // tsx is passed explicitly: the parent may run under a test runner with other loader flags.
    const child = fork(CHILD, [], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let settled = false;
    let failure: Error | null = null;
    let chain = Promise.resolve();
    const settle = (fn: () => void) => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    child.on("message", (msg: SftChildMessage) => {
      // Steps are relayed in order: each waits for the previous one's writes.
      chain = chain.then(async () => {
        if (settled) return;
        if (msg.type === "step") {
          const m = msg.metrics;
          try {
            await metrics.recordStep(runId, m.step, {
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
            );
          } catch (err) {
            // Cancelled (or the row is gone): stop the training process.
            failure = err as Error;
            child.kill("SIGKILL");
          }
        } else if (msg.type === "done") {
          settle(() => resolve({ checkpoints: msg.checkpoints, lastLoss: msg.lastLoss }));
        } else {
          failure = msg.permanent ? new PermanentJobError(msg.message) : new Error(msg.message);
        }
      });
    });
    child.on("exit", (code, signal) => {
      void chain.then(() =>
        settle(() =>
          reject(
            failure ??
              new Error(
                `The training process died (${signal ?? `exit code ${code}`}); the job retries from its last checkpoint`,
              ),
          ),
        ),
      );
    });
    child.send({ type: "start", options });
  });
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
  const resumeFrom = await latestCheckpoint(outDir);
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
      outDir,
      ...(resumeFrom ? { resumeFrom } : {}),
    },
    runId,
    ctx,
  );
  const final = result.checkpoints.at(-1) ?? (await latestCheckpoint(outDir));
  if (!final) throw new Error("training finished without writing a checkpoint");
  const modelConfig = { checkpoint: final, runId, preset: cfg.preset, datasetId: cfg.datasetId };
  await db().model.upsert({
    where: { projectId_name: { projectId: run.projectId, name: run.name } },
    create: { projectId: run.projectId, name: run.name, kind: "NANO_CHECKPOINT", config: modelConfig },
    update: { config: modelConfig },
  });
  const loss = result.lastLoss === null ? "?" : result.lastLoss.toFixed(3);
  return `${cfg.steps} steps · final loss ${loss} · model "${run.name}" registered`;
};
