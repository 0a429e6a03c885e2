import { PassThrough, Readable } from "node:stream";
import { DEFAULT_REWARD_CONFIG } from "@paravt/protocol";
import { describe, expect, it } from "vitest";
import { RewardConfigInput } from "./commands/reward";
import { main } from "./main";

function collect(stream: PassThrough): () => string {
  const parts: Buffer[] = [];
  stream.on("data", (d: Buffer) => parts.push(d));
  return () => Buffer.concat(parts).toString("utf8");
}

async function run(argv: string[], stdin: Readable) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out = collect(stdout);
  const err = collect(stderr);
  const code = await main(argv, { stdin, stdout, stderr });
  return { code, stdout: out(), stderr: err() };
}

describe("main (in process)", () => {
  it("config defaults are the PARA-GRPO reward config", () => {
    expect(RewardConfigInput.parse({})).toEqual(DEFAULT_REWARD_CONFIG);
  });

  it("handles CRLF input and a leading BOM", async () => {
    const r = await run(["parse"], Readable.from(['\ufeff{"text": "<answer>B</answer>"}\r\n{"text": "A"}\r\n']));
    const out = r.stdout
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { letter: string });
    expect(out.map((o) => o.letter)).toEqual(["B", "A"]);
  });

  it("exits 1 when stdin cannot be read", async () => {
    const broken = new Readable({
      read() {
        this.destroy(new Error("EIO: input/output error"));
      },
    });
    const r = await run(["reward"], broken);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("cannot read stdin");
  });

  it("refuses unexpected arguments with exit code 2", async () => {
    const r = await run(["reward", "--fast"], Readable.from([]));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unexpected argument "--fast"');
  });

  it("answers each line without waiting for the end of input", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const done = main(["parse"], { stdin, stdout, stderr: new PassThrough() });
    const firstLine = new Promise<string>((resolve) => stdout.once("data", (d: Buffer) => resolve(d.toString())));
    stdin.write('{"text": "<answer>C</answer>"}\n');
    expect(JSON.parse(await firstLine)).toMatchObject({ letter: "C" });
    stdin.end();
    expect(await done).toBe(0);
  });
});
