// `paravt nano serve`: a ParaVT-nano checkpoint behind an OpenAI-compatible
// /v1/chat/completions (image_url JPEG data URLs in, text out), so any OpenAI client — and the
// workbench's own OpenAI engine — can call nano models. Runs until SIGINT/SIGTERM.
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import type { NanoBackend } from "@paravt/agent";
import type { Tokenizer } from "@paravt/nano";
import type { CliIo } from "../command";

export const SERVE_HELP = `Usage: paravt nano serve --checkpoint DIR [options]

Serves a nano checkpoint as an OpenAI-compatible chat API: POST /v1/chat/completions, GET /v1/models,
GET /health. Requests may use max_tokens, temperature, top_p, seed, n (up to 16; choice i samples with
seed + i), stop (a string or a list; not included in the text, finish_reason "stop"), logprobs
(the sampled token's log-probability under the sampling temperature; top_logprobs 0 only), stream
with stream_options.include_usage (server-sent chunks, written once the generation is done), and
continue_final_message. Fields the server cannot honour (tools, tool_choice, response_format,
logit_bias, penalties, ...) are a 400 naming the field unless their value is the API's no-op default.

Options:
  --checkpoint DIR   checkpoint directory (e.g. packages/nano/checkpoints/default)
  --port N           TCP port (default 8000; 0 = any free port)
  --host H           address to listen on (default 127.0.0.1)
  --model NAME       served model name (default "paravt-nano")
  --backend B        onnxruntime (default) | core (the C++ compute core)

The first line on stdout is {"url": "http://HOST:PORT/v1", "model": NAME}. Exit codes: 0 stopped,
1 the checkpoint could not be loaded or the port is taken, 2 bad arguments.
`;

export async function serve(args: readonly string[], io: CliIo, signal?: AbortSignal): Promise<number> {
  let o;
  try {
    const { values: v } = parseArgs({
      args: [...args],
      strict: true,
      options: {
        checkpoint: { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        model: { type: "string" },
        backend: { type: "string" },
      },
    });
    if (!v.checkpoint) throw new Error("--checkpoint is required");
    const port = Number(v.port ?? 8000);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535 (got ${v.port})`);
    const backend = v.backend ?? "onnxruntime";
    if (backend !== "onnxruntime" && backend !== "core") {
      throw new Error(`--backend must be onnxruntime or core (got ${backend})`);
    }
    o = { checkpoint: v.checkpoint, port, host: v.host ?? "127.0.0.1", model: v.model ?? "paravt-nano", backend };
  } catch (e) {
    io.stderr.write(`paravt nano serve: ${(e as Error).message}\n\n${SERVE_HELP}`);
    return 2;
  }
  // Loaded only here: onnxruntime and the compute core are not needed by other commands.
  const { CoreNanoBackend, OrtNanoBackend, createNanoServer } = await import("@paravt/agent");
  let server;
  try {
    const backend: NanoBackend & { tokenizer: Tokenizer } =
      o.backend === "core" ? await CoreNanoBackend.load(o.checkpoint) : await OrtNanoBackend.load(o.checkpoint);
    server = createNanoServer({ backend, modelName: o.model, tokenizer: backend.tokenizer });
    await new Promise<void>((resolve, reject) => {
      server!.once("error", reject);
      server!.listen(o.port, o.host, resolve);
    });
    server.on("close", () => void backend.close?.());
  } catch (e) {
    io.stderr.write(`paravt nano serve: ${(e as Error).message}\n`);
    return 1;
  }
  const { port } = server.address() as AddressInfo;
  io.stdout.write(JSON.stringify({ url: `http://${o.host}:${port}/v1`, model: o.model }) + "\n");
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    signal?.addEventListener("abort", stop, { once: true });
  });
  return 0;
}
