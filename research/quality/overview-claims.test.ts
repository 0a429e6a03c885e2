import { planSuite, type OracleRow } from "@paravt/suite";
import { describe, expect, it } from "vitest";
import { addClaims, noClaims, overviewClaims } from "./overview-claims";

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
