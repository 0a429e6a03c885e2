// A small OpenAI-compatible chat server for the viewer spec: it stands in for a vLLM deployment
// (an external system) and scripts a main agent that makes real parallel crop_video calls, so the
// episode has crop windows (the default nano checkpoint rarely makes valid ones). It reads the
// video's duration from the overview timestamps of the prompt (`<12.0 seconds>`, SPEC §1.1) and
// asks for windows at fixed fractions of it; the spec computes the same windows to check them.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** Per tool turn, the windows as fractions of the duration: 3 turns x 5 parallel calls (SPEC §1.6 limits). */
export const WINDOW_FRACTIONS: [number, number][][] = [
  [
    [0.02, 0.1],
    [0.15, 0.22],
    [0.3, 0.4],
    [0.5, 0.56],
    [0.7, 0.8],
  ],
  [
    [0.05, 0.12],
    [0.08, 0.18], // overlaps the previous one: the lane stacks them
    [0.42, 0.48],
    [0.6, 0.66],
    [0.85, 0.95],
  ],
  [
    [0.12, 0.16],
    [0.25, 0.3],
    [0.45, 0.5],
    [0.62, 0.7],
    [0.9, 0.97],
  ],
];

/** Overview timestamps t_i = i * d / K (SPEC §1.1) give d = last * K / (K - 1). */
export function durationFromTimestamps(ts: number[]): number {
  const k = ts.length;
  return (ts[k - 1]! * k) / (k - 1);
}

/** The windows (seconds, one decimal, as the model writes them) for a video of duration d. */
export function scriptedWindows(d: number): [number, number][][] {
  const r = (x: number) => Math.round(x * 10) / 10;
  return WINDOW_FRACTIONS.map((turn) => turn.map(([a, b]) => [r(a * d), r(b * d)]));
}

type Content = string | { type: string; text?: string }[];

export async function startScriptedChatServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    // Registering an endpoint probes GET /v1/models (models.probe); vLLM answers with its model
    // cards (vllm/entrypoints/openai/models/protocol.py `ModelList`).
    if (req.method === "GET" && req.url === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          object: "list",
          data: [{ id: "scripted", object: "model", created: 0, owned_by: "vllm", max_model_len: 65536 }],
        }),
      );
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "Not Found", type: "NotFoundError", param: null, code: 404 } }));
      return;
    }
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      let body: { messages: { role: string; content: Content }[] };
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: { message: "the body is not JSON", type: "BadRequestError", param: null, code: 400 },
          }),
        );
        return;
      }
      const texts = body.messages.map((m) =>
        typeof m.content === "string"
          ? m.content
          : m.content.map((p) => (p.type === "text" ? (p.text ?? "") : "")).join(""),
      );
      const turn = body.messages.filter((m) => m.role === "assistant").length;
      // Only the first user message: the overview (later messages carry crop frames' stamps).
      const first = texts[body.messages.findIndex((m) => m.role === "user")] ?? "";
      const stamps = [...first.matchAll(/<(\d+(?:\.\d+)?) seconds>/g)].map((m) => Number(m[1]));
      const windows = stamps.length >= 2 ? scriptedWindows(durationFromTimestamps(stamps)) : [];
      const calls = windows[turn];
      const text = calls
        ? `<think>Turn ${turn + 1}: look at ${calls.length} windows in parallel.</think>\n` +
          calls
            .map(
              ([s, e]) =>
                `<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "video.mp4", "start_time": ${s}, "end_time": ${e}}}\n</tool_call>`,
            )
            .join("\n")
        : "<think>Enough seen.</think><answer>A</answer>";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${Date.now()}`,
          object: "chat.completion",
          choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
          usage: { prompt_tokens: 100, completion_tokens: text.length },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
