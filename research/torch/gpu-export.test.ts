// The GPU trainer's contract with the core, checked where no GPU and no PyTorch are: the export
// carries the trainer's examples, and the numpy mirror of the model (parity_numpy.py, the
// same forward and batch assembly as train_sft.py) reproduces the core trainer's loss on the
// export's parity batch; a model.safetensors written by nano_data.py imports to a checkpoint
// with the same weights, and a file of another shape or origin is refused; the time shift of
// nano_data.py moves a `when` answer's times together with the tool responses' and trains only its
// answer turn; a letter drill trains only from the letter of its ": option X" on; the epoch's
// draws (Data.draw_pool) repeat what --repeat, --drill, --letter-drill and --repeat-rounds name.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { resolveConfig, writeSuite } from "@paravt/suite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultTokenizer, loadCheckpoint, TIME_PIECE_COUNT, TIME_TOKENIZER_VERSION } from "@paravt/nano";
import {
  exportGpuDataset,
  GPU_EXPORT_FORMAT,
  importGpuModel,
  letterDrillExamples,
  whenDrillExamples,
} from "./gpu-export";

const run = promisify(execFile);
// A version-1 checkpoint of the default's config (the default itself is version 2 since 2026-11-26).
const INIT = fileURLToPath(new URL("../../packages/nano/checkpoints/perception", import.meta.url));
const HERE = fileURLToPath(new URL(".", import.meta.url));
let root = "";
let suiteDir = "";
let data = "";
let exported: Awaited<ReturnType<typeof exportGpuDataset>>;

/** Runs Python in research/torch (where nano_data.py is importable). */
const python = (...args: string[]) => run("python3", args, { cwd: HERE, maxBuffer: 1 << 24 });

/** Writes `init`'s weights through nano_data.write_safetensors, with `transform` applied in Python. */
async function pythonModel(out: string, metadata: Record<string, string>, transform = "a") {
  const code = [
    "import sys, json, numpy as np",
    "from nano_data import read_safetensors, write_safetensors",
    "named, _ = read_safetensors(sys.argv[1])",
    `write_safetensors(sys.argv[2], [(n, (lambda n, a: ${transform})(n, a)) for n, a in named], json.loads(sys.argv[3]))`,
  ].join("\n");
  await python("-c", code, join(INIT, "model.safetensors"), out, JSON.stringify(metadata));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "nano-gpu-"));
  // Seed 8's `when` answers copy the tool responses' MM:SS times, which is what the time shift moves.
  const config = { minMinutes: 1, maxMinutes: 1, oracleStyle: { whenAnswer: "mmss" } } as const;
  suiteDir = (await writeSuite({ seed: 8, count: 1, out: join(root, "suite"), config })).dir;
  data = join(root, "data");
  exported = await exportGpuDataset({
    suiteDir,
    init: INIT,
    out: data,
    whenDrill: { seed: 9, videos: 3 },
    letterDrill: { seed: 9, videos: 4 },
  });
}, 120_000);
afterAll(async () => rm(root, { recursive: true, force: true }));

describe("exportGpuDataset", () => {
  it("writes every array at the size its meta names, with the trainer's eligibility per example", async () => {
    const meta = JSON.parse(await readFile(join(data, "meta.json"), "utf8"));
    expect(meta.format).toBe(GPU_EXPORT_FORMAT);
    expect(meta.tokens).toBe(exported.tokens);
    // Example i's id, one per row of examples.i32, all distinct (train_sft.py --batches names them).
    expect(meta.exampleIds).toHaveLength(exported.examples);
    expect(new Set(meta.exampleIds).size).toBe(exported.examples);
    const size = async (f: string) => (await stat(join(data, f))).size;
    expect(await size("examples.i32")).toBe(exported.examples * 8 * 4);
    expect(await size("ids.i16")).toBe(exported.tokens * 2);
    expect(await size("loss.u8")).toBe(exported.tokens);
    expect(await size("frame.i32")).toBe(exported.tokens * 4);
    expect(exported.frames).toBeGreaterThan(0);
    const table = new Int32Array((await readFile(join(data, "examples.i32"))).buffer.slice(0));
    const rows = Array.from({ length: exported.examples }, (_, x) => table.subarray(x * 8, x * 8 + 8));
    // Sub-agent examples are never permuted; some main-agent answers are (their answer turn).
    expect(rows.filter((r) => r[2] === 1).every((r) => r[4] === 2 ** 30 && r[5] === 2 ** 30)).toBe(true);
    expect(rows.some((r) => r[2] === 0 && r[4] === r[3])).toBe(true);
    expect(rows.reduce((s, r) => s + r[1]!, 0)).toBe(exported.tokens);
    // The drills: the last rows, the when drill's (kind 2, `when`) then the letter drill's (kind 3,
    // `scene_color` / `order`), their frame slots stand-ins among the export's frames.
    const drill = rows.filter((r) => r[2] === 2);
    const letter = rows.filter((r) => r[2] === 3);
    expect(exported.drillExamples).toBeGreaterThan(0);
    expect(drill).toHaveLength(exported.drillExamples);
    expect(exported.letterDrillExamples).toBeGreaterThan(0);
    expect(letter).toHaveLength(exported.letterDrillExamples);
    expect(rows.slice(-(drill.length + letter.length)).map((r) => r[2])).toEqual([
      ...drill.map(() => 2),
      ...letter.map(() => 3),
    ]);
    expect(drill.every((r) => r[6] === meta.templates.indexOf("when"))).toBe(true);
    const mcq = ["scene_color", "order"].map((t) => meta.templates.indexOf(t));
    expect(letter.every((r) => mcq.includes(r[6]!))).toBe(true);
    // A letter drill's answerFrom is the letter after its last " option": one of A-D, then the answer tag's.
    const ids = new Int16Array((await readFile(join(data, "ids.i16"))).buffer.slice(0));
    const tokenizer = defaultTokenizer();
    for (const r of letter) {
      const at = r[0]! + r[3]!;
      expect(tokenizer.decode([ids[at - 1]!])).toBe(" option");
      const rest = tokenizer.decode(ids.subarray(at, r[0]! + r[1]!), { controls: "name" });
      expect(rest).toMatch(/^ ([ABCD])\.\s*<\/think>\s*<answer>\1<\/answer>/);
      expect([r[4], r[5]].every((f) => f === r[3] || f === 2 ** 30)).toBe(true);
    }
    const frame = new Int32Array((await readFile(join(data, "frame.i32"))).buffer.slice(0));
    const ftarget = new Int16Array((await readFile(join(data, "ftarget.i16"))).buffer.slice(0));
    const slots = [...drill, ...letter].flatMap((r) => [...frame.subarray(r[0]!, r[0]! + r[1]!)].filter((f) => f >= 0));
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.every((f) => f < exported.frames)).toBe(true);
    expect(drill.every((r) => ftarget.subarray(r[0]!, r[0]! + r[1]!).every((t) => t === -1))).toBe(true);
  });

  it("finds the letter of a text-first answer (' (C)') as of a letter-first one (': option C')", async () => {
    const tokenizer = defaultTokenizer();
    const { config: model } = await loadCheckpoint(INIT, { moments: false });
    const config = resolveConfig({ minMinutes: 1, maxMinutes: 1, oracleStyle: { optionStyle: "text-first" } });
    const sft = { ks: [8], thinkPrefix: true, tokenizer, contextLength: model.contextLength };
    const drilled = letterDrillExamples(config, { seed: 9, videos: 4 }, sft);
    expect(drilled.length).toBeGreaterThan(0);
    for (const d of drilled) {
      if (d.kind !== 3) throw new Error("a letter drill example of another kind");
      expect(tokenizer.decode([d.example.ids[d.from - 1]!])).toBe(" (");
      const rest = tokenizer.decode(d.example.ids.subarray(d.from), { controls: "name" });
      expect(rest).toMatch(/^([ABCD])\)\.\s*<\/think>\s*<answer>\1<\/answer>/);
    }
  });

  it("adds crops-searched scene answers to the when drill only for a suite with sceneSearch crops", async () => {
    const tokenizer = defaultTokenizer();
    const { config: model } = await loadCheckpoint(INIT, { moments: false });
    const sft = { ks: [8], thinkPrefix: true, tokenizer, contextLength: model.contextLength };
    const style = { sceneAnswer: "quote", shapeSentence: "time-first" } as const;
    const base = { minMinutes: 1, maxMinutes: 1, oracleStyle: style } as const;
    const whenOnly = whenDrillExamples(resolveConfig(base), { seed: 9, videos: 6 }, sft);
    const withScenes = whenDrillExamples(
      resolveConfig({ ...base, oracleStyle: { ...style, sceneSearch: "crops" } }),
      { seed: 9, videos: 6 },
      sft,
    );
    expect(whenOnly.length).toBeGreaterThan(0);
    expect(whenOnly.every((d) => d.template === "when" && d.kind === 2)).toBe(true);
    expect(withScenes.filter((d) => d.template === "when")).toEqual(whenOnly);
    const scenes = withScenes.filter((d) => d.template !== "when");
    expect(scenes.length).toBeGreaterThan(0);
    for (const d of scenes) {
      const text = tokenizer.decode(d.example.ids, { controls: "name" });
      // Read through crops from 0 s (never from the stand-in overview), answered by a quote.
      expect(text).toMatch(/To find the \w+ scene I will look through the video at one frame per second: 0-/);
      expect(text).toMatch(/<think>\s*The background is (\w+) throughout\. An? [^]*That is the shape/);
    }
  });

  it("adds crops-searched order answers to the drill only for a suite with orderSearch crops", async () => {
    const tokenizer = defaultTokenizer();
    const { config: model } = await loadCheckpoint(INIT, { moments: false });
    const sft = { ks: [8], thinkPrefix: true, tokenizer, contextLength: model.contextLength };
    const style = { shapeSentence: "time-first", optionStyle: "text-first" } as const;
    const base = { minMinutes: 1, maxMinutes: 1, oracleStyle: style } as const;
    const whenOnly = whenDrillExamples(resolveConfig(base), { seed: 9, videos: 6 }, sft);
    const withOrder = whenDrillExamples(
      resolveConfig({ ...base, oracleStyle: { ...style, orderSearch: "crops" } }),
      { seed: 9, videos: 6 },
      sft,
    );
    expect(withOrder.filter((d) => d.template === "when")).toEqual(whenOnly);
    const order = withOrder.filter((d) => d.template !== "when");
    expect(order.length).toBeGreaterThan(0);
    for (const d of order) {
      expect(d).toMatchObject({ template: "order", kind: 2 });
      const text = tokenizer.decode(d.example.ids, { controls: "name" });
      expect(text).toMatch(/comes first I will look through the video from its start at one frame per second: 0-/);
      expect(text).toMatch(
        /<think>\s*The first of the four shapes in my crops: An? \w+ \w+ from [^]* So the \w+ \w+ came first \([A-D]\)\./,
      );
    }
  });

  it("the numpy mirror of the model reproduces the core trainer's loss on the parity batch", async () => {
    const { stdout } = await python("parity_numpy.py", "--data", data, "--init", join(INIT, "model.safetensors"));
    const rel = Number(/relative difference ([\d.e+-]+)/.exec(stdout)?.[1]);
    expect(rel).toBeLessThan(1e-4);
    expect(exported.parity.loss).toBeGreaterThan(0);
  }, 60_000);
});

/** Checks every eligible `when` example of the export under a forced time shift (Python raises on a violation). */
const SHIFT_CHECK = `
import sys, json, numpy as np
from nano_data import Data
d = Data(sys.argv[1])
out = {"when": 0, "shifted": 0, "moved": 0}
for x, (off, n, kind, answer_from, _, _, template, _) in enumerate(d.table):
    if kind != 0 or template != d.when:
        continue
    out["when"] += 1
    ids = d.ids[off : off + n]
    if d.time_shift(ids, n, off, answer_from, np.random.default_rng(0), 299) is None:
        continue
    tok, tgt, w, fr, cp, cd, ck = d.example(x, np.random.default_rng(x), 0, 0, p_shift=1.0)
    new = np.concatenate([tok, tgt[-1:]])
    before, after = d.times(ids, 0, n), d.times(new, 0, n)
    assert [i for i, _ in before] == [i for i, _ in after], "the times stay where they were"
    first = int(np.argmax(d.loss[off : off + n] > 0))
    moved = {b[1] - a[1] for a, b in zip(before, after) if a[1] != b[1] or a[0] >= first}
    assert len(moved) == 1, f"one offset for every response and answer time: {moved}"
    assert all(a[1] == b[1] for a, b in zip(before, after) if a[0] < first), "the first turn's times do not move"
    changed = np.nonzero(new != ids)[0]
    assert all(np.isin(ids[changed], d.digits)), "only digits change"
    wrote = {t for i, t in after if i >= answer_from}
    said = {t for i, t in after if first <= i < answer_from and d.loss[off + i] == 0}
    assert wrote and wrote <= said, "the answer's times are the responses' times"
    text = d.ftarget[off : off + n - 1] < 0  # frame targets (perception) train at every step
    assert not w[: answer_from - 1][text[: answer_from - 1]].any() and w[answer_from - 1 :].any(), "only the answer turn trains"
    assert ck.sum() == 4, "the key digits: the first time the answer writes"
    out["shifted"] += 1
    out["moved"] += int(moved != {0})
for x in np.nonzero(d.drill)[0]:  # a drill trains its answer turn (a letter drill its letter) on only
    off, n, kind, answer_from = d.table[x][:4]
    for p_shift, p_palette in ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)):
        tok, tgt, w = d.example(x, np.random.default_rng(x), p_palette, 0, p_shift=p_shift)[:3]
        assert not w[: answer_from - 1].any() and w[answer_from - 1 :].any(), "a drill trains its answer turn only"
        if kind == 3:  # its first trained target is the letter, which no permutation changes
            assert tgt[answer_from - 1] == d.ids[off + answer_from], "the letter is trained as written"
            d.letter_weight = 5.0  # train_sft.py --letter-weight scales only a letter drill's weights
            w5 = d.example(x, np.random.default_rng(x), p_palette, 0, p_shift=p_shift)[2]
            d.letter_weight = 1.0
            assert np.allclose(w5, 5 * w), "--letter-weight scales the letter drill's weights"
            d.letter_short = 1.0  # train_sft.py --letter-short: the prompt, then the answer turn
            ct, cg, cw = d.example(x, np.random.default_rng(x), p_palette, 0, p_shift=p_shift)[:3]
            d.letter_short = 0.0
            on = d.loss[off : off + n] > 0
            first, turns = int(np.argmax(on)), int((on[1:] & ~on[:-1]).sum()) + int(on[0])
            tail = len(ct) - first
            assert (0 < tail < len(tok) - first) if turns > 1 else len(ct) == len(tok), "the earlier turns are cut"
            assert np.array_equal(ct[:first], tok[:first]), "the prompt is kept"
            assert np.array_equal(ct[first:], tok[-tail:]), "the answer turn follows it"
            assert np.array_equal(cg[cw > 0], tgt[w > 0]) and np.allclose(cw[cw > 0], w[w > 0]), "the same targets train"
            out["cut"] = out.get("cut", 0) + int(turns > 1)
    key = "drill" if kind == 2 else "letter"
    out[key] = out.get(key, 0) + 1
print(json.dumps(out))
`;

describe("time shift and the drills (nano_data.py)", () => {
  it("moves a `when` answer's times with the tool responses' by one offset and trains only its answer turn", async () => {
    const { stdout } = await python("-c", SHIFT_CHECK, data);
    const r = JSON.parse(stdout) as {
      when: number;
      shifted: number;
      moved: number;
      drill: number;
      letter: number;
      cut: number;
    };
    expect(r.drill).toBe(exported.drillExamples);
    expect(r.letter).toBe(exported.letterDrillExamples);
    expect(r.cut).toBeGreaterThan(0); // drills with earlier turns, each under three augmentations
    expect(r.when).toBeGreaterThan(0);
    expect(r.shifted).toBeGreaterThan(0);
    expect(r.moved).toBeGreaterThan(0);
  }, 60_000);
});

/** Python: example x of `d` with a Data flag off, then on, from the same draws. */
const OFF_ON = `
def off_on(x, flag):
    arrays = []
    for on in (False, True):
        setattr(d, flag, on)
        arrays.append(d.example(x, np.random.default_rng(x), 0.5, 0, p_shift=1.0))
    return arrays
`;

/** Every example with and without time tokens (Python raises on a violation). */
const TIME_TOKEN_CHECK = `
import sys, json, numpy as np
from nano_data import Data, TIME_TOKENS
d = Data(sys.argv[1])
${OFF_ON}def expand(seq):  # a time token back to its five tokens
    out = []
    for v in seq:
        if v >= d.V:
            m, s = divmod(int(v) - d.V, 60)
            out += [d.digits[0], d.digits[m], d.colon, d.digits[s // 10], d.digits[s % 10]]
        else:
            out.append(int(v))
    return np.array(out)
out = {"examples": 0, "times": 0, "keys": 0}
for x in range(len(d.table)):
    arrays = off_on(x, "time_tokens")
    (tok, tgt, w, fr, _, _, ck), (tok2, tgt2, w2, fr2, _, _, ck2) = arrays
    spans = int((tok2 >= d.V).sum() + (tgt2[-1] >= d.V))
    assert len(tok) - len(tok2) == 4 * spans, "four positions fewer per time"
    assert ((tok2 < d.V + TIME_TOKENS) & (tgt2 < d.V + TIME_TOKENS)).all()
    text = tgt == np.concatenate([tok[1:], tgt[-1:]])  # not a frame target
    if text.all():
        assert np.array_equal(expand(np.concatenate([tok2, tgt2[-1:]])), np.concatenate([tok, tgt[-1:]])), "same text"
    assert (fr2 >= 0).sum() == (fr >= 0).sum(), "every frame slot kept"
    full = np.concatenate([tok, tgt[-1:]])
    firsts = [i for i, _ in d.times(full, 0, len(full))]
    assert len(firsts) == spans
    assert np.array_equal(w2[tgt2 >= d.V], w[np.array(firsts, dtype=int) - 1]), "a time token's weight is its first digit's"
    if ck.any():
        assert ck2.sum() == 1 and tgt2[ck2][0] >= d.V, "the key: the one position that predicts the first time"
        m, s = divmod(int(tgt2[ck2][0]) - d.V, 60)
        at = np.nonzero(ck)[0]
        assert [m // 10, m % 10, s // 10, s % 10] == list(d.digit_value[tgt[at]]), "the key time is the key digits"
        out["keys"] += 1
    out["examples"] += 1
    out["times"] += spans
print(json.dumps(out))
`;

/** Sub-agent summaries spelled (spell_sub_agents): their trained times stay digits, nothing else changes. */
const SPELLED_CHECK = `
import sys, json, numpy as np
from nano_data import Data
d = Data(sys.argv[1])
${OFF_ON}
d.time_tokens = True
out = {"sub": 0, "spelled": 0, "main": 0}
for x in range(len(d.table)):
    arrays = off_on(x, "spell_sub_agents")
    (tok, tgt, w, *_), (tok2, tgt2, w2, *_) = arrays
    if d.table[x][2] != 1:
        assert all(np.array_equal(a, b) for a, b in zip(*arrays)), "a main-agent example is unchanged"
        out["main"] += 1
        continue
    assert not ((tgt2 >= d.V) & (w2 > 0)).any(), "no trained target is a time token"
    assert (tok2[: int(np.argmax(w2 > 0))] >= d.V).sum() == (tok[: int(np.argmax(w > 0))] >= d.V).sum(), "the prompt keeps its time tokens"
    out["sub"] += 1
    out["spelled"] += int(((tgt >= d.V) & (w > 0)).sum())
print(json.dumps(out))
`;

describe("time tokens (nano_data.py, experiment)", () => {
  it("with spell_sub_agents, keeps a sub-agent summary's times as digits and its prompt's as tokens", async () => {
    const { stdout } = await python("-c", SPELLED_CHECK, data);
    const r = JSON.parse(stdout) as { sub: number; spelled: number; main: number };
    expect(r.sub).toBeGreaterThan(0);
    expect(r.main).toBeGreaterThan(0);
    expect(r.spelled).toBeGreaterThan(0);
  }, 60_000);

  it("turns each MM:SS into one token, keeping the text, the frame slots and the key", async () => {
    const { stdout } = await python("-c", TIME_TOKEN_CHECK, data);
    const r = JSON.parse(stdout) as { examples: number; times: number; keys: number };
    expect(r.examples).toBeGreaterThan(0);
    expect(r.times).toBeGreaterThan(r.examples);
    expect(r.keys).toBeGreaterThan(0);
  }, 60_000);
});

// Data.tool_rounds against the tool-call token, and Data.draw_pool (train_sft.py --repeat,
// --drill, --letter-drill, --repeat-rounds) against the counts each option names.
const POOL_CHECK = String.raw`
import sys, json, collections, numpy as np
from nano_data import Data
d, call = Data(sys.argv[1]), np.asarray(json.loads(sys.argv[2]))
out = {"main": 0, "multi": 0}
for x, (off, n, kind, *_) in enumerate(d.table):
    on = d.loss[off : off + n] > 0
    starts = [i for i in range(n) if on[i] and (i == 0 or not on[i - 1])]
    runs = [(a, a + int(np.argmin(np.append(on[a:], False)))) for a in starts]
    calls = sum(1 for a, b in runs if np.isin(d.ids[off + a : off + b], call).any())
    expected = calls if kind in (0, 2) else 0
    assert d.tool_rounds(x) == expected, (x, kind, d.tool_rounds(x), expected)
    out["main"] += int(kind == 0)
    out["multi"] += int(expected >= 2)
kinds = {0, 1, 2, 3}
tpl = d.meta["templates"]
base = collections.Counter(d.draw_pool(kinds).tolist())
assert sorted(base) == list(range(len(d.table))) and set(base.values()) == {1}, "every example once"
opts = dict(repeat={tpl[d.table[0][6]]: 3}, drill=2, letter_drill=4)
for r in (1, 2):
    got = collections.Counter(d.draw_pool(kinds, repeat_rounds=r, **opts).tolist())
    for x, row in enumerate(d.table):
        kind = int(row[2])
        n = opts["repeat"].get(tpl[row[6]], 1) if kind == 0 else {2: 2, 3: 4}.get(kind, 1)
        assert got[x] == n * (r if d.tool_rounds(x) >= 2 else 1), (x, r, got[x], n)
assert not len(d.draw_pool({3})) or set(d.table[d.draw_pool({3}), 2]) == {3}, "--kinds picks the kinds"
print(json.dumps(out))
`;

describe("multi-round trajectories (nano_data.py, train_sft.py --repeat-rounds)", () => {
  it("counts tool rounds and draws multi-round ones R times as often", async () => {
    // Every piece that holds the tag (the greedy match may join it to the newline before it).
    const tok = defaultTokenizer();
    const ids = Array.from({ length: tok.size }, (_, i) => i).filter((i) => !tok.isControl(i));
    const call = ids.filter((i) => tok.decode([i]).includes("<tool_call>"));
    expect(call.length).toBeGreaterThan(0);
    // Scenes and `when` searched through crops in 3-minute videos: some scan on after round 1 (0-80 s).
    const config = {
      minMinutes: 3,
      maxMinutes: 3,
      oracleStyle: { whenAnswer: "mmss", whenSearch: "crops", sceneSearch: "crops" },
    } as const;
    const crops = (await writeSuite({ seed: 8, count: 1, out: join(root, "suite-rounds"), config })).dir;
    const roundsData = join(root, "data-rounds");
    await exportGpuDataset({ suiteDir: crops, init: INIT, out: roundsData, whenDrill: { seed: 9, videos: 6 } });
    const r = JSON.parse((await python("-c", POOL_CHECK, roundsData, JSON.stringify(call))).stdout) as Record<
      string,
      number
    >;
    expect(r.main).toBeGreaterThan(0);
    expect(r.multi).toBeGreaterThan(0); // some trajectories (main agent or drill) take a second round
  }, 120_000);
});

describe("importGpuModel", () => {
  it("turns a model.safetensors written by nano_data.py into a checkpoint with the same weights", async () => {
    const file = join(root, "model.safetensors");
    await pythonModel(file, { dataset: exported.datasetHash, step: "7" });
    const out = join(root, "imported");
    await importGpuModel({ model: file, init: INIT, out, step: 7, seed: 21 });
    const [a, b] = await Promise.all([loadCheckpoint(out), loadCheckpoint(INIT, { moments: false })]);
    expect(a.training.step).toBe(7);
    expect(a.training.dataCursor.datasetHash).toBe(exported.datasetHash);
    expect(a.training.optimizer).toBeNull();
    for (const [name, t] of b.params) expect(a.params.get(name)!.data).toEqual(t.data);
  }, 60_000);

  it("turns a model grown by --time-tokens (600 more wte rows) into a checkpoint of tokenizer version 2", async () => {
    const file = join(root, "grown.safetensors");
    const grow =
      'np.concatenate([a, np.arange(600 * a.shape[1], dtype=np.float32).reshape(600, -1) / 1e4]) if n == "wte" else a';
    await pythonModel(file, { dataset: exported.datasetHash }, grow);
    const out = join(root, "grown");
    await importGpuModel({ model: file, init: INIT, out, step: 3, seed: 5 });
    const [a, b] = await Promise.all([loadCheckpoint(out), loadCheckpoint(INIT, { moments: false })]);
    expect(a.tokenizer.version).toBe(TIME_TOKENIZER_VERSION);
    expect(a.tokenizer.pieces).toEqual(b.tokenizer.pieces);
    expect(a.config.vocabSize).toBe(b.config.vocabSize + TIME_PIECE_COUNT);
    const wte = a.params.get("wte")!;
    const C = a.config.width;
    expect(wte.shape).toEqual([b.config.vocabSize + TIME_PIECE_COUNT, C]);
    expect(wte.data.subarray(0, b.config.vocabSize * C)).toEqual(b.params.get("wte")!.data);
    expect(wte.data[(b.config.vocabSize + 63) * C + 1]).toBeCloseTo((63 * C + 1) / 1e4, 6); // the row of "01:03"
    // The export writes version-1 ids: a version-2 init takes part as its version-1 part, which
    // here is INIT itself, so the parity batch is INIT's; parity_numpy.py cuts the file the same way.
    const again = await exportGpuDataset({
      suiteDir,
      init: out,
      out: join(root, "v2-export"),
      whenDrill: { seed: 9, videos: 3 },
    });
    expect(again.parity).toEqual(exported.parity);
    const meta = JSON.parse(await readFile(join(root, "v2-export", "meta.json"), "utf8")) as Record<string, unknown>;
    expect(meta.initTimePieces).toBe(true);
    expect(meta.vocabSize).toBe(b.config.vocabSize);
    const { stdout } = await python(
      "parity_numpy.py",
      "--data",
      join(root, "v2-export"),
      "--init",
      join(out, "model.safetensors"),
    );
    expect(Number(/relative difference ([\d.e+-]+)/.exec(stdout)?.[1])).toBeLessThan(1e-4);
  }, 60_000);

  it("refuses a file without the export's fingerprint, and one of another shape by tensor name", async () => {
    const bare = join(root, "bare.safetensors");
    await pythonModel(bare, {});
    await expect(importGpuModel({ model: bare, init: INIT, out: join(root, "x"), step: 1, seed: 1 })).rejects.toThrow(
      /no dataset fingerprint/,
    );
    const cut = join(root, "cut.safetensors");
    await pythonModel(cut, { dataset: exported.datasetHash }, 'a[:-1] if n == "wte" else a');
    await expect(importGpuModel({ model: cut, init: INIT, out: join(root, "y"), step: 1, seed: 1 })).rejects.toThrow(
      /wte/,
    );
  });
});
