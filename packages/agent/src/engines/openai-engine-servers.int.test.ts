// OpenAIEngine against servers that answer like vLLM (0.10, 0.11.1, current) and SGLang, with and
// without reasoning / tool parsers (server-standin.ts: each behaviour cited from the real source).
// The engine's turn text must be what the model generated, whatever the server split off; what it
// cannot understand is an EngineError, so the episode is an ERROR, never a wrong answer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { videoFrameSampler } from "../frame-sampler";
import { runEpisode, type EpisodeInput } from "../runner";
import { parseTurnCalls } from "../tool-calls";
import { timeless, writeTinySuite } from "../test-support";
import type { CompletionRequest } from "../types";
import { OpenAIEngine } from "./openai-engine";
import { startStandin, type ServerFlavor, type Standin, type StandinOptions } from "./server-standin";

/** A call as a Qwen-style model writes it (Python json.dumps spacing, SPEC §1.3). */
const crop = (s: number, e: number) =>
  `<tool_call>\n{"name": "crop_video", "arguments": {"video_path": "v0001.mp4", "start_time": ${s}, "end_time": ${e}}}\n</tool_call>`;

const THINK_ANSWER = "<think>\nThe red square shows at 00:12.\n</think>\n\n<answer>B</answer>";
const THINK_TOOLS = `<think>\nI should look at two windows.\n</think>\n\n${crop(10, 14)}\n${crop(30, 34)}`;
const CUT_THINKING = "<think>\nLet me go through the frames one by one: the first shows";
const INSTRUCT_ANSWER = "<answer>C</answer>";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "crop_video",
      parameters: { type: "object", properties: { start_time: { type: "number" }, end_time: { type: "number" } } },
    },
  },
];

let servers: Standin[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(o: StandinOptions): Promise<Standin> {
  const s = await startStandin(o);
  servers.push(s);
  return s;
}

function engine(s: Standin, extra: Partial<ConstructorParameters<typeof OpenAIEngine>[0]> = {}) {
  return new OpenAIEngine({ baseUrl: s.baseUrl, model: "Qwen/Qwen3-VL-8B-Thinking", retries: 0, ...extra });
}

const ask = (forcedPrefix?: string): CompletionRequest => ({
  messages: [{ role: "user", content: "question" }],
  maxTokens: 64,
  temperature: 0,
  ...(forcedPrefix !== undefined ? { forcedPrefix } : {}),
});

const VLLM: ServerFlavor[] = ["vllm-0.10", "vllm-0.11.1", "vllm"];

describe("OpenAIEngine reads what a vLLM server's parsers split off back into the turn text", () => {
  for (const flavor of VLLM) {
    it(`${flavor}: think + answer, tool calls, a turn cut while thinking, a forced <think> prefix — the raw text every time`, async () => {
      const outputs: { text: string; finish?: "stop" | "length"; prefix?: string }[] = [
        { text: THINK_ANSWER },
        { text: THINK_TOOLS },
        { text: CUT_THINKING, finish: "length" },
        // SPEC §1.7: the prompt ends in "<think>\n", so the model's output starts inside the block.
        { text: "The red square shows at 00:12.\n</think>\n\n<answer>B</answer>", prefix: "<think>\n" },
        { text: "frame 3 looks", finish: "length", prefix: "<think>\n" },
      ];
      for (const parsers of [false, true]) {
        const s = await serve({
          flavor,
          reasoningParser: parsers,
          toolParser: parsers,
          generate: (_b, n) => outputs[n]!,
        });
        const e = engine(s, { extraBody: { tools: TOOLS } });
        for (const o of outputs) {
          const [c] = await e.complete([ask(o.prefix)]);
          expect(c!.text).toBe(o.text);
          expect(c!.finish).toBe(o.finish ?? "stop");
        }
        if (parsers) {
          // The server really did split them (else this test proves nothing).
          expect(s.requests).toHaveLength(outputs.length);
        }
      }
    });
  }

  it("the parsed response fields are what the engine rebuilt from (checked on the raw bodies)", async () => {
    const s = await serve({
      flavor: "vllm",
      reasoningParser: true,
      toolParser: true,
      generate: () => ({ text: THINK_TOOLS }),
    });
    const res = await fetch(`${s.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "q" }], tools: TOOLS }),
    });
    const body = (await res.json()) as {
      choices: { message: Record<string, unknown>; finish_reason: string }[];
    };
    const m = body.choices[0]!.message;
    expect(m.reasoning).toBe("\nI should look at two windows.\n");
    expect(m.content).toBe("\n\n");
    expect(m.tool_calls).toHaveLength(2);
    expect(body.choices[0]!.finish_reason).toBe("tool_calls");
    const c = await engine(s, { extraBody: { tools: TOOLS } }).complete([ask()]);
    expect(parseTurnCalls(c[0]!.text, "eval").calls).toHaveLength(2);
    expect(c[0]!.notes).toEqual([
      "reasoning from `reasoning` rebuilt into <think>…</think>",
      "2 tool call(s) from `message.tool_calls` written back as <tool_call> blocks",
    ]);
  });

  it("an instruct model behind a reasoning parser: the whole answer arrives as reasoning and is kept as the text", async () => {
    const s = await serve({ flavor: "vllm", reasoningParser: true, generate: () => ({ text: INSTRUCT_ANSWER }) });
    const [c] = await engine(s).complete([ask()]);
    expect(c!.text).toBe(INSTRUCT_ANSWER);
    expect(c!.notes?.[0]).toMatch(/whole output came as `reasoning`/);
  });
});

describe("OpenAIEngine against SGLang (reasoning_content, stripped whitespace)", () => {
  it("keeps the thinking, the answer and the calls; only whitespace around the tags differs", async () => {
    const outputs = [{ text: THINK_ANSWER }, { text: THINK_TOOLS }, { text: CUT_THINKING, finish: "length" as const }];
    const s = await serve({
      flavor: "sglang",
      reasoningParser: true,
      toolParser: true,
      generate: (_b, n) => outputs[n]!,
    });
    const e = engine(s, { extraBody: { tools: TOOLS } });
    const texts = [];
    for (const _ of outputs) texts.push((await e.complete([ask()]))[0]!.text);
    expect(texts[0]).toBe("<think>The red square shows at 00:12.\n</think><answer>B</answer>");
    expect(parseTurnCalls(texts[1]!, "eval").calls).toEqual(parseTurnCalls(THINK_TOOLS, "eval").calls);
    expect(texts[1]).toMatch(/^<think>I should look at two windows\.\n<\/think>\n<tool_call>/);
    expect(texts[2]).toBe("<think>Let me go through the frames one by one: the first shows");
  });
});

describe("responses the engine does not understand are errors with a reason, never a text", () => {
  const cases: [string, unknown, RegExp][] = [
    [
      "two choices for one request",
      { choices: [0, 1].map((i) => ({ index: i, message: { content: "A" }, finish_reason: "stop" })) },
      /expected 1 choice .* returned 2/,
    ],
    ["no choices", { choices: [] }, /expected 1 choice .* returned 0/],
    ["content as a list of parts", { choices: [{ message: { content: [{ type: "text", text: "A" }] } }] }, /content/],
    [
      "an unknown finish reason",
      { choices: [{ message: { content: "A" }, finish_reason: "content_filter" }] },
      /unknown finish_reason "content_filter"/,
    ],
    ["an aborted generation", { choices: [{ message: { content: "A" }, finish_reason: "abort" }] }, /"abort"/],
    [
      "tool-call arguments that are not JSON",
      {
        choices: [
          {
            message: {
              content: null,
              tool_calls: [{ type: "function", function: { name: "crop_video", arguments: "{start" } }],
            },
            finish_reason: "tool_calls",
          },
        ],
      },
      /tool_calls\[0\] \(crop_video\): arguments are not JSON/,
    ],
    [
      "two different reasoning texts",
      { choices: [{ message: { content: "A", reasoning: "x", reasoning_content: "y" }, finish_reason: "stop" }] },
      /different `reasoning` and `reasoning_content`/,
    ],
    [
      "a refusal",
      { choices: [{ message: { content: null, refusal: "I can't help" }, finish_reason: "stop" }] },
      /refused: I can't help/,
    ],
  ];
  for (const [name, body, why] of cases) {
    it(name, async () => {
      const s = await serve({ flavor: "vllm", generate: () => ({ text: "" }), override: () => body });
      const err = await engine(s)
        .complete([ask()])
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toMatchObject({ name: "EngineError", kind: "bad_response" });
      expect((err as Error).message).toMatch(why);
    });
  }
});

describe("runEpisode over vLLM with parsers = runEpisode over vLLM without", () => {
  let suite: Awaited<ReturnType<typeof writeTinySuite>>;
  let input: EpisodeInput;
  beforeAll(async () => {
    suite = await writeTinySuite();
    input = {
      video: { file: `${suite.dir}/videos/v0001.mp4`, path: "videos/v0001.mp4" },
      question: "What color was the shape?\nA. red\nB. blue\nC. green\nD. white",
      questionType: "mcq",
    };
  });
  afterAll(async () => suite?.cleanup());

  /** A sub-agent request states its window (SPEC §1.4: "These 4 frames come from 00:10 to 00:14 …"). */
  const isSubAgent = (body: Record<string, unknown>) =>
    (body.messages as { content: string | { type: string; text?: string }[] }[]).some((m) =>
      (typeof m.content === "string" ? [m.content] : m.content.map((p) => p.text ?? "")).some((t) =>
        /frames? comes? from/.test(t),
      ),
    );

  // Main agent: think + two calls, think + one call, then (after max_turns = 2) a forced final
  // answer that a thinking model gives inside its thinking, cut at 64 tokens. Sub-agents summarize.
  const model = (body: Record<string, unknown>, n: number): { text: string; finish?: "stop" | "length" } => {
    const messages = body.messages as { role: string; content: unknown }[];
    if (isSubAgent(body)) return { text: `summary ${n}` };
    const assistantTurns = messages.filter((m) => m.role === "assistant").length;
    // With the forced prefix the last message is the assistant "<think>\n" being continued.
    const done = assistantTurns - 1;
    if (done === 0) return { text: `I should look at two windows.\n</think>\n\n${crop(10, 14)}\n${crop(30, 34)}` };
    if (done === 1) return { text: `One more.\n</think>\n\n${crop(40, 44)}` };
    return { text: "The shape was blue, so the answer is B", finish: "length" };
  };

  it("same turns, calls, history and prediction; the answer inside the thinking is found", async () => {
    const run = async (parsers: boolean) => {
      const s = await serve({ flavor: "vllm", reasoningParser: parsers, toolParser: parsers, generate: model });
      const e = engine(s, { extraBody: { tools: TOOLS } });
      const t = await runEpisode({
        engine: e,
        input,
        frames: videoFrameSampler({ maxErrorS: 0 }),
        config: { k: 4, maxTurns: 2, thinkPrefix: true },
      });
      return { t, s };
    };
    const plain = await run(false);
    const parsed = await run(true);
    expect(plain.t.status).toBe("ok");
    expect(plain.t.turns.map((t) => t.toolCalls.length)).toEqual([2, 1, 0]);
    expect(plain.t.prediction).toBe("B");
    const strip = (t: typeof plain.t) => {
      const o = timeless(t) as { turns: { engineNotes?: unknown }[]; engine?: string; subAgentEngine?: string };
      for (const turn of o.turns) delete turn.engineNotes;
      delete o.engine; // the server's port
      delete o.subAgentEngine;
      return o;
    };
    expect(strip(parsed.t)).toEqual(strip(plain.t));
    expect(parsed.t.turns[0]!.engineNotes).toHaveLength(2);
    expect(parsed.t.turns[2]!.engineNotes?.[0]).toMatch(/cut by max_tokens/);
    // The history replayed to the server is the same bytes: the think block closed, the calls in it.
    const mainRequests = (s: Standin) => s.requests.filter((b) => !isSubAgent(b));
    expect(mainRequests(parsed.s).map((b) => b.messages)).toEqual(mainRequests(plain.s).map((b) => b.messages));
    const replayed = (mainRequests(parsed.s)[1]!.messages as { role: string; content: string }[]).find(
      (m) => m.role === "assistant",
    )!;
    expect(replayed.content).toBe(
      `<think>\nI should look at two windows.\n</think>\n\n${crop(10, 14)}\n${crop(30, 34)}`,
    );
  }, 60_000);
});
