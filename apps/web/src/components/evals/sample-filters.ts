// The per-sample filters of an eval run, kept in the URL's search params so a filtered view is a
// shareable link. A value the API would refuse (a typo in a pasted link) is dropped, not sent.
import { evalSampleListInput, flipDirectionSchema, type EvalSampleListInput, type FlipDirection } from "@paravt/shared";

export type SampleFilters = Pick<
  EvalSampleListInput,
  "outcome" | "questionType" | "minToolCalls" | "maxToolCalls" | "k" | "duration"
>;

/** URL parameter name of each filter. */
export const FILTER_PARAMS = {
  outcome: "outcome",
  questionType: "type",
  minToolCalls: "minCalls",
  maxToolCalls: "maxCalls",
  k: "k",
  duration: "duration",
} as const satisfies Record<keyof SampleFilters, string>;

type Key = keyof SampleFilters;
const KEYS = Object.keys(FILTER_PARAMS) as Key[];
const NUMERIC: ReadonlySet<Key> = new Set(["minToolCalls", "maxToolCalls", "k"]);

export function filtersFromParams(params: URLSearchParams): SampleFilters {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    const raw = params.get(FILTER_PARAMS[key]);
    if (raw === null || raw.trim() === "") continue;
    const value = NUMERIC.has(key) ? Number(raw) : raw;
    const parsed = evalSampleListInput.shape[key].safeParse(value);
    if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
  }
  return out as SampleFilters;
}

/** The search string ("?outcome=wrong&k=8", or "?") with `patch` applied; undefined clears a filter. */
export function searchWith(params: URLSearchParams, patch: Partial<Record<Key, string | number | undefined>>): string {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(patch) as [Key, string | number | undefined][]) {
    const name = FILTER_PARAMS[key];
    if (value === undefined || value === "") next.delete(name);
    else next.set(name, String(value));
  }
  const s = next.toString();
  return s ? `?${s}` : "?";
}

export function hasFilters(f: SampleFilters): boolean {
  return KEYS.some((k) => f[k] !== undefined);
}

/**
 * "Compare with" another run on the same dataset (`?vs=<runId>`) and the flipped filter against it
 * (`&flipped=right_to_wrong|wrong_to_right|any`, issue 8). The flip is sent only with a run to
 * flip against.
 */
export function comparisonFromParams(params: URLSearchParams): { vs: string | null; flipped: FlipDirection | null } {
  const vs = params.get("vs");
  const flipped = flipDirectionSchema.safeParse(params.get("flipped"));
  const vsOk = vs !== null && evalSampleListInput.shape.flippedAgainst.safeParse(vs).success;
  return { vs: vsOk ? vs : null, flipped: vsOk && flipped.success ? flipped.data : null };
}

/** The search string with the comparison run and/or flip direction changed (null clears). */
export function searchWithComparison(
  params: URLSearchParams,
  patch: { vs?: string | null; flipped?: FlipDirection | null },
): string {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null || value === undefined || value === "") next.delete(name);
    else next.set(name, value);
  }
  if (!next.get("vs")) next.delete("flipped");
  const s = next.toString();
  return s ? `?${s}` : "?";
}

/** How a run's samples are shown: the table, or the grid of cards (`?view=grid`). */
export type SamplesView = "table" | "grid";

export function viewFromParams(params: URLSearchParams): SamplesView {
  return params.get("view") === "grid" ? "grid" : "table";
}

/** The search string with the view changed; the table is the default, so it clears the parameter. */
export function searchWithView(params: URLSearchParams, view: SamplesView): string {
  const next = new URLSearchParams(params);
  if (view === "grid") next.set("view", "grid");
  else next.delete("view");
  const s = next.toString();
  return s ? `?${s}` : "?";
}

/** "Clear filters": every filter and the comparison go, the view stays. */
export function clearedSearch(params: URLSearchParams): string {
  return viewFromParams(params) === "grid" ? "?view=grid" : "?";
}

/**
 * The filters both views send (the table to `evals.samples`, the grid to `evals.sampleGrid`): the
 * URL's filters, and the flip filter only with a run to flip against.
 */
export function sampleQueryFilters(
  filters: SampleFilters,
  comparison: { vs: string | null; flipped: FlipDirection | null },
): SampleFilters & { flippedAgainst?: string; flipDirection?: FlipDirection } {
  return {
    ...filters,
    ...(comparison.vs && comparison.flipped
      ? { flippedAgainst: comparison.vs, flipDirection: comparison.flipped }
      : {}),
  };
}
