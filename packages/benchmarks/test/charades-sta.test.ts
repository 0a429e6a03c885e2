import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBenchmark } from "../src/index";
import { reasons, tempDir, touchVideos, write } from "./helpers";

const TXT = [
  "3MSZA 24.3 30.4##person turn a light on.",
  "3MSZA 24.3 30.4##person flipped the light switch near the door.",
  "3MSZA 24.3 30.4##person turn a light on.", // same line again: a distinct key
  "AO8RW 0.0 6.9##a person is putting a book on a shelf.",
  "AO8RW 10.0 5.0##end before start.",
  "AO8RW 40.0 45.0##starts after the video ends.",
  "AO8RW 1.5 abc##not a number.",
  "AO8RW 30.0 33.8##ends past the video's length.",
  "Y6R7T 1 2##no video file.",
  "AO8RW 1 2##   ",
  "",
].join("\n");

// Charades quotes free-text columns, with commas and line breaks inside them.
const CSV = [
  "id,subject,scene,quality,relevance,verified,script,objects,descriptions,actions,length",
  '3MSZA,HR43,Kitchen,6,7,Yes,"A person turns on a light, then leaves.",light;door,"One, two\nthree",c001 11.90 21.20,31.96',
  'AO8RW,MK12,Bedroom,5,6,Yes,"Book, shelf",book;shelf,"x",c002 0.00 6.90,33.0',
].join("\r\n");

describe("Charades-STA loader", () => {
  it("reads the txt + csv release: spans as answers, every bad timestamp reported", async () => {
    const dir = await tempDir();
    await write(dir, "charades_sta_test.txt", TXT);
    await write(dir, "Charades_v1_test.csv", CSV);
    await touchVideos(dir, ["Charades_v1_480/3MSZA.mp4", "Charades_v1_480/AO8RW.mp4"]);
    const res = await loadBenchmark({ benchmark: "charades_sta", dir });
    expect(res.split).toBe("test");
    expect(res.samples.map((s) => [s.key, s.answer])).toEqual([
      ["3MSZA#0", "24.3-30.4"],
      ["3MSZA#1", "24.3-30.4"],
      ["3MSZA#2", "24.3-30.4"],
      ["AO8RW#0", "0-6.9"],
      ["AO8RW#4", "30-33.8"],
    ]);
    expect(res.samples[0]).toMatchObject({
      question: "person turn a light on.",
      options: null,
      questionType: "tvg",
      durationS: 31.96,
      videoPath: join(dir, "Charades_v1_480", "3MSZA.mp4"),
      metadata: { videoId: "3MSZA", query: "person turn a light on.", span: [24.3, 30.4] },
    });
    expect(res.samples[0]!.metadata.endBeyondDuration).toBeUndefined();
    expect(res.samples[4]!.metadata).toMatchObject({ span: [30, 33.8], endBeyondDuration: true });
    expect(reasons(res.skipped)).toEqual({ bad_timestamps: 3, missing_video: 1, missing_field: 1 });
    const byRow = Object.fromEntries(res.skipped.map((s) => [s.row, s.detail]));
    expect(byRow[5]).toMatch(/end 5 is not after start 10/);
    expect(byRow[6]).toMatch(/start 40 is not before the video's end \(33 s\)/);
    expect(byRow[7]).toMatch(/not numbers/);
    expect(res.stats).toMatchObject({
      rows: 10,
      loaded: 5,
      variant: "txt + csv",
      files: ["charades_sta_test.txt", "Charades_v1_test.csv"],
      byQuestionType: { tvg: 5 },
    });
  });

  it("without the csv: loads, warns that lengths are unknown", async () => {
    const dir = await tempDir();
    await write(dir, "annotations/charades_sta_test.txt", TXT);
    await touchVideos(dir, ["Charades_v1/3MSZA.mp4", "Charades_v1/AO8RW.mp4"]);
    const res = await loadBenchmark({ benchmark: "charades_sta", dir });
    expect(res.stats.variant).toBe("txt");
    expect(res.stats.warnings.join("\n")).toMatch(/no Charades_v1_test\.csv/);
    // the start past the end cannot be detected without lengths
    expect(res.samples.map((s) => s.key)).toContain("AO8RW#2");
    expect(res.samples.every((s) => s.durationS === undefined)).toBe(true);
  });

  it("reads the ActivityNet-style JSON variant", async () => {
    const dir = await tempDir();
    await write(dir, "charades_test.json", {
      "3MSZA": {
        duration: 31.96,
        timestamps: [
          [24.3, 30.4],
          [1, 0.5],
        ],
        sentences: ["person turn a light on.", "bad"],
      },
      AO8RW: { duration: 33, timestamps: [[0, 6.9]], sentences: ["one", "two"] },
    });
    await touchVideos(dir, ["videos/3MSZA.mp4"]);
    const res = await loadBenchmark({ benchmark: "charades_sta", dir });
    expect(res.stats.variant).toBe("json");
    expect(res.samples.map((s) => [s.key, s.answer, s.durationS])).toEqual([["3MSZA#0", "24.3-30.4", 31.96]]);
    expect(reasons(res.skipped)).toEqual({ bad_timestamps: 1, invalid_field: 1 });
  });

  it("names the line of a malformed annotation line and of a CSV without the length column", async () => {
    const dir = await tempDir();
    await write(dir, "charades_sta_test.txt", "3MSZA 24.3 30.4##ok\n3MSZA 24.3 person without times\n");
    await expect(loadBenchmark({ benchmark: "charades_sta", dir })).rejects.toThrow(
      /^charades_sta_test\.txt:2: expected "<video id> <start> <end>##<sentence>"/,
    );
    await write(dir, "charades_sta_test.txt", "3MSZA 24.3 30.4##ok\n");
    await write(dir, "Charades_v1_test.csv", "id,scene\n3MSZA,Kitchen\n");
    await expect(loadBenchmark({ benchmark: "charades_sta", dir })).rejects.toThrow(
      /^Charades_v1_test\.csv:1: expected a header with "id" and "length"/,
    );
  });
});
