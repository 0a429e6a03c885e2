"use client";
// What a nano checkpoint says of its weights (models.list `nano`, read from its config.json),
// under its row on the Models page: the K it was trained on, the quality measured on held-out
// suites, and a one-line lineage whose stages open in a table.
import type { LineageStage, NanoCheckpointInfo } from "@paravt/shared";
import { Badge } from "@/components/ui/badge";
import { headlineMeasurements, kText, lineageSummary, measurementText, qualitySource } from "./nano-checkpoint-text";

/** "#0d93b5e0", titled with the whole hash. */
export function ShortId({ nano }: { nano: NanoCheckpointInfo }) {
  if (!nano.shortId) return null;
  return (
    <span className="ml-2 font-mono text-xs text-muted" title={`sha256 of model.safetensors: ${nano.modelHash}`}>
      #{nano.shortId}
    </span>
  );
}

const hashText = (h: string | null) => (h ? h.slice(0, 8) : "—");
const argsText = (a: LineageStage["arguments"]) => (typeof a === "string" ? a : a.join(" "));

function LineageTable({ lineage }: { lineage: readonly LineageStage[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-xs" aria-label="Lineage">
        <thead className="text-muted">
          <tr>
            <th className="py-1 pr-3 font-medium">#</th>
            <th className="py-1 pr-3 font-medium">stage</th>
            <th className="py-1 pr-3 font-medium">trainer</th>
            <th className="py-1 pr-3 text-right font-medium">steps</th>
            <th className="py-1 pr-3 text-right font-medium">batch</th>
            <th className="py-1 pr-3 text-right font-medium">seed</th>
            <th className="py-1 pr-3 font-medium">hardware</th>
            <th className="py-1 pr-3 text-right font-medium">min</th>
            <th className="py-1 pr-3 font-medium">data</th>
            <th className="py-1 pr-3 font-medium">parent</th>
          </tr>
        </thead>
        <tbody>
          {lineage.map((s, i) => (
            <tr key={i} className="border-t border-line align-top">
              <td className="py-1 pr-3 text-muted">{i + 1}</td>
              <td className="py-1 pr-3 font-medium" title={argsText(s.arguments)}>
                {s.name}
                {s.commit && <div className="font-mono text-muted">commit {s.commit}</div>}
              </td>
              <td className="py-1 pr-3 font-mono">{s.trainer}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{s.steps.toLocaleString("en-US")}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{s.batch}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{s.seed}</td>
              <td className="py-1 pr-3">{s.hardware}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{s.minutes ?? "—"}</td>
              <td className="max-w-md py-1 pr-3">
                {s.data.description}
                {s.data.dataHash && <div className="font-mono text-muted">data {hashText(s.data.dataHash)}</div>}
              </td>
              <td
                className="py-1 pr-3 font-mono"
                title={s.parentHash ?? "cold start, or the parent's file was not kept"}
              >
                {hashText(s.parentHash)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function NanoCheckpointSummary({ nano }: { nano: NanoCheckpointInfo }) {
  if (nano.problem) return <div className="text-xs text-danger">{nano.problem}</div>;
  const measured = nano.quality ? headlineMeasurements(nano.quality) : [];
  return (
    <div className="flex flex-col gap-1.5 text-xs" data-testid="nano-checkpoint">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <span>
          trained on{" "}
          {nano.trainedKs ? <Badge>{kText(nano.trainedKs)}</Badge> : <span className="text-muted">K not recorded</span>}
        </span>
        {nano.quality && measured.length > 0 ? (
          <span>
            <span className="text-muted">quality on {qualitySource(nano.quality)}:</span>{" "}
            {measured.map(measurementText).join("; ")}
          </span>
        ) : (
          <span className="text-muted">quality not recorded</span>
        )}
      </div>
      {nano.lineage ? (
        <details>
          <summary className="cursor-pointer">
            <span className="text-muted">lineage:</span> {lineageSummary(nano.lineage)}
          </summary>
          <div className="mt-2">
            <LineageTable lineage={nano.lineage} />
          </div>
        </details>
      ) : (
        <span className="text-muted">lineage not recorded</span>
      )}
    </div>
  );
}
