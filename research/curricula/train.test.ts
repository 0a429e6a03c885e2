// research/curricula/train.ts end to end on the real compute core: without curriculum flags it
// is `paravt nano train` (same dataset fingerprint, same loss); each curriculum flag trains under
// its own fingerprint, which a resume must keep; its flags are checked before anything loads.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultTokenizer } from "@paravt/nano";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paletteTokenIds } from "./emphasis";

const TRAIN = fileURLToPath(new URL("./train.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../..", import.meta.url)); // where `--import tsx` resolves
const PARAVT = path.join(ROOT, "packages/cli/bin/paravt.mjs");

function run(args: string[]) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", timeout: 240_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const train = (args: string[]) => run(["--import", "tsx", TRAIN, ...args]);
const paravt = (args: string[]) => run([PARAVT, ...args]);
const hashOf = (dir: string, step = 2) =>
  JSON.parse(readFileSync(path.join(dir, `step-${String(step).padStart(6, "0")}`, "config.json"), "utf8")).training
    .dataCursor.datasetHash as string;

let root: string;
let suite: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "curricula-train-"));
  suite = path.join(root, "suite");
  const r = paravt(["suite", "generate", "--seed", "5", "--count", "1", "--max-minutes", "1", "--out", suite]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("research/curricula/train.ts", () => {
  it("refuses bad curriculum flags with its usage (exit 2)", () => {
    const base = ["--suite", "/tmp/x", "--out", "/tmp/y"];
    const cases: [string[], string][] = [
      [["--emphasize-palette", "0"], "--emphasize-palette must be a positive number (got 0)"],
      [["--emphasize-answer", "none"], "--emphasize-answer must be a positive number (got none)"],
      [["--permute-palette", "0"], "--permute-palette must be a probability in (0, 1] (got 0)"],
      [["--frame-drill", "2,16"], "--frame-drill needs --frame-targets"],
      [["--frame-targets", "3", "--frame-drill", "2"], "--frame-drill takes S,F (got 2)"],
      [["--preset", "huge"], "--preset must be tiny, small or default"],
    ];
    for (const [args, message] of cases) {
      const r = train([...base, ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toContain(`research/curricula/train.ts: ${message}`);
      expect(r.stderr).toContain("Usage: npx tsx research/curricula/train.ts");
    }
    const help = train(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--frame-drill S,F");
    expect(help.stdout).toContain("--repeat-template LIST");
  }, 120_000);

  it("is paravt nano train without curriculum flags; each curriculum flag is its own fingerprint, kept on resume", () => {
    const common = ["--suite", suite, "--steps", "2", "--checkpoint-every", "1", "--ks", "4"];
    const out = (name: string) => path.join(root, name);
    const product = paravt(["nano", "train", ...common, "--out", out("product")]);
    const plain = train([...common, "--out", out("plain")]);
    const emphasis = train([...common, "--out", out("emphasis"), "--emphasize-palette", "10"]);
    const all = train([
      ...common,
      "--out",
      out("all"),
      "--emphasize-palette",
      "2",
      "--emphasize-answer",
      "3",
      "--frame-targets",
      "3",
      "--frame-drill",
      "2,4",
      "--permute-palette",
      "0.5",
    ]);
    for (const r of [product, plain, emphasis, all]) expect(r.code, r.stderr).toBe(0);
    expect(hashOf(out("plain"))).toBe(hashOf(out("product")));
    expect(JSON.parse(plain.stdout).loss).toBe(JSON.parse(product.stdout).loss);
    expect(all.stderr).toMatch(/^step 2\/2 {2}loss [\d.]+ {2}acc [\d.]+% {2}frame [\d.]+% {2}drill [\d.]+%/m);
    // The fingerprint chain of the trainer's former options, in their order (old checkpoints resume).
    const sha = (t: string) => createHash("sha256").update(t).digest("hex");
    const parts = [
      `emphasis\x002\x00${paletteTokenIds(defaultTokenizer()).join(",")}`,
      "answer-emphasis\x003",
      "frame-targets\x00suite-observation-v1\x003",
      "frame-drill\x002\x004",
      "palette-permutation\x000.5",
    ];
    expect(hashOf(out("all"))).toBe(parts.reduce((h, p) => sha(`${h}\0${p}`), hashOf(out("plain"))));
    // Resuming the emphasised run without the flag is another dataset: refused, nothing overwritten.
    rmSync(path.join(out("emphasis"), "step-000002"), { recursive: true });
    const resumed = train([...common, "--out", out("emphasis")]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(/cannot resume from .*step-000001: dataset [0-9a-f]{12} vs [0-9a-f]{12}/);
    expect(readdirSync(out("emphasis"))).toEqual(["step-000001"]);
    const again = train([...common, "--out", out("emphasis"), "--emphasize-palette", "10"]);
    expect(again.code, again.stderr).toBe(0);
    expect(hashOf(out("emphasis"))).not.toBe(hashOf(out("plain")));
  }, 240_000);
});
