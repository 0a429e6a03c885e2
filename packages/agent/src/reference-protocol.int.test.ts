// The "reference" request style sends what the reference evaluator sends (EvolvingLMMs-Lab/ParaVT
// paravt/eval/driver.py `eval_one`, utils.py `get_frames` / `crop_frames`), compared on the wire:
// the JSON bodies a server receives from OpenAIEngine, images reduced to their mime and size.
// Expected values are written from reading driver.py and qwen-vl-utils' vision_process.py (cited
// per value); the video is the tiny suite's: 64 s, 192x108, 4 fps (256 frames).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenAIEngine } from "./engines/openai-engine";
import { startStandin, type Standin } from "./engines/server-standin";
import { videoFrameSampler } from "./frame-sampler";
import { KnobsError } from "./knobs";
import { pyFixed1, REFERENCE_SYSTEM, REFERENCE_TOOL_SCHEMA } from "./reference-protocol";
import { runEpisode, type EpisodeInput } from "./runner";
import { scoreEpisode } from "./scoring";
import { writeTinySuite } from "./test-support";

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

/** `{type, image_url: {url}}` with the data URL replaced by "image/jpeg WxH" (from the JPEG's SOF header). */
function reduceImages(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (k, v: unknown) => {
    if (k !== "url" || typeof v !== "string" || !v.startsWith("data:")) return v;
    const m = /^data:(image\/\w+);base64,(.*)$/.exec(v)!;
    const jpeg = Buffer.from(m[2]!, "base64");
    for (let i = 2; i < jpeg.length - 9;) {
      const marker = jpeg.readUInt16BE(i);
      if (marker === 0xffc0 || marker === 0xffc2) {
        return `${m[1]} ${jpeg.readUInt16BE(i + 7)}x${jpeg.readUInt16BE(i + 5)}`;
      }
      i += 2 + jpeg.readUInt16BE(i + 2);
    }
    throw new Error("no SOF marker");
  });
}

const image = (size: string) => ({ type: "image_url", image_url: { url: `image/jpeg ${size}` } });
const images = (n: number, size: string) => Array.from({ length: n }, () => image(size));

// qwen-vl-utils vision_process.py `fetch_video`: the overview's 64 frames of 192x108 get at least
// VIDEO_MIN_TOKEN_NUM (128) x 28² = 100,352 pixels: smart_resize(108, 192, 28, 100352, 602112)
// scales by sqrt(100352 / 20736) and ceils to multiples of 28 -> 448x252. Crops pass min_pixels
// 784 / max_pixels 50,176: 108x192 rounds to 112x196 (21,952 pixels, inside) -> 196x112.
const OVERVIEW = "448x252";
const CROP = "196x112";

const QUESTION =
  "Question: What color was the shape?\nOptions:\nA. red\nB. blue\nC. green\nD. white\n" +
  "Answer with the option letter only. The video path for this video is: v0001.mp4";

describe("reference texts", () => {
  it("are the strings Python builds from driver.py (SHA-256 of each)", () => {
    // python3: exec the constants of paravt/eval/driver.py, `.format(tool_schema=TOOL_SCHEMA)`.
    expect(sha256(REFERENCE_TOOL_SCHEMA)).toBe("6028c92a7c8986aefba3ea81c3e34a996d6a1d37f047704ec9fd9d081408dd2c");
    expect(sha256(REFERENCE_SYSTEM.direct)).toBe("5ebc29666ce3c1db4fef150af4f1de57412363f8d8cfb87f9ce6d3bf934586d2");
    expect(sha256(REFERENCE_SYSTEM.reasoning)).toBe("b17c98b728e2fc63884f0ebe09f4e465a41f4b5333adca3838c412cce459fe1e");
    expect(sha256(REFERENCE_SYSTEM.agentic_general)).toBe(
      "d51e7e18d1aa2bb0e10add346557fa72a0d572d490425ee419a6da02f2637603",
    );
    expect(sha256(REFERENCE_SYSTEM.agentic_minimal)).toBe(
      "a6933f68e4de6a8da13321a285a267ff73013fd8baea7e1e7a51fbf527093fe4",
    );
  });

  it("print seconds like Python's f'{x:.1f}' (ties to even)", () => {
    const cases: [number, string][] = [
      [10, "10.0"],
      [0.25, "0.2"],
      [0.75, "0.8"],
      [1.25, "1.2"],
      [-0.25, "-0.2"],
      [2.675, "2.7"],
      [14.04, "14.0"],
      [0.05, "0.1"], // 0.05 is 0.05000000000000000277 in binary: not a tie
      [59.95, "60.0"],
    ];
    for (const [x, py] of cases) expect(pyFixed1(x), String(x)).toBe(py);
  });

  it("refuses settings the reference cannot have", () => {
    const input = { video: { file: "/nonexistent.mp4" }, question: "q" };
    const frames = videoFrameSampler();
    const engine = new OpenAIEngine({ baseUrl: "http://127.0.0.1:9/v1", model: "m" });
    const run = (config: object) => runEpisode({ engine, frames, input, config });
    return Promise.all([
      expect(run({ requestStyle: "reference" })).rejects.toThrow(/use the evaluator's dispatch/),
      expect(run({ requestStyle: "reference", dispatch: "evaluator", thinkPrefix: true })).rejects.toThrow(KnobsError),
      expect(run({ requestStyle: "reference", dispatch: "evaluator", prompts: { system: "x" } })).rejects.toThrow(
        /no overrides/,
      ),
    ]);
  });
});

describe("reference request style on the wire", () => {
  let suite: Awaited<ReturnType<typeof writeTinySuite>>;
  let input: EpisodeInput;
  let server: Standin | null = null;
  beforeAll(async () => {
    suite = await writeTinySuite();
    input = { video: { file: `${suite.dir}/videos/v0001.mp4`, path: "videos/v0001.mp4" }, question: QUESTION };
  });
  afterAll(async () => {
    await server?.close();
    await suite?.cleanup();
  });

  const call = (name: string, s: number, e: number) =>
    `<tool_call>\n{"name": "${name}", "arguments": {"video_path": "v0001.mp4", "start_time": ${s}, "end_time": ${e}}}\n</tool_call>`;
  const TURN1 = `<think>Two windows.</think>\n${call("crop_video", 10, 14)}\n${call("crop_video", 30, 34)}`;
  const TURN2 = `<think>Again.</think>\n${call("crop_video", 70, 80)}\n${call("zoom", 1, 3)}`;

  async function episode(
    questionType: "mcq" | "tvg",
    mode: "agentic_general" | "agentic_minimal" | "direct",
    outputs: string[],
    videoChannel: "image_url" | "video_url" = "image_url",
  ) {
    await server?.close();
    server = await startStandin({ flavor: "vllm", generate: (_b, n) => ({ text: outputs[n]! }) });
    const engine = new OpenAIEngine({ baseUrl: server.baseUrl, model: "ParaVT/ParaVT-8B", retries: 0 });
    const t = await runEpisode({
      engine,
      frames: videoFrameSampler(),
      input: { ...input, questionType },
      config: { requestStyle: "reference", dispatch: "evaluator", mode, k: 64, maxTurns: 2, videoChannel },
    });
    return { t, bodies: server.requests.map(reduceImages) as { messages: unknown[] }[] };
  }

  it("agentic_general MCQ: system, bare overview frames + question, crops as frames + counts, errors, a separate final turn", async () => {
    const { t, bodies } = await episode("mcq", "agentic_general", [TURN1, TURN2, "B"]);
    expect(t.status).toBe("ok");
    expect(bodies).toHaveLength(3);
    const system = { role: "system", content: REFERENCE_SYSTEM.agentic_general };
    const first = { role: "user", content: [...images(64, OVERVIEW), { type: "text", text: QUESTION }] };
    // driver.py `_completion_with_retry`: model, messages, max_tokens, temperature=0 — nothing else.
    expect(bodies[0]).toEqual({
      model: "ParaVT/ParaVT-8B",
      messages: [system, first],
      max_tokens: 2048,
      temperature: 0,
    });
    // utils.py crop_frames (fps 1, min_frames 1, max_frames 16): frames 40..56 of a 4 fps video
    // (17 frames = 4.25 s) -> smart_nframes floors 4.25 to an even 4.
    const crop = (n: number, s: string, e: string) => ({
      role: "user",
      content: [
        ...images(n, CROP),
        { type: "text", text: `<tool_response>\n${n} frames from ${s}s to ${e}s.\n</tool_response>` },
      ],
    });
    const round1 = [{ role: "assistant", content: TURN1 }, crop(4, "10.0", "14.0"), crop(4, "30.0", "34.0")];
    expect(bodies[1]).toEqual({
      model: "ParaVT/ParaVT-8B",
      messages: [system, first, ...round1],
      max_tokens: 2048,
      temperature: 0,
    });
    // Round 2: a window past the end gives the error text; a call of another name is cropped all
    // the same (driver.py reads only the arguments): frames 4..12 -> 9/4 = 2.25 -> 2 frames.
    const round2 = [
      { role: "assistant", content: TURN2 },
      { role: "user", content: "<tool_response>\n[Error cropping 70.0s-80.0s]\n</tool_response>" },
      crop(2, "1.0", "3.0"),
    ];
    const final = {
      role: "user",
      content: "Based on the video and cropped segments above, answer with ONLY the letter.",
    };
    expect(bodies[2]).toEqual({
      model: "ParaVT/ParaVT-8B",
      messages: [system, first, ...round1, ...round2, final],
      max_tokens: 64,
      temperature: 0,
    });
    // fetch_video's overview goes from the first frame to the LAST (torch.linspace(0, 255, 64)).
    expect(t.overviewTimestamps[0]).toBe(0);
    expect(t.overviewTimestamps.at(-1)).toBe(255 / 4);
    expect(t.overviewTimestamps).toHaveLength(64);
    expect(t.turns.map((x) => x.forcedFinal)).toEqual([false, false, true]);
    expect(t.toolCallCount).toBe(4);
    expect(scoreEpisode(t, { questionType: "mcq", answer: "B" })).toMatchObject({ correct: true });
  }, 60_000);

  it("grounding: the reference's grounding final turn with 128 tokens; direct: one request, no dispatch", async () => {
    const g = await episode("tvg", "agentic_general", [TURN1, TURN1, "The event happens in 10.0 - 14.0 seconds."]);
    expect(g.bodies[2]!.messages.at(-1)).toEqual({
      role: "user",
      content:
        "Based on the video and any cropped segments, provide your final answer about when the event happens. " +
        "Use the format: 'The event happens in the X.X - Y.Y seconds.'",
    });
    expect((g.bodies[2] as unknown as { max_tokens: number }).max_tokens).toBe(128);

    const d = await episode("mcq", "direct", [TURN1]);
    expect(d.bodies).toEqual([
      {
        model: "ParaVT/ParaVT-8B",
        messages: [
          { role: "system", content: REFERENCE_SYSTEM.direct },
          { role: "user", content: [...images(64, OVERVIEW), { type: "text", text: QUESTION }] },
        ],
        max_tokens: 2048,
        temperature: 0,
      },
    ]);
    expect(d.t.toolCallCount).toBe(0);
  }, 60_000);

  it("video_url channel (the reference's Charades-STA setting): the file itself, then crops as frames", async () => {
    const { t, bodies } = await episode(
      "tvg",
      "agentic_minimal",
      [TURN1, "The event happens in 10.0 - 14.0 seconds."],
      "video_url",
    );
    expect(t.status).toBe("ok");
    // driver.py `_video_user_content`: `{"type": "video_url", "video_url": {"url": f"file://{abspath}"}}`, then the text.
    expect(bodies[0]).toEqual({
      model: "ParaVT/ParaVT-8B",
      messages: [
        { role: "system", content: REFERENCE_SYSTEM.agentic_minimal },
        {
          role: "user",
          content: [
            { type: "video_url", video_url: { url: `file://${input.video.file}` } },
            { type: "text", text: QUESTION },
          ],
        },
      ],
      max_tokens: 2048,
      temperature: 0,
    });
    expect(t.overviewTimestamps).toEqual([]);
    expect(t.duration).toBe(64);
    const crops = (bodies[1]!.messages as { role: string; content: unknown }[]).slice(3);
    expect(crops.map((m) => reduceImageCount(m.content))).toEqual([4, 4]);
  }, 60_000);

  it("refuses the video_url channel outside the reference request", async () => {
    const engine = new OpenAIEngine({ baseUrl: "http://127.0.0.1:9/v1", model: "m" });
    await expect(
      runEpisode({ engine, frames: videoFrameSampler(), input, config: { videoChannel: "video_url" } }),
    ).rejects.toThrow(/video_url channel is the reference request's/);
  });
});

/** How many images a reduced user content holds. */
function reduceImageCount(content: unknown): number {
  return Array.isArray(content) ? content.filter((p: { type?: string }) => p.type === "image_url").length : 0;
}
