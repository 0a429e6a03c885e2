"use client";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

/** One metric over steps; points arrive already downsampled by the server (min/max preserving). */
export function MetricChart({
  title,
  points,
  total,
  format = (v) => v.toFixed(3),
}: {
  title: string;
  points: { step: number; value: number }[];
  total: number;
  format?: (v: number) => string;
}) {
  const last = points.at(-1);
  return (
    <figure className="rounded-lg border border-line bg-surface p-4" aria-label={`${title} chart`}>
      <figcaption className="mb-2 flex items-baseline justify-between text-sm">
        <span className="font-medium">{title}</span>
        <span className="font-mono text-xs text-muted" data-testid={`metric-${title}`}>
          {last ? `${format(last.value)} @ step ${last.step}` : "no data yet"} · {total} pts
        </span>
      </figcaption>
      <div className="h-48">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" />
            <XAxis dataKey="step" type="number" domain={["dataMin", "dataMax"]} stroke="var(--muted)" fontSize={11} />
            <YAxis stroke="var(--muted)" fontSize={11} width={48} tickFormatter={(v: number) => format(v)} />
            <Tooltip
              contentStyle={{ background: "var(--surface)", border: "1px solid var(--line)", fontSize: 12 }}
              formatter={(v) => format(Number(v))}
              labelFormatter={(s) => `step ${s}`}
            />
            <Line
              type="monotone"
              dataKey="value"
              stroke="var(--accent)"
              dot={false}
              strokeWidth={1.5}
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
