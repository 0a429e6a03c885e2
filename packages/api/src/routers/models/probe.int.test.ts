// models.probe against servers that answer like vLLM (we cannot run one here): GET /v1/models with
// `max_model_len` (vllm/entrypoints/openai/models/protocol.py `ModelCard`), chat completions that
// refuse more images than `--limit-mm-per-prompt` with vLLM's 400 ("At most 1 image(s) may be
// provided in one prompt.", vllm/entrypoints/chat_utils.py; error body {error: {message, type,
// param, code}}, vllm/entrypoints/openai/engine/protocol.py `ErrorResponse`), and `reasoning` when
// a reasoning parser is on (chat_completion/protocol.py `ChatMessage`).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { db, probeEndpoint } from "@paravt/shared/server";
import { afterEach, describe, expect, it } from "vitest";
import { projectWithRoleCallers } from "../../test-helpers";

interface FakeVllm {
  baseUrl: string;
  hits: string[];
  close(): Promise<void>;
}

let open: FakeVllm[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

async function listen(server: Server, hits: string[]): Promise<FakeVllm> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  const s = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  open.push(s);
  return s;
}

function vllm(o: { model: string; maxModelLen: number; imageLimit: number; reasoning: boolean }) {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/v1/models") {
      return json(200, {
        object: "list",
        data: [
          {
            id: o.model,
            object: "model",
            created: 1_760_000_000,
            owned_by: "vllm",
            root: `/models/${o.model}`,
            parent: null,
            max_model_len: o.maxModelLen,
            permission: [],
          },
        ],
      });
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        messages: { content: { type: string }[] }[];
      };
      const images = body.messages.flatMap((m) => m.content).filter((p) => p.type === "image_url").length;
      if (images > o.imageLimit) {
        return json(400, {
          error: {
            message: `At most ${o.imageLimit} image(s) may be provided in one prompt.`,
            type: "BadRequestError",
            param: null,
            code: 400,
          },
        });
      }
      json(200, {
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1_760_000_000,
        model: o.model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: String(images),
              reasoning: o.reasoning ? "Counting the pictures." : null,
              tool_calls: [],
            },
            logprobs: null,
            finish_reason: "stop",
            stop_reason: null,
          },
        ],
        usage: { prompt_tokens: 80, total_tokens: 81, completion_tokens: 1 },
      });
    });
  });
  return listen(server, hits);
}

describe("models.probe", () => {
  it("finds the served model, its context, image support and a reasoning parser, and stores it on the model", async () => {
    const fx = await projectWithRoleCallers();
    const good = await vllm({ model: "ParaVT/ParaVT-8B", maxModelLen: 65_536, imageLimit: 1024, reasoning: false });
    const m = await fx.asEditor.models.create({
      projectId: fx.project.id,
      name: "paravt-8b",
      config: { kind: "OPENAI_COMPATIBLE", baseUrl: good.baseUrl, servedModel: "ParaVT/ParaVT-8B" },
    });
    const probe = await fx.asEditor.models.probe({ projectId: fx.project.id, modelId: m.id });
    expect(probe).toMatchObject({
      modelIds: ["ParaVT/ParaVT-8B"],
      modelsError: null,
      servedModelListed: true,
      maxModelLen: 65_536,
      oneImage: { ok: true, answer: "1", reasoningField: null },
      severalImages: { ok: true, answer: "2" },
      reasoningParser: null,
      warnings: [],
    });
    expect(good.hits).toEqual(["GET /v1/models", "POST /v1/chat/completions", "POST /v1/chat/completions"]);
    const row = await db().model.findUniqueOrThrow({ where: { id: m.id } });
    expect((row.config as { probe: unknown }).probe).toEqual(JSON.parse(JSON.stringify(probe)));
    // Viewers read the stored result but cannot probe.
    const listed = await fx.asViewer.models.list({ projectId: fx.project.id });
    expect(listed[0]!.config.probe).toMatchObject({ servedModelListed: true });
    await expect(fx.asViewer.models.probe({ projectId: fx.project.id, modelId: m.id })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("says why a server is unfit: one image per prompt, a small context, another model, a reasoning parser", async () => {
    const s = await vllm({ model: "Qwen/Qwen3-VL-8B-Thinking", maxModelLen: 8192, imageLimit: 1, reasoning: true });
    const probe = await probeEndpoint({ baseUrl: s.baseUrl, servedModel: "Qwen3-VL-8B-Instruct", allow: [] });
    expect(probe).toMatchObject({
      servedModelListed: false,
      maxModelLen: null, // only reported for the served model
      oneImage: { ok: true, reasoningField: "reasoning" },
      severalImages: { ok: false, error: "HTTP 400: At most 1 image(s) may be provided in one prompt." },
      reasoningParser: "reasoning",
    });
    expect(probe.warnings.join("\n")).toMatch(
      /does not list "Qwen3-VL-8B-Instruct" \(it serves Qwen\/Qwen3-VL-8B-Thinking\)/,
    );
    expect(probe.warnings.join("\n")).toMatch(/several images per request are refused/);
    const small = await probeEndpoint({ baseUrl: s.baseUrl, servedModel: "Qwen/Qwen3-VL-8B-Thinking", allow: [] });
    expect(small.maxModelLen).toBe(8192);
    expect(small.warnings.join("\n")).toMatch(/max_model_len 8192 is small/);
  });

  it("follows no redirect and never calls an address the endpoint policy refuses", async () => {
    const target = await vllm({ model: "m", maxModelLen: 65_536, imageLimit: 8, reasoning: false });
    const hits: string[] = [];
    const redirector = await listen(
      createServer((req, res) => {
        hits.push(`${req.method} ${req.url}`);
        res.writeHead(307, { location: `${target.baseUrl}${req.url!.replace(/^\/v1/, "")}` });
        res.end();
      }),
      hits,
    );
    const probe = await probeEndpoint({ baseUrl: redirector.baseUrl, servedModel: "m", allow: [] });
    expect(probe.modelsError).toBe("HTTP 307: the server redirects; redirects are not followed");
    expect(probe.oneImage).toEqual({ ok: false, error: "HTTP 307: the server redirects; redirects are not followed" });
    expect(target.hits).toEqual([]);

    const refused = await probeEndpoint({ baseUrl: "http://169.254.169.254/v1", servedModel: "m", allow: [] });
    expect(refused.modelsError).toMatch(/refused by the endpoint policy: .*169\.254\.169\.254/);
    expect(refused.oneImage.ok).toBe(false);
  });
});
