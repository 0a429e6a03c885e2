"use client";
import { seriesPoints } from "@paravt/shared";
import { useQueries, useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Input } from "@/components/ui/input";
import {
  dashboardParamsFrom,
  dashboardSearch,
  DEFAULT_SMOOTHING,
  toggleId,
  type DashboardParams,
} from "./dashboard-params";
import { exportRunMetrics } from "./export-metrics";
import { formatSeconds, groupCharts, lineLabel, visiblePanels } from "./series";
import { TrainingChart, type ChartLine } from "./training-chart";

/** Run colors of an overlay: the design tokens' lane colors, in order (at most 5 runs distinct). */
export const RUN_COLORS = ["var(--lane-1)", "var(--lane-3)", "var(--lane-2)", "var(--lane-4)", "var(--lane-5)"];

const DASHES = ["6 3", "2 2", "8 3 2 3"];

/** Enough points per series for a chart a few hundred pixels wide, min/max kept by the server. */
const POINTS = 600;
/** The API takes at most 64 names per call. */
const NAMES_PER_CALL = 64;

/**
 * The charts of one training run, or of several overlaid (one line per run): every series the
 * runs have, grouped; smoothing, x by step or wall time, the zoom window, log axes and hidden
 * charts live in the URL; a search box filters the charts by name.
 * Charts stay live through the page's subscription (useLiveRuns): a run event with new points
 * appends the points after each chart's last step (runs.metricsSince). With onPickStep
 * a click on any chart picks that step (the run page opens its rollouts), marked on every chart.
 */
export function TrainingDashboard({
  projectId,
  runs,
  onPickStep,
  pickedStep,
}: {
  projectId: string;
  runs: { id: string; name: string }[];
  onPickStep?: (step: number) => void;
  pickedStep?: number | null;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const view = dashboardParamsFrom(new URLSearchParams(params.toString()));
  const lastSmooth = useRef(view.smooth || DEFAULT_SMOOTHING);
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const [query, setQuery] = useState("");

  const setView = useCallback(
    (next: Partial<DashboardParams>) => {
      const state = { ...dashboardParamsFrom(new URLSearchParams(window.location.search)), ...next };
      router.replace(`${pathname}${dashboardSearch(new URLSearchParams(window.location.search), state)}`, {
        scroll: false,
      });
    },
    [pathname, router],
  );

  // Keyboard: `s` toggles smoothing between off and the last weight used.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.key !== "s" || e.metaKey || e.ctrlKey || e.altKey) return;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && (target as HTMLInputElement).type !== "range")
        return;
      const current = dashboardParamsFrom(new URLSearchParams(window.location.search)).smooth;
      if (current > 0) lastSmooth.current = current;
      setView({ smooth: current > 0 ? 0 : lastSmooth.current });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [setView]);

  const namesQueries = useQueries({
    queries: runs.map((r) => trpc.runs.metricNames.queryOptions({ projectId, runId: r.id })),
  });
  const names = useMemo(
    () => [...new Set(namesQueries.flatMap((q) => (q.data ?? []).map((n) => n.name)))].sort(),
    [namesQueries],
  );
  const chunks = useMemo(() => {
    const out: string[][] = [];
    for (let i = 0; i < names.length; i += NAMES_PER_CALL) out.push(names.slice(i, i + NAMES_PER_CALL));
    return out;
  }, [names]);
  const seriesQueries = useQueries({
    queries: runs.flatMap((r) =>
      chunks.map((chunk) => ({
        ...trpc.runs.metrics.queryOptions({
          projectId,
          runId: r.id,
          names: chunk,
          maxPoints: POINTS,
          x: view.x,
          ...(view.zoom ? { range: view.zoom } : {}),
        }),
        // A zoom or axis change keeps the old charts on screen until the window arrives.
        placeholderData: (prev: unknown) => prev as never,
      })),
    ),
  });
  const byRun = useMemo(() => {
    const map = new Map<string, Map<string, { total: number; points: ChartLine["points"] }>>();
    runs.forEach((r, ri) => {
      const m = new Map<string, { total: number; points: ChartLine["points"] }>();
      for (let c = 0; c < chunks.length; c++) {
        // Columns on the wire (contracts/runs.ts), points on screen.
        for (const s of seriesQueries[ri * chunks.length + c]?.data ?? []) {
          m.set(s.name, { total: s.total, points: seriesPoints(s) });
        }
      }
      map.set(r.id, m);
    });
    return map;
  }, [runs, chunks, seriesQueries]);

  const groups = useMemo(() => groupCharts(names), [names]);
  const hiddenKey = view.hidden.join(",");
  const panels = useMemo(
    () => visiblePanels(groups, query, hiddenKey ? hiddenKey.split(",") : []),
    [groups, query, hiddenKey],
  );
  const error = [...namesQueries, ...seriesQueries].find((q) => q.error)?.error;
  const loading = namesQueries.some((q) => q.isPending);
  const overlay = runs.length > 1;

  async function onExport(format: "csv" | "json") {
    const run = runs[0]!;
    setExporting(format);
    setExportError(null);
    try {
      await exportRunMetrics({ queryClient, trpc, projectId, run, names, format });
    } catch (err) {
      setExportError(errorMessage(err));
    } finally {
      setExporting(null);
    }
  }

  const xLabel = (v: number) => (view.x === "step" ? `step ${Math.round(v)}` : formatSeconds(v));
  return (
    <section className="flex flex-col gap-4" aria-label="Training metrics">
      <div className="flex flex-wrap items-center gap-4 rounded-lg border border-line bg-surface px-4 py-3 text-sm">
        <label className="flex items-center gap-2">
          <span className="text-muted">Smoothing</span>
          <input
            type="range"
            aria-label="Smoothing"
            min={0}
            max={0.99}
            step={0.01}
            value={view.smooth}
            onChange={(e) => setView({ smooth: Number(e.target.value) })}
            className="w-32 accent-[var(--accent)]"
          />
          <span className="w-10 font-mono text-xs" data-testid="smoothing-value">
            {view.smooth.toFixed(2)}
          </span>
          <kbd className="rounded border border-line px-1 font-mono text-xs text-muted" title="press s to toggle">
            s
          </kbd>
        </label>
        <div role="radiogroup" aria-label="X axis" className="flex overflow-hidden rounded-md border border-line">
          {(["step", "time"] as const).map((x) => (
            <button
              key={x}
              type="button"
              role="radio"
              aria-checked={view.x === x}
              onClick={() => setView({ x, zoom: null })}
              className={`px-3 py-1 ${view.x === x ? "bg-accent text-accent-fg" : "text-muted hover:text-fg"}`}
            >
              {x === "step" ? "Step" : "Wall time"}
            </button>
          ))}
        </div>
        {view.zoom ? (
          <span className="flex items-center gap-2" data-testid="zoom-window">
            <span className="text-muted">
              Zoomed to {xLabel(view.zoom.from)} – {xLabel(view.zoom.to)}
            </span>
            <Button size="sm" variant="ghost" onClick={() => setView({ zoom: null })}>
              Reset zoom
            </Button>
          </span>
        ) : (
          <span className="text-xs text-muted">
            Drag across a chart to zoom{onPickStep ? " · click a point for that step's rollouts" : ""}
          </span>
        )}
        <Input
          type="search"
          aria-label="Search metrics"
          placeholder="Search metrics…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="h-8 w-48"
        />
        {!overlay && (
          <span className="ml-auto flex items-center gap-2">
            <Button
              size="sm"
              variant="secondary"
              disabled={!names.length || exporting !== null}
              onClick={() => void onExport("csv")}
            >
              Export CSV
            </Button>
            <Button
              size="sm"
              variant="secondary"
              disabled={!names.length || exporting !== null}
              onClick={() => void onExport("json")}
            >
              Export JSON
            </Button>
          </span>
        )}
      </div>
      {error && <Alert>{errorMessage(error)}</Alert>}
      {exportError && <Alert>{exportError}</Alert>}
      {!loading && names.length === 0 && <p className="text-sm text-muted">No metrics recorded yet.</p>}
      {names.length > 0 && panels.matching === 0 && (
        <p className="text-sm text-muted">No chart matches &ldquo;{query}&rdquo;.</p>
      )}
      {panels.hidden.length > 0 && (
        <div className="flex flex-wrap items-center gap-2 text-xs" role="group" aria-label="Hidden charts">
          <span className="text-muted">Hidden:</span>
          {panels.hidden.map((c) => (
            <button
              key={c.id}
              type="button"
              aria-label={`Show ${c.title}`}
              onClick={() => setView({ hidden: view.hidden.filter((id) => id !== c.id) })}
              className="rounded-full border border-line px-2 py-0.5 text-muted hover:text-fg"
            >
              {c.title} +
            </button>
          ))}
          <Button size="sm" variant="ghost" onClick={() => setView({ hidden: [] })}>
            Show all
          </Button>
        </div>
      )}
      {panels.groups.map((g) => (
        <section key={g.id} aria-label={g.title} className="flex flex-col gap-2">
          <h2 className="text-sm font-semibold text-muted">{g.title}</h2>
          <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {g.charts.map((chart) => {
              const lines: ChartLine[] = [];
              let total = 0;
              runs.forEach((r, ri) =>
                chart.series.forEach((s, si) => {
                  const data = byRun.get(r.id)?.get(s.name);
                  if (!data) return;
                  total += data.total;
                  lines.push({
                    key: `${r.id}:${s.name}`,
                    label: lineLabel({ overlay, runName: r.name, family: chart.series.length > 1, series: s }),
                    // Overlay: one color per run; a K family in one run: one color per K.
                    color: RUN_COLORS[(overlay ? ri : si) % RUN_COLORS.length]!,
                    ...(overlay && si > 0 ? { dash: DASHES[(si - 1) % DASHES.length] } : {}),
                    points: data.points,
                  });
                }),
              );
              return (
                <TrainingChart
                  key={chart.id}
                  title={chart.title}
                  lines={lines}
                  x={view.x}
                  smooth={view.smooth}
                  metric={chart.series[0]!.name}
                  log={view.log.includes(chart.id)}
                  onToggleLog={() => setView({ log: toggleId(view.log, chart.id) })}
                  onHide={() => setView({ hidden: toggleId(view.hidden, chart.id) })}
                  total={total}
                  onZoom={(zoom) => setView({ zoom })}
                  {...(onPickStep ? { onPick: onPickStep, picked: pickedStep ?? null } : {})}
                />
              );
            })}
          </div>
        </section>
      ))}
    </section>
  );
}
