// Runs one SFT job's training in its own process, so that a native crash of the compute core
// (a segfault in kernels/) ends this child, not the worker that pulls jobs (DESIGN.md: "a crash
// of the compute core fails one job ... never kills the worker process").
// Protocol over IPC: parent -> {type: "start", options}; child -> {type: "step", metrics} and
// {type: "checkpoint", dir, step} (a complete checkpoint in the staging folder, after its step)*,
// then {type: "done", lastLoss} or {type: "error", message, permanent}.
import os from "node:os";
import path from "node:path";
import {
  defaultTokenizer,
  modelConfig,
  trainSft,
  TrainError,
  type LineageStageInput,
  type StepMetrics,
} from "@paravt/nano";
import { OVERVIEW_KS, oracleStyleFlag, readSuite } from "@paravt/suite";
import { exitWithParent, useWorkerDevice } from "./training-child";

export interface SftChildOptions {
  suiteDir: string;
  model: Parameters<typeof modelConfig>[1];
  steps: number;
  batchSize: number;
  lr: number;
  seed: number;
  checkpointEvery: number;
  /** The delivery's staging folder (training-child.ts prepareStaging); the worker commits from it. */
  outDir: string;
  resumeFrom?: string;
}

export type SftChildMessage =
  | { type: "step"; metrics: StepMetrics }
  | { type: "checkpoint"; dir: string; step: number }
  | { type: "done"; lastLoss: number | null }
  | { type: "error"; message: string; permanent: boolean };

function send(msg: SftChildMessage): Promise<void> {
  return new Promise((resolve) => process.send!(msg, () => resolve()));
}

/** The run as the checkpoint's lineage records it (config.json `lineage`): one stage from scratch. */
async function lineageStage(o: SftChildOptions): Promise<LineageStageInput> {
  const { manifest } = await readSuite(o.suiteDir);
  return {
    name: path.basename(path.dirname(o.outDir)),
    trainer: "workbench train.sft job",
    arguments: JSON.stringify({ model: o.model, steps: o.steps, batchSize: o.batchSize, lr: o.lr, seed: o.seed }),
    data: {
      description: `the SFT examples of the suite ${o.suiteDir}`,
      suite: {
        name: path.basename(o.suiteDir),
        seed: manifest.seed,
        count: manifest.count,
        options: `--oracle-style ${oracleStyleFlag(manifest.config.oracleStyle)}`,
      },
    },
    batch: o.batchSize,
    seed: o.seed,
    hardware: `${os.cpus().length}-core CPU (the compute core)`,
    ks: [...OVERVIEW_KS],
  };
}

async function run(o: SftChildOptions): Promise<void> {
  const tokenizer = defaultTokenizer();
  const result = await trainSft({
    lineage: { parent: null, stage: await lineageStage(o) },
    suiteDir: o.suiteDir,
    tokenizer,
    modelConfig: modelConfig(tokenizer, o.model),
    steps: o.steps,
    batchSize: o.batchSize,
    lr: { kind: "cosine", lr: o.lr, warmupSteps: Math.ceil(o.steps * 0.05) },
    seed: o.seed,
    checkpointEvery: o.checkpointEvery,
    outDir: o.outDir,
    ...(o.resumeFrom ? { resumeFrom: o.resumeFrom } : {}),
    onStep: (m) => send({ type: "step", metrics: m }),
    onCheckpoint: (dir, step) => send({ type: "checkpoint", dir, step }),
  });
  await send({ type: "done", lastLoss: result.metrics.at(-1)?.loss ?? null });
}

exitWithParent();
useWorkerDevice();
process.once("message", (msg: { type: "start"; options: SftChildOptions }) => {
  run(msg.options)
    .then(() => process.exit(0))
    .catch(async (err: unknown) => {
      await send({
        type: "error",
        message: err instanceof Error ? err.message : String(err),
        // Diverged training or a mismatched checkpoint does not heal on retry.
        permanent: err instanceof TrainError,
      });
      process.exit(1);
    });
});
