// Runs one train.rl job's training (PARA-GRPO on nano, @paravt/rl) in its own process, so that a
// native crash of the compute core ends this child, not the worker that pulls jobs (DESIGN.md:
// "a crash of the compute core fails one job ... never kills the worker process").
// Protocol over IPC: parent -> {type: "start", options}; child -> {type: "step" | "validation",
// metrics, samples} and {type: "checkpoint", dir, step} (complete in the staging folder, after its
// step)*, then {type: "done", step} or {type: "error", message, permanent}.
import {
  RlConfigError,
  RlTrainError,
  trainRl,
  type RlConfigInput,
  type RlStepMetrics,
  type RlValidationMetrics,
  type Rollout,
  type RolloutPlace,
} from "@paravt/rl";
import { keptRolloutCount } from "@paravt/shared";
import { exitWithParent, useWorkerDevice } from "./training-child";

export interface RlChildOptions {
  suiteDir: string;
  /** The full trainer config (preset recipe + run settings + overrides), validated by the trainer. */
  config: RlConfigInput;
  initialCheckpoint: string;
  /** The delivery's staging folder (training-child.ts prepareStaging); the worker commits from it. */
  outDir: string;
  /** The run's one frozen reference (outside staging: committed checkpoints point at it). */
  referenceDir: string;
  resumeFrom?: string;
  /** The budget of rollouts per step sent back to be stored as episodes (`keptRolloutCount`). */
  keepRolloutsPerStep: number;
}

/** What the parent stores of one rollout: the trajectory and its reward terms (no token ids). */
export interface RolloutSample {
  promptId: string;
  k: number;
  seed: number;
  trajectory: Rollout["trajectory"];
  reward: Rollout["reward"];
  formatCompliant: boolean;
  /** Its GRPO group, index in the group and trained advantage (SPEC §3). */
  place: RolloutPlace;
}

export type RlChildMessage =
  | { type: "step"; metrics: RlStepMetrics; samples: RolloutSample[] }
  | { type: "validation"; metrics: RlValidationMetrics }
  | { type: "checkpoint"; dir: string; step: number }
  | { type: "done"; step: number }
  | { type: "error"; message: string; permanent: boolean };

function send(msg: RlChildMessage): Promise<void> {
  return new Promise((resolve) => process.send!(msg, () => resolve()));
}

const sample = (r: Rollout, place: RolloutPlace): RolloutSample => ({
  promptId: r.promptId,
  k: r.k,
  seed: r.seed,
  trajectory: r.trajectory,
  reward: r.reward,
  formatCompliant: r.formatCompliant,
  place,
});

async function run(o: RlChildOptions): Promise<void> {
  const result = await trainRl({
    suiteDir: o.suiteDir,
    config: o.config,
    initialCheckpoint: o.initialCheckpoint,
    outDir: o.outDir,
    referenceDir: o.referenceDir,
    ...(o.resumeFrom ? { resumeFrom: o.resumeFrom } : {}),
    onStep: (m, rollouts, places) => {
      const groupSizes = places.filter((p) => p.index === 0).map((p) => p.groupSize);
      const kept = keptRolloutCount(groupSizes, o.keepRolloutsPerStep);
      return send({
        type: "step",
        metrics: m,
        samples: rollouts.slice(0, kept).map((r, i) => sample(r, places[i]!)),
      });
    },
    onValidation: (m) => send({ type: "validation", metrics: m }),
    onCheckpoint: (dir, step) => send({ type: "checkpoint", dir, step }),
  });
  await send({ type: "done", step: result.step });
}

exitWithParent();
useWorkerDevice();
process.once("message", (msg: { type: "start"; options: RlChildOptions }) => {
  run(msg.options)
    .then(() => process.exit(0))
    .catch(async (err: unknown) => {
      await send({
        type: "error",
        message: err instanceof Error ? err.message : String(err),
        // A bad config, a mismatched checkpoint, no data or a diverged loss do not heal on retry.
        permanent: err instanceof RlConfigError || (err instanceof RlTrainError && err.code !== "CANCELLED"),
      });
      process.exit(1);
    });
});
