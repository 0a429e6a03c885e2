"use client";
import { useMemo, useState } from "react";
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { XAxisKind } from "./dashboard-params";
import { emaSmooth, formatSeconds, yAxisFor, type ChartPoint } from "./series";

export interface ChartLine {
  key: string;
  label: string;
  color: string;
  /** SVG dash pattern: tells apart the K lines of one run in an overlay (color = run). */
  dash?: string;
  points: ChartPoint[];
}

/** The row field holding a row's step, so a click on a wall-time chart maps back to its step. */
const STEP = "__step";

/** Lines merged into one row per x, so the tooltip lists every line at the hovered x. */
function mergeRows(lines: ChartLine[], x: XAxisKind, smooth: number) {
  const rows = new Map<number, Record<string, number>>();
  for (const line of lines) {
    const smoothed = smooth > 0 ? emaSmooth(line.points, smooth) : null;
    line.points.forEach((p, i) => {
      const at = x === "step" ? p.step : p.t;
      const row = rows.get(at) ?? { x: at, [STEP]: p.step };
      if (smoothed) {
        row[`${line.key}:raw`] = p.value;
        row[line.key] = smoothed[i]!.value;
      } else row[line.key] = p.value;
      rows.set(at, row);
    });
  }
  return [...rows.values()].sort((a, b) => a.x! - b.x!);
}

/**
 * One metric chart of the dashboard (one or more lines). Points arrive downsampled by the server;
 * smoothing draws the EMA over a faint raw line; dragging across the plot selects a window that
 * the page re-fetches at full detail (onZoom); a click without a drag picks the step under the
 * pointer (onPick), marked by a vertical line. The y axis follows the metric (`yAxisFor`: a rate on
 * 0-100 %, a log scale when asked and the values allow it); steps are integer ticks.
 */
export function TrainingChart({
  title,
  lines,
  x,
  smooth,
  metric,
  log = false,
  onToggleLog,
  onHide,
  total,
  onZoom,
  onPick,
  picked,
}: {
  title: string;
  lines: ChartLine[];
  x: XAxisKind;
  smooth: number;
  /** The metric whose axis and format the chart uses (the first series of a family). */
  metric: string;
  /** A log y axis asked for (drawn only over positive values). */
  log?: boolean;
  onToggleLog?: () => void;
  onHide?: () => void;
  total: number;
  onZoom: (range: { from: number; to: number }) => void;
  /** A click on the plot: the step of the nearest point (by step, or by wall time mapped back). */
  onPick?: (step: number) => void;
  /** The step whose rollouts are open, marked on the chart. */
  picked?: number | null;
}) {
  const data = useMemo(() => mergeRows(lines, x, smooth), [lines, x, smooth]);
  const axis = useMemo(
    () =>
      yAxisFor(
        metric,
        lines.flatMap((l) => l.points.map((p) => p.value)),
        log,
      ),
    [metric, lines, log],
  );
  const format = axis.value;
  const stepAt = (at: number) => data.find((r) => r.x === at)?.[STEP];
  const pickedX = picked == null ? undefined : x === "step" ? picked : data.find((r) => r[STEP] === picked)?.x;
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const single = lines.length === 1 ? lines[0] : undefined;
  const last = single?.points.at(-1);
  const xFormat = (v: number) => (x === "step" ? String(v) : formatSeconds(v));
  const label = (v: unknown) => (typeof v === "number" ? v : Number(v));
  return (
    <figure className="rounded-lg border border-line bg-surface p-4" aria-label={`${title} chart`}>
      <figcaption className="mb-2 flex items-baseline gap-2 text-sm">
        <span className="font-medium">{title}</span>
        <span className="ml-auto truncate font-mono text-xs text-muted" data-testid={`metric-${title}`}>
          {single ? (last ? `${format(last.value)} @ step ${last.step}` : "no data yet") : `${lines.length} lines`} ·{" "}
          {total} pts
        </span>
        <span className="flex shrink-0 items-center gap-1">
          {onToggleLog && (
            <button
              type="button"
              aria-pressed={log}
              aria-label={`Log scale: ${title}`}
              title="Log y axis (positive values only)"
              onClick={onToggleLog}
              className={`rounded border px-1.5 font-mono text-xs ${log ? "border-accent text-accent" : "border-line text-muted hover:text-fg"}`}
            >
              log
            </button>
          )}
          {onHide && (
            <button
              type="button"
              aria-label={`Hide ${title}`}
              title="Hide this chart"
              onClick={onHide}
              className="rounded px-1.5 text-xs text-muted hover:bg-surface-2 hover:text-fg"
            >
              ×
            </button>
          )}
        </span>
      </figcaption>
      {axis.note && (
        <p className="-mt-1 mb-1 text-xs text-warning" data-testid={`axis-note-${title}`}>
          {axis.note}
        </p>
      )}
      <div className={`h-48 select-none ${onPick ? "cursor-pointer" : ""}`}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart
            data={data}
            margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
            onMouseDown={(s) => {
              if (s.activeLabel !== undefined) setDrag({ a: label(s.activeLabel), b: label(s.activeLabel) });
            }}
            onMouseMove={(s) => {
              if (drag && s.activeLabel !== undefined) setDrag({ ...drag, b: label(s.activeLabel) });
            }}
            onMouseUp={() => {
              if (drag && drag.a !== drag.b) onZoom({ from: Math.min(drag.a, drag.b), to: Math.max(drag.a, drag.b) });
              else if (drag && onPick) {
                const step = stepAt(drag.a);
                if (step !== undefined) onPick(step);
              }
              setDrag(null);
            }}
            onMouseLeave={() => setDrag(null)}
          >
            <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
            <XAxis
              dataKey="x"
              type="number"
              domain={["dataMin", "dataMax"]}
              allowDecimals={false}
              stroke="var(--muted)"
              fontSize={11}
              tickFormatter={xFormat}
            />
            <YAxis
              stroke="var(--muted)"
              fontSize={11}
              width={52}
              scale={axis.scale}
              {...(axis.domain ? { domain: axis.domain } : {})}
              {...(axis.ticks ? { ticks: axis.ticks } : {})}
              tickFormatter={(v: number) => axis.tick(v)}
            />
            <Tooltip
              contentStyle={{ background: "var(--surface)", border: "1px solid var(--line)", fontSize: 12 }}
              formatter={(v, name) => [format(Number(v)), String(name)]}
              labelFormatter={(v) => (x === "step" ? `step ${v}` : formatSeconds(Number(v)))}
            />
            {lines.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
            {smooth > 0 &&
              lines.map((l) => (
                <Line
                  key={`${l.key}:raw`}
                  dataKey={`${l.key}:raw`}
                  stroke={l.color}
                  strokeOpacity={0.25}
                  dot={false}
                  strokeWidth={1}
                  isAnimationActive={false}
                  connectNulls
                  legendType="none"
                  tooltipType="none"
                />
              ))}
            {lines.map((l) => (
              <Line
                key={l.key}
                type="linear"
                dataKey={l.key}
                name={l.label}
                stroke={l.color}
                strokeDasharray={l.dash}
                dot={false}
                strokeWidth={1.5}
                isAnimationActive={false}
                connectNulls
              />
            ))}
            {pickedX !== undefined && (
              <ReferenceLine x={pickedX} stroke="var(--accent)" strokeDasharray="4 2" ifOverflow="hidden" />
            )}
            {drag && drag.a !== drag.b && (
              <ReferenceArea x1={drag.a} x2={drag.b} fill="var(--accent)" fillOpacity={0.12} stroke="none" />
            )}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
