import type { EpisodePromptsOutput, EpisodeTextField, EvalEpisodeOutput } from "@paravt/shared";

// The episode's full transcript (issue 41 item 12): everything about what the model read and
// wrote, in order, one section per text. The runner stores the turns, calls, sub-agent outputs
// and tool responses, not the prompts; for an episode the workbench ran, `evals.episodePrompts`
// renders them (system prompt, the user prompt around the frames, the final-answer request,
// every sub-agent prompt) with the runner's own template functions, and they join the sections.
// Without them (an imported or ingested run, or still loading) the question stands for the user
// prompt and a note says why.

type Turn = EvalEpisodeOutput["turns"][number];
type Call = Turn["toolCalls"][number];

export type TranscriptRole =
  "system" | "user" | "assistant" | "tool call" | "sub-agent prompt" | "sub-agent output" | "tool";

/** A count of a section: stored engine tokens, or the text's characters when no count was stored. */
export interface TranscriptCount {
  value: number;
  /** "tokens": stored engine counts, or the nano tokenizer's count of a rendered prompt's text. */
  unit: "tokens" | "chars";
  /** What is counted ("completion", "prompt", …); empty for the text itself. */
  what: string;
}

/** Where `evals.episodeText` serves the section's whole text, and which key of it when JSON. */
export interface TranscriptTextRef {
  field: EpisodeTextField;
  turn?: number;
  call?: number;
  /** The text is this key of the field's JSON (a tool response inside a call's `details`). */
  key?: string;
}

export interface TranscriptSection {
  /**
   * Stable id: `system`, `question` (the user prompt), `turn-<t>.final-request`, `turn-<t>`,
   * `turn-<t>.call-<c>.prompt|subagent|output|response`, `final`.
   */
  id: string;
  role: TranscriptRole;
  title: string;
  /** The text as the episode answer gives it: whole, or a preview when `clippedLength` is set. */
  text: string;
  /** The stored text's full length (of the field's JSON when `ref.key` is set) when `text` is a preview. */
  clippedLength?: number;
  /** Where a stored text is served whole; absent for a rendered prompt (never a preview). */
  ref?: TranscriptTextRef;
  counts: TranscriptCount[];
  note?: string;
}

type Prompts = Extract<EpisodePromptsOutput, { available: true }>;

/** A rendered prompt's count: nano tokenizer tokens ("prompt text" tokens) or characters. */
function promptCount(c: Prompts["user"]["count"]): TranscriptCount {
  return { value: c.value, unit: c.unit, what: c.unit === "tokens" ? "text" : "" };
}

/** Where the frames were in a rendered prompt (they are not text). */
const framesMarker = (n: number, what: string) =>
  `[${n} ${what} frame${n === 1 ? "" : "s"}, each after its <t seconds> text]`;

const chars = (text: string, full?: number): TranscriptCount => ({
  value: full ?? text.length,
  unit: "chars",
  what: "",
});

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The engine counts stored with a sub-agent call (`details.tokens`), when there are any. */
function callTokens(c: Call): { prompt: number; completion: number } | null {
  const t = record(record(c.details).tokens);
  return typeof t.prompt === "number" && typeof t.completion === "number"
    ? { prompt: t.prompt, completion: t.completion }
    : null;
}

function questionText(e: EvalEpisodeOutput): string {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const options = (e.sample.options ?? []).map((o, i) => `${letters[i] ?? i + 1}. ${o}`);
  return options.length ? `${e.sample.question}\n${options.join("\n")}` : e.sample.question;
}

/** Without rendered prompts: the question stands for the user prompt, with why. */
function questionSection(e: EvalEpisodeOutput, prompts: EpisodePromptsOutput | undefined): TranscriptSection {
  const firstPrompt = e.turns[0]?.promptTokens;
  const question = questionText(e);
  const qClipped = e.sample.clipped?.question;
  const why = prompts === undefined ? "The prompts are being rendered." : prompts.available ? "" : prompts.reason;
  return {
    id: "question",
    role: "user",
    title: "User prompt: the question",
    text: question,
    ...(qClipped !== undefined && !e.sample.options?.length ? { clippedLength: qClipped } : {}),
    ref: { field: "question" },
    counts: [chars(question, e.sample.options?.length ? undefined : qClipped)],
    note:
      why +
      (typeof firstPrompt === "number"
        ? ` Turn 1's ${firstPrompt.toLocaleString("en-US")} engine prompt tokens include the prompts and the frames.`
        : ""),
  };
}

/** The rendered system prompt and first user prompt (the K overview frames marked where they go). */
function renderedHead(e: EvalEpisodeOutput, p: Prompts): TranscriptSection[] {
  const origin =
    `Rendered from the "${p.preset}" preset's templates (mode ${p.mode}, ${p.requestStyle} request` +
    `${p.overridden.length ? `, the run's own ${p.overridden.join(", ")}` : ""}); ` +
    (p.tokenizer
      ? `counted by the ${p.tokenizer}.`
      : "counted in characters (the model's tokenizer is not known here).");
  const firstPrompt = e.turns[0]?.promptTokens;
  const out: TranscriptSection[] = [];
  if (p.system) {
    out.push({
      id: "system",
      role: "system",
      title: "System prompt",
      text: p.system.text,
      counts: [promptCount(p.system.count)],
      note: origin,
    });
  }
  out.push({
    id: "question",
    role: "user",
    title: "User prompt (turn 1)",
    text: `${p.user.before}${framesMarker(p.user.frames, "overview")}${p.user.after}`,
    counts: [
      promptCount(p.user.count),
      ...(typeof firstPrompt === "number"
        ? [{ value: firstPrompt, unit: "tokens" as const, what: "engine prompt" }]
        : []),
    ],
    note:
      (p.system ? "" : `No system prompt is sent in this preset and mode. ${origin} `) +
      (typeof firstPrompt === "number" ? "The engine's prompt count also holds the system prompt and the frames." : ""),
  });
  return out;
}

/** The episode (its pages joined) as its ordered transcript sections. */
export function buildTranscript(e: EvalEpisodeOutput, prompts?: EpisodePromptsOutput): TranscriptSection[] {
  const p = prompts?.available ? prompts : null;
  const out: TranscriptSection[] = p ? renderedHead(e, p) : [questionSection(e, prompts)];
  const subPrompts = new Map((p?.subAgents ?? []).map((s) => [`${s.turn}.${s.call}`, s]));
  for (const t of e.turns) {
    const n = t.index + 1;
    if (p?.finalAnswer && t.forcedFinal) {
      out.push({
        id: `turn-${t.index}.final-request`,
        role: "user",
        title: `Final-answer request before turn ${n}`,
        text: p.finalAnswer.text,
        counts: [promptCount(p.finalAnswer.count)],
        note:
          p.finalAnswer.placement === "appended"
            ? "Appended on a new line to the last user turn when the tool rounds were used up (SPEC §5)."
            : "Sent as a user turn of its own (the reference evaluator's request).",
      });
    }
    const turnCounts: TranscriptCount[] =
      t.completionTokens !== null
        ? [
            { value: t.completionTokens, unit: "tokens", what: "completion" },
            ...(t.promptTokens !== null ? [{ value: t.promptTokens, unit: "tokens" as const, what: "prompt" }] : []),
          ]
        : [chars(t.rawText, t.clipped?.rawText)];
    out.push({
      id: `turn-${t.index}`,
      role: "assistant",
      title: `Assistant turn ${n}${t.forcedFinal ? " (forced final answer)" : ""}`,
      text: t.rawText,
      ...(t.clipped?.rawText !== undefined ? { clippedLength: t.clipped.rawText } : {}),
      ref: { field: "rawText", turn: t.index },
      counts: turnCounts,
      ...(t.forcedPrefix ? { note: `Generated after the forced prefix "${t.forcedPrefix}".` } : {}),
    });
    for (const c of t.toolCalls) {
      const where = `Turn ${n} · call ${c.index + 1}`;
      const base = `turn-${t.index}.call-${c.index}`;
      const tokens = callTokens(c);
      const args = JSON.stringify(c.arguments ?? null);
      out.push({
        id: `${base}.prompt`,
        role: "tool call",
        title: `${where} · ${c.name || "tool"} arguments${tokens ? " (sub-agent prompt)" : ""}`,
        text: args,
        ...(c.clipped?.arguments !== undefined ? { clippedLength: c.clipped.arguments } : {}),
        ref: { field: "arguments", turn: t.index, call: c.index },
        counts: [
          chars(args, c.clipped?.arguments),
          ...(tokens ? [{ value: tokens.prompt, unit: "tokens" as const, what: "sub-agent prompt" }] : []),
        ],
        ...(tokens && !subPrompts.has(`${t.index}.${c.index}`)
          ? { note: "The sub-agent's prompt is filled from these arguments; its template text is not stored." }
          : {}),
      });
      const sp = subPrompts.get(`${t.index}.${c.index}`);
      if (sp) {
        const text = `${sp.system ? `${sp.system.text}\n\n` : ""}${framesMarker(sp.frames, "window")}${sp.text}`;
        out.push({
          id: `${base}.subagent`,
          role: "sub-agent prompt",
          title: `${where} · sub-agent prompt${sp.system ? " (system, then user)" : ""}`,
          text,
          counts: [
            promptCount(sp.count),
            ...(sp.system ? [{ ...promptCount(sp.system.count), what: "system text" }] : []),
            ...(tokens ? [{ value: tokens.prompt, unit: "tokens" as const, what: "engine prompt" }] : []),
          ],
          note: "Rendered from the run's templates for this window (the runner keeps no copy of the text it sent).",
        });
      }
      if (c.subAgentOutput !== null) {
        out.push({
          id: `${base}.output`,
          role: "sub-agent output",
          title: `${where} · sub-agent output`,
          text: c.subAgentOutput,
          ...(c.clipped?.subAgentOutput !== undefined ? { clippedLength: c.clipped.subAgentOutput } : {}),
          ref: { field: "subAgentOutput", turn: t.index, call: c.index },
          counts: tokens
            ? [{ value: tokens.completion, unit: "tokens", what: "completion" }]
            : [chars(c.subAgentOutput, c.clipped?.subAgentOutput)],
        });
      }
      const response = record(c.details).response;
      if (typeof response === "string") {
        out.push({
          id: `${base}.response`,
          role: "tool",
          title: `${where} · tool response`,
          text: response,
          ...(c.clipped?.details !== undefined ? { clippedLength: c.clipped.details } : {}),
          ref: { field: "details", turn: t.index, call: c.index, key: "response" },
          // A clipped `details` is the length of its JSON, not of the response: count the preview only then.
          counts: [chars(response)],
        });
      } else if (c.error !== null) {
        out.push({
          id: `${base}.response`,
          role: "tool",
          title: `${where} · error (${c.status.toLowerCase()})`,
          text: c.error,
          ...(c.clipped?.error !== undefined ? { clippedLength: c.clipped.error } : {}),
          ref: { field: "error", turn: t.index, call: c.index },
          counts: [chars(c.error, c.clipped?.error)],
        });
      }
    }
  }
  // An imported reference row has its final answer and no turns.
  if (e.turns.length === 0 && e.finalText) {
    out.push({
      id: "final",
      role: "assistant",
      title: "Final response",
      text: e.finalText,
      ...(e.clipped?.finalText !== undefined ? { clippedLength: e.clipped.finalText } : {}),
      ref: { field: "finalText" },
      counts: [chars(e.finalText, e.clipped?.finalText)],
    });
  }
  return out;
}

/**
 * The section's text from what `evals.episodeText` served whole: the text itself, or the
 * `ref.key` of its JSON (the preview is kept if that JSON has no such string).
 */
export function wholeText(s: TranscriptSection, served: string): string {
  const key = s.ref?.key;
  if (!key) return served;
  try {
    const v = record(JSON.parse(served))[key];
    return typeof v === "string" ? v : s.text;
  } catch {
    return s.text;
  }
}

/** "1,234 completion tokens · 56 prompt tokens" / "789 chars". */
export function countLabel(counts: readonly TranscriptCount[]): string {
  return counts.map((c) => `${c.value.toLocaleString("en-US")}${c.what ? ` ${c.what}` : ""} ${c.unit}`).join(" · ");
}

/** The JSON the "Copy as JSON" button copies (and the download holds): `whole` replaces previews. */
export function transcriptJson(
  e: EvalEpisodeOutput,
  sections: readonly TranscriptSection[],
  whole: ReadonlyMap<string, string> = new Map(),
  prompts?: EpisodePromptsOutput,
) {
  return {
    episodeId: e.id,
    run: e.run,
    sample: { id: e.sample.id, key: e.sample.key, answer: e.sample.answer },
    promptMode: e.promptMode,
    k: e.k,
    status: e.status,
    prediction: e.prediction,
    correct: e.correct,
    tokenCounts: e.tokenCounts ?? null,
    prompts: prompts
      ? prompts.available
        ? {
            rendered: true,
            preset: prompts.preset,
            mode: prompts.mode,
            requestStyle: prompts.requestStyle,
            tokenizer: prompts.tokenizer,
          }
        : { rendered: false, reason: prompts.reason }
      : null,
    sections: sections.map((s) => {
      const text = whole.get(s.id);
      return {
        id: s.id,
        role: s.role,
        title: s.title,
        text: text ?? s.text,
        preview: text === undefined && s.clippedLength !== undefined,
        counts: s.counts,
        ...(s.note ? { note: s.note } : {}),
      };
    }),
  };
}
