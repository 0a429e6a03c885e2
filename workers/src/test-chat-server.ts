// A real OpenAI-compatible HTTP server for the evaluation tests: it stands in for a vLLM / SGLang
// deployment (an external system, not one of our services). Its replies are a function of the
// request (the question text and how many turns came before), so tests know exactly which
// answers, tool calls and errors to expect, and it counts what it was asked.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequestView {
  /** Text of every message (frames are replaced by "<image>"). */
  texts: string[];
  /** The first user message's text: where the question is. */
  question: string;
  /** Assistant turns already in the conversation (0 for the first main-agent turn). */
  assistantTurns: number;
  imageCount: number;
}

export interface TestChatServer {
  baseUrl: string;
  /** Requests received (including ones whose reply was never read). */
  requests: ChatRequestView[];
  close(): Promise<void>;
}

type Content = string | { type: string; text?: string }[];

function view(body: { messages: { role: string; content: Content }[] }): ChatRequestView {
  const texts = body.messages.map((m) =>
    typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "<image>")).join(""),
  );
  const firstUser = body.messages.findIndex((m) => m.role === "user");
  return {
    texts,
    question: texts[firstUser] ?? "",
    assistantTurns: body.messages.filter((m) => m.role === "assistant").length,
    imageCount: body.messages.reduce(
      (n, m) => n + (typeof m.content === "string" ? 0 : m.content.filter((p) => p.type === "image_url").length),
      0,
    ),
  };
}

export async function startTestChatServer(opts: {
  reply: (req: ChatRequestView) => string;
  /** Milliseconds before each reply (to keep a run busy long enough to kill or cancel it). */
  delayMs?: number;
}): Promise<TestChatServer> {
  const requests: ChatRequestView[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      const body = JSON.parse(raw) as { messages: { role: string; content: Content }[] };
      const v = view(body);
      requests.push(v);
      const text = opts.reply(v);
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: "chat.completion",
            choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
            usage: { prompt_tokens: 100 + v.imageCount, completion_tokens: text.length },
          }),
        );
      }, opts.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
