import { extractTimeRange } from "@paravt/protocol";
import type { EvalEpisodeOutput } from "@paravt/shared";

/** One crop_video window on the timeline: turn `turn`, call `call` of that turn (both 0-based). */
export interface LaneWindow {
  /** `<turn>.<call>`, the form the URL keeps (`?w=0.2`). */
  id: string;
  turn: number;
  call: number;
  startS: number;
  endS: number;
  status: "OK" | "ERROR" | "REJECTED";
  clamped: boolean;
  frameTimestamps: number[];
  /** The sub-agent's summary (sub-agent dispatch) or the evaluator-style tool response text. */
  summary: string | null;
  error: string | null;
}

export interface LaneSpan {
  startS: number;
  endS: number;
}

/** Everything one model's episode puts on the shared timeline (one group of lanes). */
export interface LaneGroup {
  id: string;
  label: string;
  overviewTimestamps: number[];
  /** One lane per main-agent turn, in order; a turn without a valid window keeps its (empty) lane. */
  turns: { index: number; windows: LaneWindow[] }[];
  /** Grounding (tvg): the annotated span and the predicted one (null when it did not parse). */
  groundTruth: LaneSpan | null;
  predicted: LaneSpan | null;
  /** MCQ / open-ended: the final answer against the reference. */
  answer: { prediction: string | null; reference: string; correct: boolean | null } | null;
}

/**
 * Where time `t` sits on a track of `duration` seconds, in % of its width, clamped to the track:
 * `t / duration`, the sampler's formula (`@paravt/video/sampling`), so a tick or a window sits where
 * its frames were taken. The episode timeline and the sample grid's mini timeline both place with it.
 */
export function timePct(t: number, duration: number): number {
  return (Math.min(Math.max(t, 0), duration) / duration) * 100;
}

/** The width of the span [startS, endS] on that track, in %: only its part inside the track. */
export function spanPct(startS: number, endS: number, duration: number): number {
  return Math.max(0, ((Math.min(endS, duration) - Math.max(0, startS)) / duration) * 100);
}

export const windowId = (turn: number, call: number) => `${turn}.${call}`;

/** `"1.2"` -> { turn: 1, call: 2 }; anything else: null. */
export function parseWindowId(v: string | null | undefined): { turn: number; call: number } | null {
  const m = /^(\d+)\.(\d+)$/.exec(v ?? "");
  return m ? { turn: Number(m[1]), call: Number(m[2]) } : null;
}

/**
 * A grounding span from an answer ("[s, e]", "s-e") or a prediction ("s - e"), read with the
 * evaluation parser of SPEC §4 (`extractTimeRange`), the one the score came from; null unless
 * it yields end > start.
 */
export function spanOf(text: string | null | undefined): LaneSpan | null {
  if (!text) return null;
  const r = extractTimeRange(text);
  if (!r || !(r[1] > r[0])) return null;
  return { startS: r[0], endS: r[1] };
}

function summaryOf(call: EvalEpisodeOutput["turns"][number]["toolCalls"][number]): string | null {
  if (call.subAgentOutput) return call.subAgentOutput;
  const d = call.details;
  if (d && typeof d === "object" && typeof (d as { response?: unknown }).response === "string") {
    return (d as { response: string }).response;
  }
  return null;
}

/** The lanes of one stored episode (`evals.episode`). Calls without a window (rejected before one was read) are left out. */
export function laneGroupOf(e: EvalEpisodeOutput, label = e.run.name): LaneGroup {
  const grounding = e.sample.questionType === "tvg";
  return {
    id: e.id,
    label,
    overviewTimestamps: e.overviewTimestamps,
    turns: e.turns.map((t) => ({
      index: t.index,
      windows: t.toolCalls.flatMap((c) =>
        c.startS !== null && c.endS !== null && c.endS > c.startS
          ? [
              {
                id: windowId(t.index, c.index),
                turn: t.index,
                call: c.index,
                startS: c.startS,
                endS: c.endS,
                status: c.status,
                clamped: c.clamped,
                frameTimestamps: c.frameTimestamps,
                summary: summaryOf(c),
                error: c.error,
              },
            ]
          : [],
      ),
    })),
    groundTruth: grounding ? spanOf(e.sample.answer) : null,
    predicted: grounding ? spanOf(e.prediction) : null,
    answer: grounding ? null : { prediction: e.prediction, reference: e.sample.answer, correct: e.correct },
  };
}

/** Every window of a group in time order (start, then turn, then call): the order of [ and ]. */
export function windowsInTimeOrder(group: LaneGroup): LaneWindow[] {
  return group.turns
    .flatMap((t) => t.windows)
    .sort((a, b) => a.startS - b.startS || a.turn - b.turn || a.call - b.call);
}

/**
 * The window `[` (dir -1) or `]` (dir +1) moves to: the neighbour of the selected one in time
 * order; with none selected, the first one starting after (or the last one starting before) `t`.
 */
export function stepWindow(
  ordered: readonly LaneWindow[],
  selectedId: string | null,
  t: number,
  dir: 1 | -1,
): LaneWindow | null {
  if (ordered.length === 0) return null;
  const at = selectedId ? ordered.findIndex((w) => w.id === selectedId) : -1;
  if (at >= 0) return ordered[Math.min(ordered.length - 1, Math.max(0, at + dir))] ?? null;
  if (dir === 1) return ordered.find((w) => w.startS > t + 1e-3) ?? ordered[ordered.length - 1]!;
  return [...ordered].reverse().find((w) => w.startS < t - 1e-3) ?? ordered[0]!;
}

/**
 * Rows for the windows of one turn so that overlapping windows never hide each other: each
 * window goes in the first row whose last window ends before it starts (interval packing).
 */
export function packRows(windows: readonly LaneWindow[]): Map<string, number> {
  const rowEnds: number[] = [];
  const rows = new Map<string, number>();
  for (const w of [...windows].sort((a, b) => a.startS - b.startS || a.call - b.call)) {
    let r = rowEnds.findIndex((end) => end <= w.startS);
    if (r < 0) r = rowEnds.push(0) - 1;
    rowEnds[r] = w.endS;
    rows.set(w.id, r);
  }
  return rows;
}
