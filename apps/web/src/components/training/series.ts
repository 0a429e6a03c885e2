// Pure helpers of the training dashboard: which chart a metric belongs to, how it is formatted,
// and client-side EMA smoothing. Generic over names so SFT (loss, token_accuracy, ...) and RL
// (reward_*, kl, entropy, clip_fraction, accuracy_k<K>, ...) runs share one dashboard.

export interface ChartPoint {
  step: number;
  t: number;
  value: number;
}

export interface ChartGroup {
  id: string;
  title: string;
  charts: ChartSpec[];
}

/** One chart: one metric, or a "by K" family (one line per K) for `<base>_k<K>` series. */
export interface ChartSpec {
  id: string;
  title: string;
  /** Metric names drawn in this chart, with the legend label of each. */
  series: { name: string; label: string }[];
}

const BY_K = /^(.+)_k(\d+)$/;

/**
 * A name as words: lower case, the separators ingestion allows (`_ . / : -`) as `_`, a leading
 * `train_` dropped (W&B-style `train/loss` groups with `loss`).
 */
function words(name: string): string {
  return name
    .toLowerCase()
    .replace(/[./:-]/g, "_")
    .replace(/^train_/, "");
}

const VALIDATION = /^(val|valid|validation|eval|test)_/;

/**
 * The groups in page order. A name goes to the first group of MATCH_ORDER whose rule (on
 * `words(name)`) it matches, else to "Other". The rules cover the names train.sft and train.rl
 * write (workers/src/handlers/handle-train-*.ts) and the usual names of an ingested trainer.
 */
const GROUPS: { id: string; title: string; test: (n: string) => boolean }[] = [
  { id: "loss", title: "Loss & accuracy", test: (n) => /(^|_)loss(_|$)|^(token_)?acc(uracy)?$/.test(n) },
  { id: "reward", title: "Reward", test: (n) => /^(reward|return|advantage|score)/.test(n) },
  {
    id: "format",
    title: "Format & tools",
    test: (n) => /^(format|tool|parallel|turns|calls|crop|error_rate|truncat|capped)/.test(n),
  },
  { id: "by-k", title: "Metrics by K", test: (n) => BY_K.test(n) },
  {
    id: "policy",
    title: "KL, entropy, clip",
    test: (n) => /^(kl|entropy|clip_frac|ratio|behaviour|importance)/.test(n),
  },
  {
    id: "optimizer",
    title: "Optimizer",
    test: (n) => /^(grad_norm|lr|learning_rate|clip_scale|weight_norm)($|_)/.test(n),
  },
  { id: "throughput", title: "Throughput", test: (n) => /(per_s(ec)?|_ms|_time|_s|_seconds|tokens|frames)$/.test(n) },
  { id: "validation", title: "Validation", test: (n) => VALIDATION.test(n) },
];

/** Validation first (`val_accuracy_k16` is validation), then families by K, then the page order. */
const MATCH_ORDER = [
  "validation",
  "by-k",
  ...GROUPS.map((g) => g.id).filter((id) => id !== "validation" && id !== "by-k"),
].map((id) => GROUPS.find((g) => g.id === id)!);

/** The group id of a metric name (a `<base>_k<K>` series goes with its family). */
export function groupOf(name: string): string {
  const n = words(name);
  return MATCH_ORDER.find((g) => g.test(n))?.id ?? "other";
}

export function groupCharts(names: readonly string[]): ChartGroup[] {
  const byK = new Map<string, { name: string; k: number }[]>();
  const singles: string[] = [];
  for (const name of names) {
    const m = BY_K.exec(name);
    if (m) byK.set(m[1]!, [...(byK.get(m[1]!) ?? []), { name, k: Number(m[2]) }]);
    else singles.push(name);
  }
  const groups: ChartGroup[] = [...GROUPS, { id: "other", title: "Other" }].map((g) => ({
    id: g.id,
    title: g.title,
    charts: [],
  }));
  const add = (name: string, chart: ChartSpec) => groups.find((g) => g.id === groupOf(name))!.charts.push(chart);
  for (const name of singles) add(name, { id: name, title: titleOf(name), series: [{ name, label: titleOf(name) }] });
  for (const [base, members] of [...byK.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    members.sort((a, b) => a.k - b.k);
    add(members[0]!.name, {
      id: `${base}_by_k`,
      title: `${titleOf(base)} by K`,
      series: members.map((m) => ({ name: m.name, label: `K=${m.k}` })),
    });
  }
  return groups.filter((g) => g.charts.length > 0);
}

/** The chart title of a metric name: underscores read as spaces ("token_accuracy" -> "token accuracy"). */
export function titleOf(name: string): string {
  return name.replaceAll("_", " ");
}

/**
 * Whether a metric is a share in [0, 1] (drawn on a fixed 0-100 % axis): its last word (before a
 * `_k<K>` suffix) is accuracy / acc / compliance / fraction / rate / share, as in
 * `format_compliance`, `tool_call_rate`, `error_rate`, `clip_fraction`, `token_accuracy`,
 * `accuracy_k16`, `val_format_compliance`. Rewards (`reward_acc` is a mean reward) and learning
 * rates are not.
 */
export function isRate(name: string): boolean {
  const n = words(name).replace(VALIDATION, "");
  if (/^reward|(^|_)(learning_rate|lr|frame_rate|sample_rate|bit_rate)$/.test(n)) return false;
  return /(^|_)(accuracy|acc|compliance|fraction|rate|share)(_k\d+)?$/.test(n);
}

/** Value format by name: rates and accuracies in %, learning rates in exponent form. */
export function formatFor(name: string): (v: number) => string {
  if (isRate(name)) return (v) => `${(v * 100).toFixed(1)}%`;
  if (/^(lr|learning_rate)$/.test(words(name))) return (v) => v.toExponential(1);
  if (/(per_s|_ms)$/.test(name)) return (v) => v.toFixed(0);
  return (v) => (Math.abs(v) >= 1000 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));
}

/** The y axis of a chart: scale, domain, ticks and the two formats (axis ticks, values). */
export interface YAxisSpec {
  scale: "linear" | "log";
  /** Undefined: recharts' default ([0, auto] linear). */
  domain?: [number | "auto", number | "auto"];
  ticks?: number[];
  tick: (v: number) => string;
  value: (v: number) => string;
  /** Why a log scale that was asked for is not drawn. */
  note: string | null;
}

const RATE_TICKS = [0, 0.25, 0.5, 0.75, 1];

/**
 * The y axis of the chart of `name` over `values` (every value drawn). A rate gets the fixed
 * domain [0, 1] shown as 0-100 % (recharts' automatic domain made a rate that stayed at 0 read
 * 0-400 %). A log scale is drawn only over positive values; otherwise the chart stays linear and
 * says why.
 */
export function yAxisFor(name: string, values: readonly number[], log: boolean): YAxisSpec {
  const value = formatFor(name);
  const rate = isRate(name);
  const finite = values.filter(Number.isFinite);
  if (log) {
    const min = finite.length ? Math.min(...finite) : NaN;
    if (finite.length && min > 0) return { scale: "log", domain: ["auto", "auto"], tick: value, value, note: null };
    const note = finite.length
      ? `log scale needs values above 0 (min ${value(min)}): linear`
      : "log scale needs values: linear";
    return { ...linear(rate, value), note };
  }
  return { ...linear(rate, value), note: null };
}

function linear(rate: boolean, value: (v: number) => string): Omit<YAxisSpec, "note"> {
  if (!rate) return { scale: "linear", tick: value, value };
  return { scale: "linear", domain: [0, 1], ticks: RATE_TICKS, tick: (v) => `${Math.round(v * 100)}%`, value };
}

/**
 * The name of a line in the tooltip and legend, never empty: the run (in an overlay) and the
 * series (`K=16` in a family, else the metric's title).
 */
export function lineLabel(opts: {
  overlay: boolean;
  runName: string;
  family: boolean;
  series: { name: string; label: string };
}): string {
  const series = opts.family ? opts.series.label : titleOf(opts.series.name);
  return opts.overlay ? `${opts.runName} · ${series}` : series;
}

/** What the dashboard shows: the groups of the charts that match the search and are not hidden. */
export interface PanelView {
  groups: ChartGroup[];
  /** Hidden charts that match the search (listed so they can be shown again). */
  hidden: ChartSpec[];
  /** Charts that match the search, hidden or not. */
  matching: number;
}

/**
 * Filters the panels: a chart matches when every word of the query is in its title, its metric
 * names or its group's title (case-insensitive; `_` and space alike); `hidden` holds chart ids.
 */
export function visiblePanels(groups: readonly ChartGroup[], query: string, hidden: readonly string[]): PanelView {
  const norm = (s: string) => s.toLowerCase().replaceAll("_", " ");
  const terms = norm(query).split(/\s+/).filter(Boolean);
  const hide = new Set(hidden);
  const out: PanelView = { groups: [], hidden: [], matching: 0 };
  for (const g of groups) {
    const charts = g.charts.filter((c) => {
      const hay = norm([g.title, c.title, c.id, ...c.series.map((s) => s.name)].join(" "));
      return terms.every((t) => hay.includes(t));
    });
    out.matching += charts.length;
    out.hidden.push(...charts.filter((c) => hide.has(c.id)));
    const shown = charts.filter((c) => !hide.has(c.id));
    if (shown.length) out.groups.push({ ...g, charts: shown });
  }
  return out;
}

/**
 * Exponential moving average with TensorBoard's debiasing (the first points are not pulled toward
 * 0): s_i = w * s_{i-1} + (1 - w) * v_i, reported as s_i / (1 - w^i). Applied on the client to the
 * already downsampled series, so it smooths what is drawn, not the raw steps: at a given weight a
 * zoomed-in window (more detail) looks less smooth than the whole run.
 */
export function emaSmooth<P extends { value: number }>(points: readonly P[], weight: number): P[] {
  if (weight <= 0 || points.length === 0) return [...points];
  const w = Math.min(weight, 0.999);
  let acc = 0;
  let n = 0;
  return points.map((p) => {
    if (!Number.isFinite(p.value)) return p;
    acc = acc * w + (1 - w) * p.value;
    n++;
    return { ...p, value: acc / (1 - w ** n) };
  });
}

/** Seconds as a short axis label: 42s, 3m05s, 1h02m. */
export function formatSeconds(s: number): string {
  if (s < 60) return `${Math.round(s)}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
