// The `paravt suite generate` subcommand end to end: the real bin (packages/cli) in a child process.

import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
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

  it("passes --when-answer, --when-search, --scene-search, --order-search, --shape-sentence, --describe-overview, --scene-answer, --mcq-answer and --option-style to the oracle", async () => {
    const out = await mkdtemp(join(tmpdir(), "paravt-suite-cli-"));
    dirs.push(out);
    const args = ["--seed", "8", "--count", "1", "--out", out, "--min-minutes", "1", "--max-minutes", "1"];
    const when = [
      "--when-answer",
      "mmss",
      "--when-search",
      "crops",
      "--scene-search",
      "crops",
      "--order-search",
      "crops",
      "--shape-sentence",
      "time-first",
      "--describe-overview",
      "--scene-answer",
      "quote",
      "--mcq-answer",
      "scan",
      "--option-style",
      "text-first",
    ];
    const r = paravt(["suite", "generate", ...args, ...when]);
    expect(r.code).toBe(0);
    const suite = await readSuite(out);
    const config = {
      minMinutes: 1,
      maxMinutes: 1,
      whenAnswer: "mmss",
      whenSearch: "crops",
      sceneSearch: "crops",
      orderSearch: "crops",
      shapeSentence: "time-first",
      describeOverview: true,
      sceneAnswer: "quote",
      mcqAnswer: "scan",
      optionStyle: "text-first",
    } as const;
    expect(suite.oracle).toEqual(planSuite({ seed: 8, count: 1, config }).oracle);
    expect(suite.questions.filter((q) => q.type === "mcq").every((q) => q.question.includes("\n- "))).toBe(true);
    expect(suite.oracle.some((o) => o.turns[1]!.content.startsWith("<think>\nTo find when the"))).toBe(true);
    expect(suite.oracle.some((o) => o.turns[1]!.content.startsWith("<think>\nMy frames: 0 s "))).toBe(true);
    const summaries = suite.oracle.flatMap((o) => o.subAgents.map((s) => s.summary));
    expect(summaries.some((t) => / (?:from \d\d:\d\d to \d\d:\d\d|at \d\d:\d\d) is in the /.test(t))).toBe(true);
  });

  it("prints help and refuses bad arguments with exit code 2", () => {
    for (const args of [
      ["suite", "--help"],
      ["suite", "generate", "--help"],
      ["help", "suite"],
    ]) {
      const r = paravt(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Usage: paravt suite generate --seed S --count N --out DIR");
    }
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
      [
        ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--when-answer", "hhmmss"],
        /--when-answer must be seconds or mmss \(got hhmmss\)/,
      ],
      [
        ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--scene-answer", "verbatim"],
        /--scene-answer must be frame or quote \(got verbatim\)/,
      ],
      [
        ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--mcq-answer", "text"],
        /--mcq-answer must be letter or scan \(got text\)/,
      ],
      [
        ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--option-style", "after"],
        /--option-style must be letter-first or text-first \(got after\)/,
      ],
      [
        ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--when-search", "frames"],
        /--when-search must be overview or crops \(got frames\)/,
      ],
      [
        ["suite", "generate", "--seed", "1", "--count", "1", "--out", "d", "--shape-sentence", "last"],
        /--shape-sentence must be position-first or time-first \(got last\)/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = paravt(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
  });
});
