"use client";
import type { ReviewBreakdownOutput } from "@paravt/shared";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

const COLORS = ["var(--accent)", "var(--warning)"];

/**
 * Tag counts of one run, or of two runs side by side (which failure modes a change removed or
 * added). Bars are counts of reviewed episodes with the tag; the legend says how many were tagged.
 */
export function FailureBreakdownChart({ data }: { data: ReviewBreakdownOutput }) {
  const rows = (data.runs[0]?.counts ?? []).map((c, i) => ({
    tag: c.name,
    ...Object.fromEntries(data.runs.map((r) => [r.id, r.counts[i]?.count ?? 0])),
  }));
  const height = Math.max(160, rows.length * (data.runs.length > 1 ? 30 : 22) + 40);
  return (
    <figure aria-label="Failure breakdown chart" className="flex flex-col gap-2">
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
            <CartesianGrid stroke="var(--line)" strokeDasharray="3 3" horizontal={false} />
            <XAxis type="number" allowDecimals={false} stroke="var(--muted)" fontSize={11} />
            <YAxis type="category" dataKey="tag" width={190} stroke="var(--muted)" fontSize={11} />
            <Tooltip contentStyle={{ background: "var(--surface)", border: "1px solid var(--line)", fontSize: 12 }} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {data.runs.map((r, i) => (
              <Bar
                key={r.id}
                dataKey={r.id}
                name={`${r.name} (${r.tagged} tagged)`}
                fill={COLORS[i % COLORS.length]}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only" data-testid="breakdown-table">
        <tbody>
          {rows.map((row) => (
            <tr key={row.tag}>
              <th>{row.tag}</th>
              {data.runs.map((r) => (
                <td key={r.id}>{(row as Record<string, unknown>)[r.id] as number}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
