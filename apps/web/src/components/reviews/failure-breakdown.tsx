"use client";
import type { ReviewBreakdownOutput } from "@paravt/shared";
import { Bar, BarChart, CartesianGrid, LabelList, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { breakdownHeight, breakdownRows, countKey, TAG_AXIS_WIDTH, truncateLabel } from "./breakdown-rows";

const COLORS = ["var(--accent)", "var(--warning)"];

/**
 * A tag label of the category axis: right-aligned on its band, cut with an ellipsis when too long
 * for the axis, the full name in its title (hover tooltip) and `data-tag`.
 */
export function TagTick({
  x,
  y,
  payload,
}: {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
}) {
  const name = String(payload?.value ?? "");
  return (
    <g transform={`translate(${Number(x ?? 0)},${Number(y ?? 0)})`}>
      <text x={-6} dy="0.35em" textAnchor="end" fill="var(--muted)" fontSize={11} data-tag={name}>
        <title>{name}</title>
        {truncateLabel(name)}
      </text>
    </g>
  );
}

/**
 * Tag counts of one run, or of two runs side by side (which failure modes a change removed or
 * added). Horizontal bars, one band per tag with its label (every label drawn: `interval={0}`) and
 * each bar's count at its end. Bars are counts of reviewed episodes with the tag; the legend says
 * how many were tagged.
 */
export function FailureBreakdownChart({ data }: { data: ReviewBreakdownOutput }) {
  const rows = breakdownRows(data);
  const height = breakdownHeight(rows.length, data.runs.length);
  return (
    <figure aria-label="Failure breakdown chart" className="flex flex-col gap-2">
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 28, bottom: 0, left: 8 }}>
            <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} stroke="var(--muted)" fontSize={11} />
            <YAxis
              type="category"
              dataKey="tag"
              width={TAG_AXIS_WIDTH}
              interval={0}
              tick={(p: Parameters<typeof TagTick>[0]) => <TagTick {...p} />}
              stroke="var(--muted)"
            />
            <Tooltip contentStyle={{ background: "var(--surface)", border: "1px solid var(--line)", fontSize: 12 }} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {data.runs.map((r, i) => (
              <Bar
                key={r.id}
                dataKey={countKey(i)}
                name={`${r.name} (${r.tagged} tagged)`}
                fill={COLORS[i % COLORS.length]}
                isAnimationActive={false}
              >
                <LabelList dataKey={countKey(i)} position="right" fontSize={11} fill="var(--fg)" />
              </Bar>
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only" data-testid="breakdown-table">
        <tbody>
          {rows.map((row) => (
            <tr key={row.tagId}>
              <th>{row.tag}</th>
              {data.runs.map((r, i) => (
                <td key={r.id}>{row[countKey(i)]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
