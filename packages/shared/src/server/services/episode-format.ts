// Format compliance of a STORED episode: the stored turn columns read as @paravt/protocol's
// `FormatTurn`, judged by its `formatVerdict` (the one definition; RL metrics use it on live
// trajectories). Eval summaries and the review filter "format failure" both come through here.
import { formatContract, formatVerdict, type FormatTurn, type FormatVerdict } from "@paravt/protocol";

/** The turn columns the verdict reads (Prisma `Turn`). */
export interface StoredTurn {
  rawText: string;
  forcedPrefix: string | null;
  parseIssues: unknown;
  forcedFinal: boolean;
  /** The episode runner stores `{latencyMs, finish, maxTokens}` (workers/src/eval-sample.ts). */
  timings: unknown;
}

/** `Turn.turns` select that `storedFormatVerdict` needs, in turn order. */
export const FORMAT_TURN_SELECT = {
  select: { rawText: true, forcedPrefix: true, parseIssues: true, forcedFinal: true, timings: true },
  orderBy: { index: "asc" },
} as const;

function issuesOf(parseIssues: unknown): string[] {
  return Array.isArray(parseIssues) ? parseIssues.filter((i): i is string => typeof i === "string") : [];
}

function finishOf(timings: unknown): FormatTurn["finish"] {
  const f = timings !== null && typeof timings === "object" ? (timings as { finish?: unknown }).finish : undefined;
  return f === "stop" || f === "length" ? f : null;
}

export function toFormatTurn(t: StoredTurn): FormatTurn {
  return {
    rawText: t.rawText,
    forcedPrefix: t.forcedPrefix,
    parseIssues: issuesOf(t.parseIssues),
    finish: finishOf(t.timings),
    forcedFinal: t.forcedFinal,
  };
}

/**
 * The verdict on an answered episode's stored turns under its prompt mode's contract, or null when
 * no turn is stored: an imported reference row keeps only the last 500 characters of the answer
 * (SPEC §5), so its format cannot be judged, and it is neither compliant nor a failure.
 */
export function storedFormatVerdict(turns: readonly StoredTurn[], promptMode: string): FormatVerdict | null {
  if (turns.length === 0) return null;
  return formatVerdict(turns.map(toFormatTurn), formatContract(promptMode));
}
