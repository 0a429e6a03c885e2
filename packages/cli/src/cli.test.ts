import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { computeReward } from "@paravt/protocol";
import { describe, expect, it } from "vitest";

// These tests run the real executable (bin/paravt.mjs, registered as `paravt`) end to end.
const BIN = fileURLToPath(new URL("../bin/paravt.mjs", import.meta.url));

function paravt(args: string[], input = "") {
  const r = spawnSync(process.execPath, [BIN, ...args], { input, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const lines = (s: string) =>
  s
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("paravt reward", () => {
  it("scores valid lines, reports invalid ones, skips blank ones, keeps order, exits 0", () => {
    const input = [
      JSON.stringify({
        completion: "<think>I checked the whole clip.</think><answer>B</answer>",
        answer: "B",
        question_type: "mcq",
      }),
      "{not json",
      "",
      "   ",
      JSON.stringify({ completion: "x", answer: "y" }),
      JSON.stringify({
        completion: "<answer>a red car</answer>",
        answer: "red truck",
        question_type: "oe",
        config: { answerSuffix: false, anchorWeight: 0, formatWeight: 0.5, rewardMode: "f1" },
      }),
    ].join("\n");
    const r = paravt(["reward"], input);
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out).toHaveLength(4);
    expect(out[0]).toEqual({ reward: 2, acc_reward: 1, format_reward: 1, tool_reward: 0 });
    expect(String(out[1]?.error)).toMatch(/^invalid JSON/);
    expect(String(out[2]?.error)).toContain("question_type");
    // f1 0.5 + 0.5 * (answer 0.2 + 0.1 + balance 0.1)
    expect(out[3]?.acc_reward).toBe(0.5);
    expect(out[3]?.reward).toBeCloseTo(0.5 + 0.5 * 0.4, 12);
  });

  it("defaults each missing config field to PARA-GRPO and rejects unknown keys", () => {
    const base = { completion: "<think>tiny", answer: "B", question_type: "oe" };
    const r = paravt(
      ["reward"],
      [base, { ...base, config: {} }, { ...base, config: { anchorWeight: 0 } }, { ...base, extra: 1 }]
        .map((x) => JSON.stringify(x))
        .join("\n"),
    );
    const out = lines(r.stdout);
    expect(out[0]?.format_reward).toBeCloseTo(-0.15, 12);
    expect(out[1]).toEqual(out[0]);
    expect(out[2]?.format_reward).toBe(0);
    expect(String(out[3]?.error)).toContain("extra");
  });

  it("matches the library on many lines, in order", () => {
    const inputs = Array.from({ length: 500 }, (_, i) => ({
      completion: `<think>Look at second ${i} of the clip.</think><answer>${"ABCD"[i % 4]}</answer>`,
      answer: "ABCD"[(i * 7) % 4] as string,
      question_type: "mcq" as const,
    }));
    const r = paravt(["reward"], inputs.map((x) => JSON.stringify(x)).join("\n") + "\n");
    const out = lines(r.stdout);
    expect(out).toHaveLength(inputs.length);
    out.forEach((o, i) => {
      const x = inputs[i];
      if (!x) throw new Error("missing input");
      expect(o.reward).toBe(
        computeReward({ completion: x.completion, answer: x.answer, questionType: x.question_type }).reward,
      );
    });
  });
});

describe("paravt parse", () => {
  it("returns every parser's view of the text", () => {
    const text =
      "<think>Let me crop the first ten seconds.</think>\n" +
      "<tool_code>print(crop_video('v.mp4', 0, 10))</tool_code>\n<answer>(C) at 0:05 - 0:09</answer>";
    const r = paravt(["parse"], `${JSON.stringify({ text })}\n{"text": 3}\n`);
    expect(r.code).toBe(0);
    const [first, second] = lines(r.stdout);
    expect(first).toEqual({
      tool_calls: [{ name: "crop_video", arguments: { video_path: "v.mp4", start_time: 0, end_time: 10 } }],
      eval_tool_calls: [],
      answer: "(C) at 0:05 - 0:09",
      letter: "C",
      time_range: [5, 9],
      has_parseable_tool_call: true,
      has_substantive_think: true,
      think_before_tool: true,
    });
    expect(String(second?.error)).toContain("text");
  });
});

describe("paravt command line", () => {
  it("--help, help and <command> --help document both commands", () => {
    for (const args of [["--help"], ["help"], ["-h"]]) {
      const r = paravt(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("reward");
      expect(r.stdout).toContain("parse");
    }
    for (const args of [
      ["reward", "--help"],
      ["help", "reward"],
    ]) {
      const r = paravt(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('"question_type"');
      expect(r.stdout).toContain("PARA-GRPO");
    }
    expect(paravt(["parse", "--help"]).stdout).toContain('"eval_tool_calls"');
  });

  it("prints usage on stderr and exits 2 for an unknown or missing command", () => {
    const r = paravt(["evaluate"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain('unknown command "evaluate"');
    expect(r.stderr).toContain("Usage: paravt");
    expect(paravt([]).code).toBe(2);
  });

  it("nano serve --help and nano train --help print their own help", () => {
    const serve = paravt(["nano", "serve", "--help"]);
    expect(serve.code).toBe(0);
    expect(serve.stdout.startsWith("Usage: paravt nano serve")).toBe(true);
    expect(serve.stdout).not.toContain("Usage: paravt nano train");
    expect(serve.stdout).toContain("GET /health");
    const train = paravt(["nano", "train", "--help"]);
    expect(train.stdout.startsWith("Usage: paravt nano train")).toBe(true);
    expect(train.stdout).not.toContain("Usage: paravt nano serve");
    // The command's help still documents both.
    expect(paravt(["nano", "--help"]).stdout).toContain("Usage: paravt nano serve");
  });

  it("nano train validates its arguments and fails clearly on a missing suite", () => {
    expect(paravt(["nano", "--help"]).stdout).toContain("Usage: paravt nano train");
    const noSuite = paravt(["nano", "train", "--out", "/tmp/x"]);
    expect(noSuite.code).toBe(2);
    expect(noSuite.stderr).toContain("--suite is required");
    const badPreset = paravt(["nano", "train", "--suite", "/tmp/x", "--out", "/tmp/y", "--preset", "huge"]);
    expect(badPreset.code).toBe(2);
    expect(badPreset.stderr).toContain("--preset must be tiny, small or default");
    const badEncoding = paravt(["nano", "train", "--suite", "/tmp/x", "--out", "/tmp/y", "--frame-encoding", "hsv"]);
    expect(badEncoding.code).toBe(2);
    expect(badEncoding.stderr).toContain("--frame-encoding must be rgb or rgb+foreground (got hsv)");
    const base = ["nano", "train", "--suite", "/tmp/x", "--out", "/tmp/y"];
    const badRepeat = paravt([...base, "--repeat-template", "when=0"]);
    expect(badRepeat.code).toBe(2);
    expect(badRepeat.stderr).toContain("--repeat-template takes TEMPLATE=N with N >= 1, e.g. when=4 (got when=0)");
    const twice = paravt([...base, "--repeat-template", "when=2,when=3"]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("--repeat-template names when twice");
    // The curricula (research/curricula/train.ts) and the flags no stage of the default used are gone.
    for (const flag of [
      "--emphasize-palette",
      "--emphasize-answer",
      "--permute-palette",
      "--permute-digits",
      "--frame-targets",
      "--frame-target-order",
      "--frame-drill",
      "--sub-agents-only",
      "--reset-frame-projection",
      "--rgb-projection-scale",
    ]) {
      const r = paravt([...base, flag, "1"]);
      expect(r.code, flag).toBe(2);
      expect(r.stderr).toContain(`Unknown option '${flag}'`);
    }
    const missing = paravt([
      "nano",
      "train",
      "--suite",
      "/nonexistent/suite",
      "--out",
      "/tmp/paravt-none",
      "--steps",
      "1",
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/paravt nano train: .*manifest\.json/);
  });
});
