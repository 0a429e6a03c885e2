import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `paravt nano train` end to end on the real compute core: a one-video suite, the tiny preset,
// a few steps. Covers the resume of an interrupted run and the warm start (--init-from).
const BIN = fileURLToPath(new URL("../bin/paravt.mjs", import.meta.url));

function paravt(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 240_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
/** Loss of each progress line on stderr ("step 25/100  loss 1.2345 …"), keyed by step. */
function losses(stderr: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const m of stderr.matchAll(/^step (\d+)\/\d+ {2}loss ([\d.]+)/gm)) out.set(Number(m[1]), Number(m[2]));
  return out;
}
const configOf = (dir: string) => JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8"));

let root: string;
let suite: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "paravt-nano-train-"));
  suite = path.join(root, "suite");
  const r = paravt(["suite", "generate", "--seed", "5", "--count", "1", "--max-minutes", "1", "--out", suite]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("paravt nano train", () => {
  it("resumes an interrupted run from the newest checkpoint in --out", () => {
    const out = path.join(root, "cold");
    const first = paravt([
      "nano",
      "train",
      "--suite",
      suite,
      "--out",
      out,
      "--steps",
      "25",
      "--checkpoint-every",
      "25",
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(["step-000025"]);
    expect(first.stderr).not.toContain("resuming");

    const more = paravt(["nano", "train", "--suite", suite, "--out", out, "--steps", "50", "--checkpoint-every", "25"]);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toContain(`resuming from ${path.join(out, "step-000025")}`);
    expect([...losses(more.stderr).keys()]).toEqual([50]); // steps 26..50 only, not from 1 again
    expect(readdirSync(out).sort()).toEqual(["step-000025", "step-000050"]);
    const resumed = configOf(path.join(out, "step-000050"));
    expect(resumed.training.step).toBe(50);
    // One lineage stage, rewritten by the resume (never appended twice), with the run's facts.
    expect(resumed.lineage).toHaveLength(1);
    expect(resumed.lineage[0]).toMatchObject({
      name: "cold",
      trainer: "paravt nano train",
      steps: 50,
      batch: 2,
      seed: 1,
      parentHash: null,
      data: { suite: { name: "suite", seed: 5, count: 1, options: "--oracle-style reference" } },
    });
    expect(resumed.lineage[0].data.dataHash).toBe(resumed.training.dataCursor.datasetHash);
    expect(resumed.trainedKs).toEqual([4, 8, 16, 32, 64]);
  }, 240_000);

  it("--init-from starts from a checkpoint's weights with its config, a fresh optimizer and step 0", () => {
    const from = path.join(root, "cold", "step-000050");
    const coldOut = path.join(root, "cold-again");
    const warmOut = path.join(root, "warm");
    const common = ["--suite", suite, "--steps", "25", "--ks", "4,8", "--think-prefix"];
    const cold = paravt(["nano", "train", ...common, "--out", coldOut]);
    const warm = paravt(["nano", "train", ...common, "--out", warmOut, "--init-from", from]);
    const widened = paravt([
      "nano",
      "train",
      ...common,
      "--out",
      path.join(root, "warm-foreground"),
      "--init-from",
      from,
      "--frame-encoding",
      "rgb+foreground",
    ]);
    for (const r of [cold, warm, widened]) expect(r.code, r.stderr).toBe(0);
    const ck = configOf(path.join(warmOut, "step-000025"));
    expect(ck.model).toEqual(configOf(from).model);
    expect(ck.training.step).toBe(25);
    // The warm start's lineage is its parent's plus this stage, which names the parent's weights.
    const parent = configOf(from);
    expect(ck.lineage.map((s: { name: string }) => s.name)).toEqual(["cold", "warm"]);
    expect(ck.lineage[0]).toEqual(parent.lineage[0]);
    expect(ck.lineage[1].parentHash).toBe(
      createHash("sha256")
        .update(readFileSync(path.join(from, "model.safetensors")))
        .digest("hex"),
    );
    expect(ck.trainedKs).toEqual([4, 8, 16, 32, 64]); // the parent's Ks and this stage's 4, 8
    // The warm start already knows the data: its loss is far below a fresh model's after the same 25 steps.
    expect(losses(warm.stderr).get(25)!).toBeLessThan(losses(cold.stderr).get(25)! * 0.8);
    // Widened to the foreground encoding (zero columns), it still starts from what the source knows.
    const fg = configOf(path.join(root, "warm-foreground", "step-000025")).model;
    expect(fg).toEqual({ ...configOf(from).model, frameEncoding: "rgb+foreground", frameFeatures: 2 * 3888 });
    expect(losses(widened.stderr).get(25)!).toBeLessThan(losses(cold.stderr).get(25)! * 0.8);
  }, 240_000);

  it("--main-agent-only trains under another fingerprint; a resume must keep it", () => {
    const plainOut = path.join(root, "plain");
    const mainOut = path.join(root, "main-only");
    const common = ["--suite", suite, "--steps", "2", "--checkpoint-every", "1", "--ks", "4"];
    const plain = paravt(["nano", "train", ...common, "--out", plainOut]);
    const main = paravt(["nano", "train", ...common, "--out", mainOut, "--main-agent-only"]);
    for (const r of [plain, main]) expect(r.code, r.stderr).toBe(0);
    const hash = (dir: string) => configOf(path.join(dir, "step-000002")).training.dataCursor.datasetHash;
    expect(hash(plainOut)).not.toBe(hash(mainOut));
    // Resuming the main-agent run without the flag is another dataset: refused, nothing overwritten.
    rmSync(path.join(mainOut, "step-000002"), { recursive: true });
    const resumed = paravt(["nano", "train", ...common, "--out", mainOut]);
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toMatch(/cannot resume from .*step-000001: dataset [0-9a-f]{12} vs [0-9a-f]{12}/);
    expect(readdirSync(mainOut)).toEqual(["step-000001"]);
  }, 240_000);

  it("refuses --init-from together with --preset, and a bad --ks", () => {
    const both = paravt([
      "nano",
      "train",
      "--suite",
      suite,
      "--out",
      "/tmp/x",
      "--init-from",
      "/tmp/y",
      "--preset",
      "tiny",
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--init-from takes the checkpoint's model config");
    const badKs = paravt(["nano", "train", "--suite", suite, "--out", "/tmp/x", "--ks", "4,x"]);
    expect(badKs.code).toBe(2);
    expect(badKs.stderr).toContain("--ks must be a positive integer");
  });
});
