import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, resolveConfig } from "./config";
import {
  ORACLE_KNOB_VALUES,
  ORACLE_KNOBS,
  ORACLE_PRESETS,
  OracleStyleError,
  oracleStyleFlag,
  parseOracleStyle,
  resolveOracleStyle,
  upgradeLegacyConfig,
  type OracleStyleInput,
} from "./oracle-style";
import { planSuite } from "./plan";
import { ManifestSchema } from "./schemas";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const jsonl = (rows: readonly unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** sha256 of the files writeSuite writes for a plan (annotations concatenated in id order, as `cat annotations/*`). */
function fileHashes(seed: number, count: number, oracleStyle: OracleStyleInput) {
  const plan = planSuite({ seed, count, config: { oracleStyle } });
  return {
    questions: sha(jsonl(plan.questions)),
    oracle: sha(jsonl(plan.oracle)),
    rl: sha(jsonl(plan.rl)),
    annotations: sha(plan.videos.map((a) => JSON.stringify(a, null, 2) + "\n").join("")),
  };
}

describe("oracle style presets", () => {
  it("reference is every knob's first value, the config's default; nano-default is the shipped checkpoint's last stage", () => {
    for (const k of ORACLE_KNOBS) expect(ORACLE_PRESETS.reference[k]).toBe(ORACLE_KNOB_VALUES[k][0]);
    expect(DEFAULT_CONFIG.oracleStyle).toEqual(ORACLE_PRESETS.reference);
    expect(ORACLE_PRESETS["nano-default"]).toEqual({
      whenAnswer: "mmss",
      whenSearch: "crops",
      sceneSearch: "crops",
      orderSearch: "crops",
      shapeSentence: "time-first",
      sceneAnswer: "quote",
      optionStyle: "text-first",
    });
  });

  // The files `paravt suite generate` wrote before the style was one field (commit 367b6d8), with
  // no style flag, with the seven flags of nano-default, and with two subsets of the lineage's
  // earlier stages. A change here changes every suite generated with that style.
  it("write byte for byte the files the old per-knob flags wrote", () => {
    expect(fileHashes(11, 30, "reference")).toEqual({
      questions: "58f60adf19bbc39fae89a97cdd04900c1cd6aac326e15653a441ca2201cab780",
      oracle: "6bde734dce4ca9338ee80f2589f091ccdf6588fa253768dee182e44ed17067e6",
      rl: "3900018a2d2fe185dbc1ddfccf0f45acd9bd80324a74c9a4561fef7f6da6bab5",
      annotations: "4e2c79fd1aed87050c3b5666ae0cdcb98e8fd35c912194cef3f1e55b21d4dba1",
    });
    // --when-answer mmss --when-search crops --scene-search crops --order-search crops
    // --shape-sentence time-first --scene-answer quote --option-style text-first
    expect(fileHashes(11, 30, "nano-default")).toEqual({
      questions: "99127838fdefa18e321423bf91248da9d35bf5b9f53dea1271e68706dfea79fa",
      oracle: "c9d06d9102bf0c39c2556accbc164b2054ab81fd8f997c1b75490d715697d0ad",
      rl: "82e5c4269316e4679fbcf906646b0d8743fcc36d671a86f25e931101e9365bfb",
      annotations: "4e2c79fd1aed87050c3b5666ae0cdcb98e8fd35c912194cef3f1e55b21d4dba1",
    });
    // --when-answer mmss --when-search crops
    expect(fileHashes(5, 12, { whenAnswer: "mmss", whenSearch: "crops" })).toEqual({
      questions: "03d4223488bb26a7966e98431184dcb26631169a7178320d9f15829175dd6b86",
      oracle: "3989233358d1082d70316d5fa248cf9422065e523111f824e9b3f9fa88ed4d8b",
      rl: "c1151077af2a288e437e7a2dcb5ed456359e21af9e7302be2f80111f2e68b023",
      annotations: "e7a39bd588d99eb57c9958694bc8049c6a61832899d1e946be9712062e2b810e",
    });
    // --scene-answer quote --order-search crops
    expect(fileHashes(5, 12, { sceneAnswer: "quote", orderSearch: "crops" }).oracle).toBe(
      "c09b5022b9010b5d9ef8f2deaf648adf422520d9c54872c10040a3665d228c59",
    );
  });

  it("resolve a preset name and its explicit knobs to the same plan", () => {
    const named = planSuite({ seed: 4, count: 3, config: { oracleStyle: "nano-default" } });
    const explicit = planSuite({ seed: 4, count: 3, config: { oracleStyle: { ...ORACLE_PRESETS["nano-default"] } } });
    expect(named).toEqual(explicit);
    expect(named.config.oracleStyle).toEqual(ORACLE_PRESETS["nano-default"]);
  });

  it("fill a partial style from reference, keys in schema order, and refuse unknown knobs and values", () => {
    const style = resolveOracleStyle({ optionStyle: "text-first", whenAnswer: "mmss" });
    expect(Object.keys(style)).toEqual(ORACLE_KNOBS);
    expect(style).toEqual({ ...ORACLE_PRESETS.reference, whenAnswer: "mmss", optionStyle: "text-first" });
    expect(resolveConfig({ oracleStyle: { whenAnswer: "mmss" } }).oracleStyle.whenSearch).toBe("overview");
    expect(() => resolveConfig({ oracleStyle: "fast" as "reference" })).toThrow();
    expect(() => resolveConfig({ oracleStyle: { whenAnswer: "hhmmss" as "mmss" } })).toThrow();
    expect(() => resolveConfig({ oracleStyle: { describeOverview: true } as never })).toThrow();
    expect(() => resolveConfig({ whenAnswer: "mmss" } as never)).toThrow();
  });
});

describe("parseOracleStyle (the CLI's --oracle-style)", () => {
  it("reads a preset, knob=value pairs over reference, or a preset then pairs", () => {
    expect(parseOracleStyle("nano-default")).toEqual(ORACLE_PRESETS["nano-default"]);
    expect(parseOracleStyle("reference")).toEqual(ORACLE_PRESETS.reference);
    expect(parseOracleStyle("when-answer=mmss,when-search=crops")).toEqual(
      resolveOracleStyle({ whenAnswer: "mmss", whenSearch: "crops" }),
    );
    expect(parseOracleStyle("reference,when-answer=mmss")).toEqual(resolveOracleStyle({ whenAnswer: "mmss" }));
    expect(parseOracleStyle("nano-default, option-style=letter-first")).toEqual({
      ...ORACLE_PRESETS["nano-default"],
      optionStyle: "letter-first",
    });
    const all = ORACLE_KNOBS.map(
      (k) => `${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}=${ORACLE_PRESETS["nano-default"][k]}`,
    );
    expect(parseOracleStyle(all.join(","))).toEqual(ORACLE_PRESETS["nano-default"]);
  });

  it("is inverted by oracleStyleFlag, which names a preset when the style is one", () => {
    expect(oracleStyleFlag(ORACLE_PRESETS["nano-default"])).toBe("nano-default");
    expect(oracleStyleFlag(ORACLE_PRESETS.reference)).toBe("reference");
    const some = resolveOracleStyle({ whenAnswer: "mmss", shapeSentence: "time-first" });
    expect(oracleStyleFlag(some)).toBe("when-answer=mmss,shape-sentence=time-first");
    for (const text of ["nano-default", "reference", "when-answer=mmss,when-search=crops", "option-style=text-first"])
      expect(oracleStyleFlag(parseOracleStyle(text))).toBe(text);
  });

  it("names what is allowed when a preset, knob or value is wrong", () => {
    const cases: [string, RegExp][] = [
      ["fast", /^unknown preset "fast" \(presets: reference, nano-default; or knob=value, knobs: when-answer, /],
      [
        "when=mmss",
        /^unknown knob "when" \(knobs: when-answer, when-search, scene-search, order-search, shape-sentence, scene-answer, option-style\)$/,
      ],
      ["when-answer=hhmmss", /^when-answer must be seconds or mmss \(got hhmmss\)$/],
      ["when-answer=", /^when-answer must be seconds or mmss \(got nothing\)$/],
      ["describe-overview=true", /^unknown knob "describe-overview"/],
      ["mcq-answer=scan", /^unknown knob "mcq-answer"/],
      ["when-answer=mmss,nano-default", /^a preset may only come first/],
      ["when-answer=mmss,when-answer=seconds", /^when-answer is given twice$/],
      ["reference,,when-answer=mmss", /^empty item/],
      ["", /^empty item/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseOracleStyle(text), text).toThrow(OracleStyleError);
      expect(() => parseOracleStyle(text), text).toThrow(message);
    }
  });
});

describe("manifests written before oracleStyle", () => {
  // The config of a manifest written by commit 367b6d8 with the seven nano-default flags.
  const flat = {
    whenAnswer: "mmss",
    whenSearch: "crops",
    sceneSearch: "crops",
    orderSearch: "crops",
    shapeSentence: "time-first",
    describeOverview: false,
    sceneAnswer: "quote",
    mcqAnswer: "letter",
    optionStyle: "text-first",
  };
  const legacy = Object.fromEntries(
    Object.entries(DEFAULT_CONFIG).flatMap(([k, v]): [string, unknown][] =>
      k === "oracleStyle" ? Object.entries(flat) : [[k, v]],
    ),
  );

  it("read with their flat knobs as the oracle style, the removed ones dropped", () => {
    const upgraded = upgradeLegacyConfig(legacy) as Record<string, unknown>;
    expect(upgraded.oracleStyle).toEqual(ORACLE_PRESETS["nano-default"]);
    expect(resolveConfig(upgraded as never)).toEqual(resolveConfig({ oracleStyle: "nano-default" }));
    // Where the flat knobs stood: after `templates`, before `crf`.
    expect(Object.keys(upgraded)).toEqual(Object.keys(DEFAULT_CONFIG));
    // Older manifests hold fewer knobs (or none): the rest are reference's.
    expect(resolveConfig(upgradeLegacyConfig({ minMinutes: 2, optionStyle: "text-first" }) as never)).toEqual(
      resolveConfig({ minMinutes: 2, oracleStyle: { optionStyle: "text-first" } }),
    );
    expect(resolveConfig(upgradeLegacyConfig({ describeOverview: true, mcqAnswer: "scan" }) as never)).toEqual(
      DEFAULT_CONFIG,
    );
    // Current configs and non-objects pass through untouched.
    const current = { minMinutes: 1, oracleStyle: "nano-default" };
    expect(upgradeLegacyConfig(current)).toBe(current);
    expect(upgradeLegacyConfig(null)).toBeNull();
    // Bad old values still fail the schema, under oracleStyle.
    const bad = ManifestSchema.shape.config.safeParse(upgradeLegacyConfig({ ...legacy, whenAnswer: "hhmmss" }));
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path[0]).toBe("oracleStyle");
  });
});
