// `paravt nano serve` as a user starts it: a real process on a free port, answering the OpenAI
// chat API from the committed default checkpoint on onnxruntime.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../bin/paravt.mjs", import.meta.url));
const CHECKPOINT = fileURLToPath(new URL("../../nano/checkpoints/default", import.meta.url));
let child: ChildProcess | undefined;
afterAll(() => void child?.kill("SIGTERM"));

async function firstLine(c: ChildProcess): Promise<string> {
  let out = "";
  for await (const chunk of c.stdout!) {
    out += String(chunk);
    if (out.includes("\n")) return out.split("\n")[0]!;
  }
  throw new Error(`the server exited before printing its address (exit ${c.exitCode})`);
}

describe("paravt nano serve", () => {
  it("serves the default checkpoint: /v1/models and a greedy chat completion, then stops on SIGTERM", async () => {
    child = spawn(process.execPath, [
      BIN,
      "nano",
      "serve",
      "--checkpoint",
      CHECKPOINT,
      "--port",
      "0",
      "--model",
      "nano",
    ]);
    const { url, model } = JSON.parse(await firstLine(child)) as { url: string; model: string };
    expect(model).toBe("nano");
    const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(["nano"]);
    const body = {
      model: "nano",
      messages: [{ role: "user", content: "What color is the background?" }],
      max_tokens: 16,
      temperature: 0,
    };
    const ask = async () => {
      const res = await fetch(`${url}/chat/completions`, { method: "POST", body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        choices: { message: { content: string } }[];
        usage: { completion_tokens: number };
      };
    };
    const [a, b] = [await ask(), await ask()];
    expect(a.usage.completion_tokens).toBeGreaterThan(0);
    expect(a.choices[0]!.message.content).toBe(b.choices[0]!.message.content); // greedy is deterministic
    const bad = await fetch(`${url}/chat/completions`, { method: "POST", body: "{" });
    expect(bad.status).toBe(400);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number];
    expect(code).toBe(0);
  });

  it("refuses bad arguments with exit code 2 and a missing checkpoint with exit code 1", async () => {
    const run = async (args: string[]) => {
      const c = spawn(process.execPath, [BIN, "nano", "serve", ...args]);
      let err = "";
      c.stderr.on("data", (d) => (err += String(d)));
      const [code] = (await once(c, "exit")) as [number];
      return { code, err };
    };
    expect(await run(["--port", "1"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--checkpoint is required"),
    });
    expect(await run(["--checkpoint", CHECKPOINT, "--backend", "gpu"])).toMatchObject({ code: 2 });
    const missing = await run(["--checkpoint", "/nonexistent/ckpt", "--port", "0"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/paravt nano serve: .*nonexistent/);
  });
});
