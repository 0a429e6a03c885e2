import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { scoreEpisode } from "@paravt/agent";
import { episodesChange, rlRunConfig, TRAINING_ROLLOUT_STRIDE, type RlRunConfig } from "@paravt/shared";
import { db, evals, metrics, serverEnv } from "@paravt/shared/server";
import { presetConfig, RL_STATE_FILE, RlConfigError, type RlConfig, type RolloutSummary } from "@paravt/rl";
import { z } from "zod";
import { toResult } from "../eval-sample";
import { PermanentJobError, SkipJobError, type JobHandler, type RunContext } from "../job-context";
import type { RlChildMessage, RlChildOptions, RolloutSample } from "../rl-child";
import { commitCheckpoint, latestCheckpoint, prepareStaging, RunLostError, runTrainingChild } from "../training-child";

const CHILD = fileURLToPath(new URL("../rl-child.ts", import.meta.url));
/** The committed default checkpoint of @paravt/nano (packages/nano/checkpoints/default). */
const DEFAULT_CHECKPOINT = path.join(
  path.dirname(createRequire(import.meta.url).resolve("@paravt/nano")),
  "..",
  "checkpoints",
  "default",
);
/** rolloutIndex = step * stride + i (i: the rollout's position in the step's batch) keeps (run, sample, rollout) unique across steps. */
const ROLLOUT_STRIDE = TRAINING_ROLLOUT_STRIDE;

/** The metric rows of one rollout summary; the dashboard groups series by these names. */
export function summaryMetrics(s: RolloutSummary, prefix = ""): Record<string, number> {
  const out: Record<string, number> = {
    reward_mean: s.rewardMean,
    reward_std: s.rewardStd,
    reward_acc: s.accRewardMean,
    reward_format: s.formatRewardMean,
    reward_tool: s.toolRewardMean,
    format_compliance: s.formatCompliance,
    tool_call_rate: s.toolCallRate,
    parallel_calls_per_turn: s.parallelCallsPerTurn,
    turns_used: s.turnsUsed,
    error_rate: s.errorRate,
    truncated_turn_rate: s.truncatedTurnRate,
  };
  for (const [k, m] of Object.entries(s.byK)) out[`accuracy_k${k}`] = m.accuracy;
  return Object.fromEntries(Object.entries(out).map(([n, v]) => [`${prefix}${n}`, v]));
}

/** The trainer config of a run: the SPEC §2 preset recipe, the run settings, the overrides. */
export function rlTrainerConfig(cfg: RlRunConfig): RlConfig {
  const { formatWeight, anchorWeight, ...rest } = cfg.overrides;
  return presetConfig(cfg.preset, {
    ...rest,
    steps: cfg.steps,
    checkpointEvery: cfg.checkpointEvery,
    seed: cfg.seed,
    recipe: {
      ...(formatWeight !== undefined ? { formatWeight } : {}),
      ...(anchorWeight !== undefined ? { anchorWeight } : {}),
    },
  });
}

/**
 * Stores a step's kept rollouts (a prefix of the batch, `keptRolloutCount`) as Episode rows of the
 * run, with their SPEC §2 reward terms and their place in the GRPO group: group, index in it,
 * group size and the SPEC §3 advantage the update used (the group inspector reads them).
 */
async function storeSamples(
  runId: string,
  datasetId: string,
  modelId: string | null,
  step: number,
  samples: RolloutSample[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, r] of samples.entries()) {
    const sample = await db().sample.findUnique({ where: { datasetId_key: { datasetId, key: r.promptId } } });
    if (!sample) continue; // the suite's question is not imported as a sample: nothing to attach it to
    const score = scoreEpisode(r.trajectory, { questionType: sample.questionType, answer: sample.answer });
    const rolloutIndex = step * ROLLOUT_STRIDE + i;
    await evals.storeEpisode(runId, {
      sampleId: sample.id,
      rolloutIndex,
      modelId,
      k: r.k,
      promptMode: r.trajectory.mode,
      ...toResult(r.trajectory, score),
    });
    const stored = await db().episode.update({
      where: { runId_sampleId_rolloutIndex: { runId, sampleId: sample.id, rolloutIndex } },
      data: {
        rewardTerms: {
          reward: r.reward.reward,
          accReward: r.reward.accReward,
          formatReward: r.reward.formatReward,
          toolReward: r.reward.toolReward,
          degenerate: r.reward.degenerate,
          formatCompliant: r.formatCompliant,
          step,
          seed: r.seed,
          group: r.place.group,
          groupIndex: r.place.index,
          groupSize: r.place.groupSize,
          advantage: r.place.advantage,
        },
      },
      select: { id: true },
    });
    ids.push(stored.id);
  }
  return ids;
}

/**
 * Trains in a child process (rl-child.ts) and relays its steps: metrics rows, sample episodes,
 * progress and the cancellation check stay here, next to the database. A cancelled run kills
 * the child; a child that dies (native crash, OOM kill) fails this attempt only, and the retry
 * resumes from the latest checkpoint.
 */
function trainInChild(
  options: RlChildOptions,
  run: { id: string; datasetId: string; modelId: string | null; steps: number; dir: string },
  ctx: RunContext,
): Promise<{ checkpoints: string[]; step: number; last: { reward: number } | null }> {
  let last: { reward: number } | null = null;
  const checkpoints: string[] = [];
  return runTrainingChild<RlChildMessage, { checkpoints: string[]; step: number; last: { reward: number } | null }>(
    CHILD,
    options,
    async (msg, child) => {
      if (msg.type === "step") {
        const m = msg.metrics;
        // Rollouts first: the step's metrics are the marker that the step is fully stored (resume
        // starts from the last checkpoint at or before it).
        const episodeIds = await storeSamples(run.id, run.datasetId, run.modelId, m.step, msg.samples);
        const written = await metrics.recordStep(run.id, m.step, {
          ...summaryMetrics(m),
          kl: m.kl,
          entropy: m.entropy,
          clip_fraction: m.clipFraction,
          grad_norm: m.gradNorm,
          loss: m.loss,
          pg_loss: m.pgLoss,
          lr: m.lr,
          rollout_time_ms: m.rolloutMs,
          update_time_ms: m.updateMs,
          step_time_ms: m.stepMs,
          tokens_per_s: m.rolloutTokensPerSecond,
          update_tokens_per_s: m.updateTokensPerSecond,
        });
        last = { reward: m.rewardMean };
        await ctx.progress(
          m.step / run.steps,
          `step ${m.step}/${run.steps} · reward ${m.rewardMean.toFixed(3)} · pid ${child.pid}`,
          {
            ...(written ? { metrics: written } : {}),
            ...(episodeIds.length ? { episodes: episodesChange(episodeIds) } : {}),
          },
        );
        return;
      }
      if (msg.type === "validation") {
        const written = await metrics.recordStep(run.id, msg.metrics.step, summaryMetrics(msg.metrics, "val_"));
        if (written) await ctx.announce({ metrics: written });
        return;
      }
      if (msg.type === "checkpoint") {
        checkpoints.push(await commitCheckpoint(run.dir, msg.dir, () => ctx.ownsRun()));
        return;
      }
      if (msg.type === "done") return { done: { checkpoints, step: msg.step, last } };
      return { fail: msg.permanent ? new PermanentJobError(msg.message) : new Error(msg.message) };
    },
    { signal: ctx.signal, pidFile: path.join(run.dir, "trainer.pid") },
  );
}

/**
 * PARA-GRPO / vanilla GRPO on ParaVT-nano (issue 9, SPEC §2-3) from a nano checkpoint. Metrics go
 * to the metrics table per step (unique run+name+step, so a resumed run never writes a step
 * twice); each step's rollouts, within the run's budget, to Episode rows; checkpoints to
 * DATA_DIR/checkpoints/<run>; the final one is registered as a NANO_CHECKPOINT model named after
 * the run.
 */
export const handleTrainRl: JobHandler<"train.rl"> = async ({ runId }, ctx) => {
  const run = await db().run.findUnique({ where: { id: runId } });
  if (!run) throw new SkipJobError(`run ${runId} no longer exists`);
  const parsed = rlRunConfig.safeParse(run.config);
  if (!parsed.success) throw new PermanentJobError(`Invalid RL settings: ${z.prettifyError(parsed.error)}`);
  const cfg = parsed.data;
  let config: RlConfig;
  try {
    config = rlTrainerConfig(cfg);
  } catch (err) {
    if (err instanceof RlConfigError) throw new PermanentJobError(err.message);
    throw err;
  }
  const dataset = await db().dataset.findUnique({ where: { id: cfg.datasetId } });
  const dir = (dataset?.source as { dir?: unknown } | undefined)?.dir;
  if (!dataset || typeof dir !== "string") throw new PermanentJobError("The dataset is gone or has no suite directory");

  const outDir = path.join(serverEnv().DATA_DIR, "checkpoints", runId);
  // Committed checkpoints only (training-child.ts): each one's step is stored.
  const resumeFrom = await latestCheckpoint(outDir, {
    maxStep: (await metrics.lastStoredStep(runId)) ?? 0,
    requiredFile: RL_STATE_FILE,
  });
  const staging = await prepareStaging(outDir);
  await ctx.progress(0.01, resumeFrom ? `Resuming from ${path.basename(resumeFrom)}` : "Loading the model and data");
  const result = await trainInChild(
    {
      suiteDir: dir,
      config,
      initialCheckpoint: cfg.initialCheckpoint ?? DEFAULT_CHECKPOINT,
      outDir: staging,
      referenceDir: path.join(outDir, "reference"),
      ...(resumeFrom ? { resumeFrom } : {}),
      keepRolloutsPerStep: cfg.keepRolloutsPerStep,
    },
    { id: runId, datasetId: cfg.datasetId, modelId: cfg.modelId ?? null, steps: cfg.steps, dir: outDir },
    ctx,
  );
  await fs.rm(staging, { recursive: true, force: true });
  const final = result.checkpoints.at(-1) ?? (await latestCheckpoint(outDir, { requiredFile: RL_STATE_FILE }));
  if (!final) throw new Error("training finished without writing a checkpoint");
  if (!(await ctx.ownsRun())) throw new RunLostError("Another delivery owns this run now: model not registered");
  const modelConfig = {
    checkpoint: final,
    runId,
    preset: cfg.preset,
    datasetId: cfg.datasetId,
    initialCheckpoint: cfg.initialCheckpoint ?? DEFAULT_CHECKPOINT,
  };
  await db().model.upsert({
    where: { projectId_name: { projectId: run.projectId, name: run.name } },
    create: { projectId: run.projectId, name: run.name, kind: "NANO_CHECKPOINT", config: modelConfig },
    update: { config: modelConfig },
  });
  const reward = result.last ? result.last.reward.toFixed(3) : "?";
  return `${result.step} steps · last reward ${reward} · model "${run.name}" registered`;
};
