// Pure helpers of "click a point -> that step's rollouts": the step in the URL (`?step=N`, so a
// link opens the same panel), and the reward terms of a rollout in reading order.
import { MAX_ROLLOUT_STEP, type RewardTerms } from "@paravt/shared";

/** The step of the rollouts panel in the query, or null (absent, not a whole number, out of range). */
export function rolloutStepFrom(params: URLSearchParams): number | null {
  const raw = params.get("step");
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const step = Number(raw);
  return step <= MAX_ROLLOUT_STEP ? step : null;
}

/** The current query with the panel's step set (or removed); other parameters are kept. */
export function rolloutStepSearch(current: URLSearchParams, step: number | null): string {
  const q = new URLSearchParams(current);
  if (step === null) q.delete("step");
  else q.set("step", String(step));
  const s = q.toString().replace(/%2C/g, ",");
  return s ? `?${s}` : "";
}

/** SPEC §2: R = R_acc + format_weight * R_fmt + R_tool; train.rl stores each term by these keys. */
const KNOWN_TERMS: [key: string, label: string][] = [
  ["reward", "total"],
  ["accReward", "accuracy"],
  ["formatReward", "format"],
  ["toolReward", "tool"],
  // SPEC §3: what the update multiplied this rollout's log-probs by.
  ["advantage", "advantage"],
];
/** Keys that repeat what the row already shows (the step; the group column and its link). */
const SHOWN_ELSEWHERE = new Set(["step", "group", "groupIndex", "groupSize"]);

/** The GRPO group a stored rollout belongs to (rewardTerms `group`, recorded by train.rl); null for older runs. */
export function groupOf(terms: RewardTerms | null): number | null {
  const g = terms?.group;
  return typeof g === "number" && Number.isInteger(g) && g >= 0 ? g : null;
}

/** The group inspector's link for a step (and group). */
export function groupInspectorHref(projectId: string, runId: string, step: number, group: number | null): string {
  return `/projects/${projectId}/runs/${runId}/groups?step=${step}${group !== null ? `&group=${group}` : ""}`;
}

/** "formatCompliant" -> "format compliant". */
const words = (key: string) => key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

function formatTerm(v: number | boolean | string): string {
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(3);
  if (typeof v === "boolean") return v ? "yes" : "no";
  return v;
}

/**
 * Every stored term, the SPEC §2 reward and its three terms first under their short names, then
 * whatever else the trainer recorded (degenerate, formatCompliant, seed, ...) by name.
 */
export function rewardTermEntries(terms: RewardTerms | null): { key: string; label: string; value: string }[] {
  if (!terms) return [];
  const known = KNOWN_TERMS.filter(([k]) => k in terms).map(([key, label]) => ({
    key,
    label,
    value: formatTerm(terms[key]!),
  }));
  const rest = Object.keys(terms)
    .filter((k) => !KNOWN_TERMS.some(([known]) => known === k) && !SHOWN_ELSEWHERE.has(k))
    .sort()
    .map((key) => ({ key, label: words(key), value: formatTerm(terms[key]!) }));
  return [...known, ...rest];
}
