// The nano engines both agent benchmarks compare (run.ts, engine-overhead.ts).
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import {
  CoreNanoBackend,
  createNanoServer,
  NanoEngine,
  nanoTokenCounter,
  OpenAIEngine,
  OrtNanoBackend,
} from "@paravt/agent";

/** The committed default nano checkpoint. */
export const CHECKPOINT = fileURLToPath(new URL("../../packages/nano/checkpoints/default", import.meta.url));

/**
 * The nano engine in-process and behind the OpenAI-compatible server, on one backend:
 * onnxruntime (what the eval workers and `paravt nano serve` run) or the C++ core (baseline).
 */
export async function nanoEngines(kind: "ort" | "core") {
  const backend = kind === "ort" ? await OrtNanoBackend.load(CHECKPOINT) : await CoreNanoBackend.load(CHECKPOINT);
  const label = kind === "ort" ? "onnxruntime" : "C++ core";
  const direct = new NanoEngine({
    backend,
    tokenizer: backend.tokenizer,
    thumbnail: backend.config.thumbnail,
    contextLength: backend.config.contextLength,
    description: `nano in-process (${label})`,
  });
  const server = createNanoServer({ backend, modelName: "nano" });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const http = new OpenAIEngine({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    model: "nano",
    promptPreset: "nano",
    tokenCounter: nanoTokenCounter(backend.tokenizer),
  });
  return {
    label,
    direct,
    http,
    // The onnxruntime backend owns a worker thread: closing it lets the process exit.
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await direct.close();
    },
  };
}
