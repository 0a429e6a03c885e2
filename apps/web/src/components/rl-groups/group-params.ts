// The group inspector's URL (issue 41 item 14): `?step=N&group=G&order=advantage`, so a link opens
// the same group the same way. Pure, for the page and its tests.
import { MAX_ROLLOUT_STEP, TRAINING_ROLLOUT_STRIDE, type GroupRolloutOutput } from "@paravt/shared";

export const ROLLOUT_ORDERS = ["group", "advantage"] as const;
export type RolloutOrder = (typeof ROLLOUT_ORDERS)[number];

export interface GroupView {
  /** null: the URL names no valid step (the page asks for one). */
  step: number | null;
  /** null: the step's first group. */
  group: number | null;
  order: RolloutOrder;
}

const wholeAtMost = (raw: string | null, max: number): number | null => {
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n <= max ? n : null;
};

export function groupViewFrom(params: URLSearchParams): GroupView {
  const order = params.get("order");
  return {
    step: wholeAtMost(params.get("step"), MAX_ROLLOUT_STEP),
    group: wholeAtMost(params.get("group"), TRAINING_ROLLOUT_STRIDE - 1),
    order: order === "advantage" ? "advantage" : "group",
  };
}

/** The query of a view; a changed step drops the group (each step has its own groups). */
export function groupViewSearch(current: GroupView, patch: Partial<GroupView>): string {
  const next = { ...current, ...patch };
  if (patch.step !== undefined && patch.step !== current.step && patch.group === undefined) next.group = null;
  const q = new URLSearchParams();
  if (next.step !== null) q.set("step", String(next.step));
  if (next.group !== null) q.set("group", String(next.group));
  if (next.order !== "group") q.set("order", next.order);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/**
 * The rollouts in the chosen order: as trained (group index, then batch position), or by
 * advantage, highest first (what the update pushed up most), unrecorded advantages last.
 */
export function orderRollouts(rollouts: readonly GroupRolloutOutput[], order: RolloutOrder): GroupRolloutOutput[] {
  const byPlace = (a: GroupRolloutOutput, b: GroupRolloutOutput) =>
    (a.groupIndex ?? a.rollout) - (b.groupIndex ?? b.rollout) || a.rollout - b.rollout;
  if (order === "group") return [...rollouts].sort(byPlace);
  return [...rollouts].sort((a, b) => {
    if (a.advantage === null || b.advantage === null)
      return (a.advantage === null ? 1 : 0) - (b.advantage === null ? 1 : 0) || byPlace(a, b);
    return b.advantage - a.advantage || byPlace(a, b);
  });
}

/** "+1.22" / "−0.41" / "0.00": an advantage with its sign, as the columns and lanes show it. */
export function formatAdvantage(a: number | null): string {
  if (a === null) return "not recorded";
  const s = Math.abs(a).toFixed(2);
  if (s === "0.00") return "0.00";
  return `${a > 0 ? "+" : "−"}${s}`;
}

/** Width (0-50 %) and side of an advantage's bar on a scale of ±`max`. */
export function advantageBar(a: number, max: number): { side: "positive" | "negative"; pct: number } {
  const pct = max > 0 ? Math.min(50, (Math.abs(a) / max) * 50) : 0;
  return { side: a >= 0 ? "positive" : "negative", pct };
}
