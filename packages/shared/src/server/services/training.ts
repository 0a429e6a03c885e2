import type { z } from "zod";
import type { sftRunConfig } from "../../contracts/training";
import { NotFoundError, ValidationError } from "../../errors";
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
