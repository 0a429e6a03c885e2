"use client";
import { FLIP_DIRECTIONS, type FlipDirection } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/trpc/client";
import { Field, Select } from "../ui/input";
import { MODE_LABEL } from "./format";

const FLIP_LABEL: Record<FlipDirection, string> = {
  any: "any flip",
  right_to_wrong: "correct → wrong",
  wrong_to_right: "wrong → correct",
};

/**
 * "Compare with" another run on the same dataset (each sample row then links to the comparison
 * page with both runs) and the filter for samples that flipped between that run and this one.
 */
export function CompareWithBar({
  projectId,
  runId,
  datasetId,
  vs,
  flipped,
  onChange,
}: {
  projectId: string;
  runId: string;
  datasetId: string;
  vs: string | null;
  flipped: FlipDirection | null;
  onChange: (patch: { vs?: string | null; flipped?: FlipDirection | null }) => void;
}) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.evals.runsOn.queryOptions({ projectId, datasetId }));
  const others = (runs.data ?? []).filter((r) => r.id !== runId);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="w-80">
        <Field label="Compare with">
          <Select value={vs ?? ""} onChange={(e) => onChange({ vs: e.target.value || null })}>
            <option value="">no other run</option>
            {others.map((r) => (
              <option key={r.id} value={r.id}>
                {r.modelName ?? "deleted model"} · {MODE_LABEL[r.mode]} · K={r.k}
                {r.imported ? " · imported" : ""}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="w-44">
        <Field label="Flipped vs that run">
          <Select
            value={flipped ?? ""}
            disabled={!vs}
            onChange={(e) => onChange({ flipped: (e.target.value || null) as FlipDirection | null })}
          >
            <option value="">all samples</option>
            {FLIP_DIRECTIONS.map((d) => (
              <option key={d} value={d}>
                {FLIP_LABEL[d]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
    </div>
  );
}
