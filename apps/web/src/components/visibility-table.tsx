import type { VisibilityRow } from "@paravt/shared";

const KS = ["4", "8", "16", "32", "64"];

/**
 * The suite's "answerable from the overview" table: per K, the share of questions whose
 * evidence is visible in the K overview frames, and the share the oracle answers without a crop.
 * Cell shading follows the visible share so the need for tool calls at small K stands out.
 */
export function VisibilityTable({ rows }: { rows: VisibilityRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table aria-label="Answerable from the overview" className="w-full border-collapse text-sm">
        <thead>
          <tr className="text-xs uppercase tracking-wide text-muted">
            <th className="px-2 py-1.5 text-left">questions</th>
            <th className="px-2 py-1.5 text-right">n</th>
            {KS.map((k) => (
              <th key={k} className="px-2 py-1.5 text-right">
                K = {k}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.group} className="border-t border-line">
              <td className="px-2 py-1.5 font-medium">{r.group}</td>
              <td className="px-2 py-1.5 text-right tabular-nums">{r.questions}</td>
              {KS.map((k) => {
                const v = r.visible[k] ?? 0;
                return (
                  <td
                    key={k}
                    className="px-2 py-1.5 text-right tabular-nums"
                    style={{ background: `color-mix(in srgb, var(--accent) ${Math.round(v * 35)}%, transparent)` }}
                    title={`evidence visible in ${Math.round(v * 100)} %, answered without a crop in ${Math.round((r.noCrop[k] ?? 0) * 100)} %`}
                  >
                    {Math.round(v * 100)}%{" "}
                    <span className="text-xs text-muted">/ {Math.round((r.noCrop[k] ?? 0) * 100)}%</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-muted">
        Each cell: share of questions whose evidence is visible in the K overview frames / share the oracle answers from
        the overview alone. The rest need crop calls.
      </p>
    </div>
  );
}
