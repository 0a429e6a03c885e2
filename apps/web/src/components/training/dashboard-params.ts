// The dashboard's view state lives in the URL (`?smooth=0.6&x=time&from=100&to=250&log=loss&hide=lr`)
// so a link reproduces what was on screen. Values out of range are dropped, never an error page.

export type XAxisKind = "step" | "time";

export interface DashboardParams {
  /** EMA weight in [0, 0.99]; 0 = raw. */
  smooth: number;
  x: XAxisKind;
  zoom: { from: number; to: number } | null;
  /** Chart ids drawn on a log y axis (`?log=loss,kl`). */
  log: string[];
  /** Chart ids hidden (`?hide=lr,grad_norm`). */
  hidden: string[];
}

/** Chart ids are metric names (letters, digits, `_ . / : -`): a comma never occurs in one. */
const idList = (raw: string | null) => [...new Set((raw ?? "").split(",").filter(Boolean))].sort();

export const DEFAULT_SMOOTHING = 0.6;

export function dashboardParamsFrom(params: URLSearchParams): DashboardParams {
  const smoothRaw = params.get("smooth");
  const smooth = smoothRaw === null ? 0 : Number(smoothRaw);
  const from = Number(params.get("from"));
  const to = Number(params.get("to"));
  const hasZoom = params.has("from") && params.has("to") && Number.isFinite(from) && Number.isFinite(to) && from < to;
  return {
    smooth: Number.isFinite(smooth) ? Math.min(0.99, Math.max(0, smooth)) : 0,
    x: params.get("x") === "time" ? "time" : "step",
    zoom: hasZoom ? { from, to } : null,
    log: idList(params.get("log")),
    hidden: idList(params.get("hide")),
  };
}

/** Writes the state into a copy of the current query (other parameters, e.g. `runs`, are kept). */
export function dashboardSearch(current: URLSearchParams, state: DashboardParams): string {
  const q = new URLSearchParams(current);
  for (const k of ["smooth", "x", "from", "to", "log", "hide"]) q.delete(k);
  if (state.smooth > 0) q.set("smooth", String(state.smooth));
  if (state.x === "time") q.set("x", "time");
  if (state.zoom) {
    q.set("from", String(round(state.zoom.from)));
    q.set("to", String(round(state.zoom.to)));
  }
  if (state.log.length) q.set("log", [...new Set(state.log)].sort().join(","));
  if (state.hidden.length) q.set("hide", [...new Set(state.hidden)].sort().join(","));
  const s = q.toString().replace(/%2C/g, ",").replace(/%2F/g, "/").replace(/%3A/g, ":");
  return s ? `?${s}` : "";
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** The list with `id` added when absent, removed when present (a chart's log or hide toggle). */
export function toggleId(list: readonly string[], id: string): string[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id].sort();
}
