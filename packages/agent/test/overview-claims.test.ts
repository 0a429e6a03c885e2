import { planSuite, type OracleRow } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { addClaims, noClaims, overviewClaims } from "../scripts/overview-claims";

// The suite oracle only states what its overview frames show, so every claim it makes is right:
// the parser must find them (stated > 0) and the check must agree (right = stated).
const plan = planSuite({ seed: 3, count: 40 });
const videos = new Map(plan.videos.map((v) => [v.id, v]));
const firstTurn = (o: OracleRow) => o.turns.find((t) => t.role === "assistant")!.content;

describe("overviewClaims", () => {
  it("finds the oracle's background and shape claims and checks them right", () => {
    const total = noClaims();
    for (const o of plan.oracle)
      addClaims(total, overviewClaims(firstTurn(o), videos.get(o.videoId)!, o.overviewTimestamps));
    expect(total.background.stated).toBeGreaterThan(50);
    expect(total.shape.stated).toBeGreaterThan(50);
    expect(total.background.right).toBe(total.background.stated);
    expect(total.shape.right).toBe(total.shape.stated);
    // A blind claim is right less often than the oracle's.
    expect(total.background.chance).toBeLessThan(total.background.stated);
    expect(total.shape.chance).toBeLessThan(total.shape.stated);
  });

  it("counts a claim about the wrong frames as wrong, and ignores times that are no overview frame", () => {
    const o = plan.oracle.find((r) => /background shows at \d+ s, /.test(firstTurn(r)))!;
    const video = videos.get(o.videoId)!;
    const [, color, list] = /(\w+) background shows at ([^,]+ s(?:, \d+(?:\.\d)? s)*)/.exec(firstTurn(o))!;
    const wrong = o.overviewTimestamps
      .filter((t) => !list!.split(", ").includes(`${t} s`))
      .filter((t) => {
        const scene = video.scenes.find((s) => s.start <= t && t < s.end)!;
        return scene.color !== color;
      });
    expect(wrong.length).toBeGreaterThan(0);
    const claim = `The ${color} background shows at ${wrong.map((t) => `${t} s`).join(", ")}, but no shape appears there.`;
    expect(overviewClaims(claim, video, o.overviewTimestamps).background).toMatchObject({
      stated: wrong.length,
      right: 0,
    });
    const offFrame = `The ${color} background shows at 100000 s, but no shape appears there.`;
    expect(overviewClaims(offFrame, video, o.overviewTimestamps).background.stated).toBe(0);
  });
});

describe("overviewClaims on overview notes (describeOverview)", () => {
  const noted = planSuite({ seed: 3, count: 40, config: { describeOverview: true } });

  it("checks every note of the oracle's first turns right", () => {
    const total = noClaims();
    for (const o of noted.oracle)
      addClaims(total, overviewClaims(firstTurn(o), videos.get(o.videoId)!, o.overviewTimestamps));
    expect(total.notes.notes).toBeGreaterThan(1000);
    expect(total.notes.backgroundRight).toBe(total.notes.notes);
    expect(total.notes.shapeRight).toBe(total.notes.notes);
  });

  it("counts a wrong background or shape, a missed shape and a shape where there is none", () => {
    const o = noted.oracle.find((r) => r.k === 8 && /My frames: .*with a.*; \d+ s \w+;/.test(firstTurn(r)))!;
    const video = videos.get(o.videoId)!;
    const line = /My frames: .*\./.exec(firstTurn(o))![0];
    const notes = line
      .replace(/^My frames: /, "")
      .replace(/\.$/, "")
      .split("; ");
    const withShape = notes.findIndex((n) => n.includes(" with a"));
    const without = notes.findIndex((n) => !n.includes(" with a"));
    const broken = [...notes];
    broken[withShape] = broken[withShape]!.replace(/ with an? .*$/, ""); // shape missed
    broken[without] = `${broken[without]} with a red square in the center`; // shape invented
    const [t, scene] = broken[0]!.split(" s ");
    broken[0] = `${t} s ${scene!.startsWith("teal") ? scene!.replace(/^teal/, "gray") : scene!.replace(/^\w+/, "teal")}`;
    const got = overviewClaims(`My frames: ${broken.join("; ")}.\n`, video, o.overviewTimestamps).notes;
    expect(got.notes).toBe(8);
    expect(got.backgroundRight).toBe(7);
    expect(got.shapeRight).toBe(6);
  });

  it("checks the later background claims against the turn's own notes", () => {
    const o = noted.oracle.find((r) => r.k === 8 && /My frames: /.test(firstTurn(r)))!;
    const line = /My frames: .*\./.exec(firstTurn(o))![0];
    const [t, scene] = line
      .replace(/^My frames: /, "")
      .split("; ")[0]!
      .split(" s ");
    const noted0 = /^\w+/.exec(scene!)![0];
    const other = noted0 === "teal" ? "gray" : "teal";
    const text = `${line}\nThe ${noted0} background shows at ${t} s. The ${other} background shows at ${t} s, 9999 s.`;
    const got = overviewClaims(text, videos.get(o.videoId)!, o.overviewTimestamps).agreesWithNotes;
    expect(got.stated).toBe(2); // 9999 s is no noted frame
    expect(got.right).toBe(1);
  });
});
