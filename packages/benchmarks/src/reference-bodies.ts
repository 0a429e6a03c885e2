// The reference evaluator's question text for one published row, without its mode-dependent
// instruction (`metadata.reference.questionBody`, see ./reference-question.ts): what
// paravt/eval/utils.py::load_samples (EvolvingLMMs-Lab/ParaVT, lines 211-461) builds from the SAME
// row, byte for byte. Each builder takes the row's raw values (never our trimmed or letter-stripped
// copies) and follows its dataset's lines of utils.py exactly, including what looks like a slip:
// Video-MME's options already read "A. …" and get a second "A. " prefix ("A. A. …").
//
// The reference formats values with Python's f-strings; every field involved is a string column in
// the reference's source, so a value of another type (which Python would print as e.g. "None" or
// "1.0") is not reproduced: the builder says why and the sample carries no reference text.
// Pure (no Node built-ins).

export type ReferenceBody = { ok: true; body: string } | { ok: false; why: string };

const ok = (body: string): ReferenceBody => ({ ok: true, body });
const no = (why: string): ReferenceBody => ({ ok: false, why });

const kindOf = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "list" : typeof v);

/** `"\n".join(f"{chr(65 + i)}. {o}" for i, o in enumerate(opts))`, strings only. */
function letteredLines(options: readonly unknown[], what: string): ReferenceBody {
  const lines: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const o = options[i];
    if (typeof o !== "string") return no(`${what} ${i + 1} is ${kindOf(o)}, not text`);
    lines.push(`${String.fromCharCode(65 + i)}. ${o}`);
  }
  return ok(lines.join("\n"));
}

/** `f"Question: {item['question']}\nOptions:\n{opts_str}"`, the shape shared by four datasets. */
function questionAndOptions(question: unknown, optionLines: ReferenceBody): ReferenceBody {
  if (typeof question !== "string") return no(`question is ${kindOf(question)}, not text`);
  if (!optionLines.ok) return optionLines;
  return ok(`Question: ${question}\nOptions:\n${optionLines.body}`);
}

/**
 * videomme (utils.py lines 227-253) and videomme_wsub (255-290): `options` is a list column whose
 * strings already start with their letter; the reference letters them again. With subtitles,
 * `f"This video's subtitles are listed below:\n{sub_text}\n\n"` comes first when parse_srt gave
 * text (`subtitleText` from ./reference-srt.ts; "" for no file).
 */
export function videoMmeBody(question: unknown, options: unknown, subtitleText = ""): ReferenceBody {
  // `str(opts)` of a non-list is Python's repr of whatever it is; not reproduced.
  if (!Array.isArray(options)) return no(`options are ${kindOf(options)}, not a list`);
  const body = questionAndOptions(question, letteredLines(options, "option"));
  if (!body.ok || subtitleText === "") return body;
  return ok(`This video's subtitles are listed below:\n${subtitleText}\n\n${body.body}`);
}

/**
 * longvideobench (lines 293-318): option0 … option4, each kept when truthy and not "N/A"
 * (`if opt and opt != "N/A"`), lettered from A. `options` are those five raw values in order (for
 * `lvb_val.json`, its `candidates`: the parquet's option columns before the "N/A" padding).
 */
export function longVideoBenchBody(question: unknown, options: readonly unknown[]): ReferenceBody {
  const kept = options.filter((o) => o !== null && o !== undefined && o !== "" && o !== "N/A");
  return questionAndOptions(question, letteredLines(kept, "kept option"));
}

/** lvbench (lines 320-334): `f"{item['question']}"`, whose text already holds the "(A) …" lines. */
export function lvBenchBody(question: unknown): ReferenceBody {
  return typeof question === "string" ? ok(question) : no(`question is ${kindOf(question)}, not text`);
}

/** mlvu (lines 336-374): the `candidates` list lettered from A. */
export function mlvuBody(question: unknown, candidates: unknown): ReferenceBody {
  if (!Array.isArray(candidates)) return no(`candidates are ${kindOf(candidates)}, not a list`);
  return questionAndOptions(question, letteredLines(candidates, "candidate"));
}

/** Python truthiness of a JSON value. */
const pyFalsy = (v: unknown): boolean =>
  v === null ||
  v === undefined ||
  v === false ||
  v === 0 ||
  v === "" ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && Object.keys(v).length === 0);

/** Python's default string order: by code point (JavaScript's `<` compares UTF-16 units). */
function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0)!);
  const y = Array.from(b, (c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * mmvu (lines 376-429): `choices = item.get("choices", {}) or {}`, then
 * `"\n".join(f"{k}. {v}" for k, v in sorted(choices.items()) if v not in (None, ""))`: letters as
 * the keys say, empty and null choices skipped, so an open-ended row reads "…\nOptions:\n".
 */
export function mmvuBody(question: unknown, choices: unknown): ReferenceBody {
  if (pyFalsy(choices)) return questionAndOptions(question, ok(""));
  if (typeof choices !== "object" || Array.isArray(choices) || choices === null) {
    // `.items()` of a list or a string raises: the reference cannot load such a row.
    return no(`choices are ${kindOf(choices)}; the reference reads a dict (choices.items())`);
  }
  const lines: string[] = [];
  for (const k of Object.keys(choices).sort(byCodePoint)) {
    const v = (choices as Record<string, unknown>)[k];
    if (v === null || v === "") continue;
    if (typeof v !== "string") return no(`choice ${k} is ${kindOf(v)}, not text`);
    lines.push(`${k}. ${v}`);
  }
  return questionAndOptions(question, ok(lines.join("\n")));
}

/** charades (lines 431-461): the fixed grounding request around the caption, copied character for character. */
export function charadesBody(caption: unknown): ReferenceBody {
  if (typeof caption !== "string") return no(`caption is ${kindOf(caption)}, not text`);
  return ok(
    "Please find the visual event described by a sentence in the video, " +
      "determining its starting and ending times. The format should be: " +
      "'The event happens in the start time - end time'. " +
      "For example, The event 'person turn a light on' happens in the 24.3 - 30.4 seconds. " +
      `Now I will give you the textual sentence: "${caption}". ` +
      "Please return its start time and end time.",
  );
}
