// The `paravt suite generate` subcommand end to end: the real bin (packages/cli) in a child process.

import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  knobFlag,
  ORACLE_KNOB_VALUES,
  ORACLE_KNOBS,
  ORACLE_PRESET_NAMES,
  ORACLE_PRESETS,
  type OracleStyleInput,
} from "./oracle-style";
import { planSuite } from "./plan";
import { readSuite } from "./read-suite";

const BIN = fileURLToPath(new URL("../../cli/bin/paravt.mjs", import.meta.url));
const dirs: string[] = [];

function paravt(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe("paravt suite generate", () => {
  it("writes a readable suite, reports progress on stderr and counts on stdout", async () => {
    const out = await mkdtemp(join(tmpdir(), "paravt-suite-cli-"));
    dirs.push(out);
    const r = paravt([
      "suite",
      "generate",
      "--seed",
      "5",
      "--count",
      "2",
      "--out",
      out,
      "--min-minutes",
      "1",
      "--max-minutes",
      "1",
    ]);
    expect(r.stderr).toMatch(/^\[1\/2\] v0001: 1:04 of video in \d+\.\d s$/m);
    expect(r.stderr).toMatch(/^\[2\/2\] v0002: 1:04 of video in \d+\.\d s$/m);
    expect(r.stderr).toMatch(/^wrote 2 videos \(2:08 in all\), 6 questions, 30 oracle trajectories, 6 RL rows to /m);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ out, videos: 2, questions: 6, rl: 6, totalDurationS: 128 });
    const suite = await readSuite(out, { verifyHashes: true });
    const plan = planSuite({ seed: 5, count: 2, config: { minMinutes: 1, maxMinutes: 1 } });
    expect(suite.manifest.seed).toBe(5);
    expect(suite.questions).toEqual(plan.questions);
    expect(suite.videos.map((v) => v.annotation)).toEqual(plan.videos);
  });

  it("passes --oracle-style to the oracle: a preset, knobs, or a preset and knobs", async () => {
    const args = ["--seed", "8", "--count", "1", "--min-minutes", "1", "--max-minutes", "1"];
    const generate = async (style: string) => {
      const out = await mkdtemp(join(tmpdir(), "paravt-suite-cli-"));
      dirs.push(out);
      const r = paravt(["suite", "generate", ...args, "--out", out, "--oracle-style", style]);
      expect(r.code, r.stderr).toBe(0);
      return readSuite(out);
    };
    const plan = (oracleStyle: OracleStyleInput) =>
      planSuite({ seed: 8, count: 1, config: { minMinutes: 1, maxMinutes: 1, oracleStyle } });

    const nano = await generate("nano-default");
    expect(nano.manifest.config.oracleStyle).toEqual(ORACLE_PRESETS["nano-default"]);
    expect(nano.oracle).toEqual(plan("nano-default").oracle);
    expect(nano.questions.filter((q) => q.type === "mcq").every((q) => q.question.includes("\n- "))).toBe(true);
    expect(nano.oracle.some((o) => o.turns[1]!.content.startsWith("<think>\nTo find when the"))).toBe(true);
    const summaries = nano.oracle.flatMap((o) => o.subAgents.map((s) => s.summary));
    expect(summaries.some((t) => / (?:from \d\d:\d\d to \d\d:\d\d|at \d\d:\d\d) is in the /.test(t))).toBe(true);

    const knobs = await generate("reference,when-answer=mmss,when-search=crops");
    expect(knobs.manifest.config.oracleStyle).toEqual({
      ...ORACLE_PRESETS.reference,
      whenAnswer: "mmss",
      whenSearch: "crops",
    });
    expect(knobs.oracle).toEqual(plan({ whenAnswer: "mmss", whenSearch: "crops" }).oracle);
  });

  it("prints help and refuses bad arguments with exit code 2", () => {
    const STYLE = ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--oracle-style"];
    for (const args of [
      ["suite", "--help"],
      ["suite", "generate", "--help"],
      ["help", "suite"],
    ]) {
      const r = paravt(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Usage: paravt suite generate --seed S --count N --out DIR");
    }
    // The help lists every knob of the oracle style with its values, reference's first, and every preset.
    const help = paravt(["suite", "generate", "--help"]).stdout;
    for (const k of ORACLE_KNOBS) {
      expect(help).toMatch(new RegExp(`\\n +${knobFlag(k)} +${ORACLE_KNOB_VALUES[k].join("\\|")}:`));
    }
    for (const name of ORACLE_PRESET_NAMES) expect(help).toMatch(new RegExp(`\\n +${name} +`));
    const cases: [string[], RegExp][] = [
      [["suite"], /missing subcommand/],
      [["suite", "make"], /unknown subcommand "make"/],
      [["suite", "generate", "--seed", "1", "--count", "2"], /--out is required/],
      [["suite", "generate", "--seed", "x", "--count", "2", "--out", "d"], /--seed must be an integer/],
      [
        ["suite", "generate", "--seed", "1", "--count", "0", "--out", "d"],
        /--count must be an integer in \[1, 10000\]/,
      ],
      [["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--fast"], /Unknown option '--fast'/],
      [
        ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--min-minutes", "4", "--max-minutes", "2"],
        /maxMinutes must be >= minMinutes/,
      ],
      [
        ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--max-minutes", "31"],
        /--max-minutes must be a number in \[1, 30\]/,
      ],
      [[...STYLE, "fast"], /--oracle-style: unknown preset "fast" \(presets: reference, nano-default;/],
      [[...STYLE, "when-answer=hhmmss"], /--oracle-style: when-answer must be seconds or mmss \(got hhmmss\)/],
      [
        [...STYLE, "option-style=after"],
        /--oracle-style: option-style must be letter-first or text-first \(got after\)/,
      ],
      [[...STYLE, "mcq-answer=scan"], /--oracle-style: unknown knob "mcq-answer" \(knobs: when-answer, when-search, /],
      [[...STYLE, "when-answer=mmss,nano-default"], /--oracle-style: a preset may only come first/],
      // The per-knob flags are gone.
      [[...STYLE.slice(0, -1), "--when-answer", "mmss"], /Unknown option '--when-answer'/],
    ];
    for (const [args, message] of cases) {
      const r = paravt(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });
});
