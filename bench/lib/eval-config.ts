// The stored config of an eval run as `evals.launch` writes it (contracts/evals.ts `evalRunConfig`),
// for the database benchmarks that seed eval runs directly: default knobs, K 64, agentic_general,
// shards of 25. The run's sample ids go to `eval_run_samples` (`evals.writeRunSamples`), as a
// launch writes them. Importing it reads no environment (the client entry of @paravt/shared is pure).
import { evalKnobs, evalRunConfig } from "@paravt/shared";

export function benchEvalRunConfig(o: {
  group: { id: string; name: string };
  modelId: string;
  datasetId: string;
  sampleCount: number;
}) {
  return evalRunConfig.parse({
    ...o,
    mode: "agentic_general",
    k: 64,
    knobs: evalKnobs.parse({}),
    shardSize: 25,
  });
}
