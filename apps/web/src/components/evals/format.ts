import type { EvalMode } from "@paravt/shared";

/** A 0..1 rate as the paper prints it: percent with one decimal, no sign ("45.0"). */
export function pct(v: number | null | undefined): string {
  return v == null ? "—" : (v * 100).toFixed(1);
}

export const MODE_LABEL: Record<EvalMode, string> = {
  direct: "direct",
  reasoning: "reasoning",
  agentic_general: "agentic (general)",
  agentic_minimal: "agentic (minimal)",
};

export const MODE_HINT: Record<EvalMode, string> = {
  direct: "single pass, answer in <answer> tags",
  reasoning: "single pass, <think> then <answer>",
  agentic_general: "parallel crop_video dispatch (ParaVT headline)",
  agentic_minimal: "bare tool envelope (Charades-STA)",
};

/** Milliseconds as "850 ms" or "12.3 s". */
export function ms(v: number | null | undefined): string {
  if (v == null) return "—";
  return v < 1000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`;
}

/** Seconds on the video as "1:05.0" (one decimal, like the protocol's timestamps). */
export function clock(s: number | null | undefined): string {
  if (s == null) return "—";
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(1).padStart(4, "0")}`;
}

/** A JSON object of numbers (timings, token counts) as [key, value] pairs; anything else: none. */
export function numberEntries(v: unknown): [string, number][] {
  if (!v || typeof v !== "object" || Array.isArray(v)) return [];
  return Object.entries(v).filter((e): e is [string, number] => typeof e[1] === "number");
}

/** A JSON array of strings (parse issues); anything else: none. */
export function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/**
 * A figure's standard error as the paper's tables print it beside the value: "±2.1" (× 100, one
 * decimal, like the value); "" when it has none (fewer than 2 samples of a mean, no samples).
 */
export function seText(se: number | null | undefined): string {
  return se == null ? "" : `±${(se * 100).toFixed(1)}`;
}
