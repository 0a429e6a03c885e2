// The worker's handler map. `satisfies` the catalog: a job in the catalog without a handler here
// is a type error.
import type { JobName } from "@paravt/shared";
import type { JobHandler } from "../job-context";
import { handleDatasetImport } from "./handle-dataset-import";
import { handleEvalImport } from "./handle-eval-import";
import { handleEvalRun } from "./handle-eval-run";
import { handleEvalShard } from "./handle-eval-shard";
import { handleSuiteGenerate } from "./handle-suite-generate";
import { handleTrainRl } from "./handle-train-rl";
import { handleTrainSft } from "./handle-train-sft";
import { handleVideoAssets } from "./handle-video-assets";
import { handleVideoGenerate } from "./handle-video-generate";
import { handleVideoProbe } from "./handle-video-probe";

export const HANDLERS = {
  "video.probe": handleVideoProbe,
  "video.assets": handleVideoAssets,
  "video.generate": handleVideoGenerate,
  "suite.generate": handleSuiteGenerate,
  "dataset.import": handleDatasetImport,
  "train.sft": handleTrainSft,
  "train.rl": handleTrainRl,
  "eval.run": handleEvalRun,
  "eval.shard": handleEvalShard,
  "eval.import": handleEvalImport,
} satisfies { [N in JobName]: JobHandler<N> };
