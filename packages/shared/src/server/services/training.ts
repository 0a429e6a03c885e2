import { z } from "zod";
import { datasetTurnTokens, measuredMaxNewTokens } from "../../contracts/token-cap";
import { rlRunConfig, type sftRunConfig } from "../../contracts/training";
import { NotFoundError, ValidationError } from "../../errors";
import { confineCheckpoint } from "../checkpoint-paths";
import { db } from "../db";
import type { ProjectAccess } from "./access";
import { launchRun } from "./runs";

/**
 * Launches cold-start SFT of ParaVT-nano on a needle-suite dataset: its oracle trajectories
 * (main agent and sub-agent turns) are the training data (SPEC §3, loss on assistant tokens).
 */
export async function launchSft(access: ProjectAccess, input: z.infer<typeof sftRunConfig>) {
  const dataset = await db().dataset.findFirst({ where: { id: input.datasetId, projectId: access.projectId } });
  if (!dataset) throw new NotFoundError("Dataset");
  const source = (dataset.source ?? {}) as { kind?: string; dir?: string };
  if (source.kind !== "needle-suite" || typeof source.dir !== "string") {
    throw new ValidationError(
      "Only a needle-suite dataset can train nano (its oracle trajectories are the SFT data); wait for its import to finish",
    );
  }
  return launchRun(access, {
    jobName: "train.sft",
    kind: "sft",
    name: input.name,
    payload: {},
    config: input,
  });
}

/**
 * Launches PARA-GRPO (or vanilla GRPO) on ParaVT-nano (issue 9, SPEC §2-3): the dataset's RL
 * rows are the prompts; the starting model (a NANO_CHECKPOINT, default the committed default
 * checkpoint) is also the frozen KL reference. The chosen checkpoint directory is resolved now
 * and stored in the Run's config, so a later edit of the model row does not change a running job.
 * A launch without `maxNewTokens` gets what the suite's turns need (`measuredMaxNewTokens` of the
 * import's `turnTokens`; SPEC §3's 2048 for a suite imported before it was measured), stored too.
 */
export async function launchRl(access: ProjectAccess, input: z.input<typeof rlRunConfig>) {
  const parsed = rlRunConfig.safeParse(input);
  if (!parsed.success) throw new ValidationError(`Invalid RL settings: ${z.prettifyError(parsed.error)}`);
  const cfg = parsed.data;
  const dataset = await db().dataset.findFirst({ where: { id: cfg.datasetId, projectId: access.projectId } });
  if (!dataset) throw new NotFoundError("Dataset");
  const source = (dataset.source ?? {}) as { kind?: string; dir?: string };
  if (source.kind !== "needle-suite" || typeof source.dir !== "string") {
    throw new ValidationError(
      "Only a needle-suite dataset can train nano with RL (its RL rows are the prompts); wait for its import to finish",
    );
  }
  let initialCheckpoint: string | null = null;
  if (cfg.modelId) {
    const model = await db().model.findFirst({ where: { id: cfg.modelId, projectId: access.projectId } });
    if (!model) throw new NotFoundError("Model");
    const checkpoint = (model.config as { checkpoint?: unknown } | null)?.checkpoint;
    if (model.kind !== "NANO_CHECKPOINT" || typeof checkpoint !== "string") {
      throw new ValidationError(`RL trains nano: "${model.name}" is not a nano checkpoint`);
    }
    // The same confinement as models.create and the eval engine: a model row written before it
    // existed must not start RL from another project's checkpoint.
    initialCheckpoint = await confineCheckpoint(access.projectId, checkpoint);
  }
  const maxNewTokens = cfg.overrides.maxNewTokens ?? measuredMaxNewTokens(datasetTurnTokens(dataset.source));
  return launchRun(access, {
    jobName: "train.rl",
    kind: "rl",
    name: cfg.name,
    payload: {},
    config: { ...cfg, overrides: { ...cfg.overrides, maxNewTokens }, initialCheckpoint },
  });
}

// The Training tab's runs table has its own module; it belongs to this service's namespace.
export { listRunsTable } from "./runs-table";
