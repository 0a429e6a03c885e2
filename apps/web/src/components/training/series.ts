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

/** Group order of the page; the first matching rule wins, the rest goes to "Other". */
const GROUPS: { id: string; title: string; test: (name: string) => boolean }[] = [
  { id: "loss", title: "Loss & reward", test: (n) => /^(loss|val_loss|reward|token_accuracy|accuracy|val_)/.test(n) },
  { id: "format", title: "Format & tools", test: (n) => /^(format|tool|parallel|turns|calls)/.test(n) },
  { id: "policy", title: "KL, entropy, clip", test: (n) => /^(kl|entropy|clip|ratio|grad_norm|lr$|advantage)/.test(n) },
  { id: "throughput", title: "Throughput", test: (n) => /(per_s|_ms|_time|_s$|tokens|frames)/.test(n) },
];

export function groupCharts(names: readonly string[]): ChartGroup[] {
  const byK = new Map<string, { name: string; k: number }[]>();
  const singles: string[] = [];
  for (const name of names) {
    const m = BY_K.exec(name);
    if (m) byK.set(m[1]!, [...(byK.get(m[1]!) ?? []), { name, k: Number(m[2]) }]);
    else singles.push(name);
  }
  const groups: ChartGroup[] = [...GROUPS, { id: "other", title: "Other", test: () => true }].map((g) => ({
    id: g.id,
    title: g.title,
    charts: [],
  }));
  for (const name of singles) {
    const i = GROUPS.findIndex((g) => g.test(name));
    groups[i === -1 ? groups.length - 1 : i]!.charts.push({
      id: name,
      title: titleOf(name),
      series: [{ name, label: titleOf(name) }],
    });
  }
  const kGroup: ChartGroup = { id: "by-k", title: "Metrics by K", charts: [] };
  for (const [base, members] of [...byK.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    members.sort((a, b) => a.k - b.k);
    kGroup.charts.push({
      id: `${base}_by_k`,
      title: `${titleOf(base)} by K`,
      series: members.map((m) => ({ name: m.name, label: `K=${m.k}` })),
    });
  }
  return [...groups.slice(0, -1), kGroup, groups.at(-1)!].filter((g) => g.charts.length > 0);
}

/** The chart title of a metric name: underscores read as spaces ("token_accuracy" -> "token accuracy"). */
export function titleOf(name: string): string {
  return name.replaceAll("_", " ");
}

/** Value format by name: rates and accuracies in %, learning rates in exponent form. */
export function formatFor(name: string): (v: number) => string {
  if (/(accuracy|_rate|compliance|fraction|_acc$|_acc_)/.test(name)) return (v) => `${(v * 100).toFixed(1)}%`;
  if (name === "lr") return (v) => v.toExponential(1);
  if (/(per_s|_ms)$/.test(name)) return (v) => v.toFixed(0);
  return (v) => (Math.abs(v) >= 1000 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(3));
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
