"use client";
import { EVAL_MODES, MAX_COMPARED_RUNS, MODEL_KIND_EVAL_MODES, type EvalMode, type ModelOutput } from "@paravt/shared";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/trpc/client";
import { MODE_LABEL } from "../evals/format";
import { Badge, StatusBadge } from "../ui/badge";
import { Button } from "../ui/button";
import { Input, Select } from "../ui/input";

/** Existing runs on the sample's dataset (those with an episode on it first); toggling edits the URL. */
export function ExistingRunsPicker({
  projectId,
  sampleId,
  chosen,
  onToggle,
}: {
  projectId: string;
  sampleId: string;
  chosen: readonly string[];
  onToggle: (runId: string) => void;
}) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.evals.runsOn.queryOptions({ projectId, sampleId }));
  const list = [...(runs.data ?? [])].sort((a, b) => Number(b.episodeId !== null) - Number(a.episodeId !== null));
  if (runs.isPending) return <p className="text-sm text-muted">Loading runs…</p>;
  if (list.length === 0)
    return <p className="text-sm text-muted">No evaluation run covers this sample's dataset yet.</p>;
  return (
    <fieldset className="flex flex-col gap-1" aria-label="Existing runs">
      <legend className="mb-1 text-sm font-medium">
        Existing runs <span className="font-normal text-muted">(up to {MAX_COMPARED_RUNS})</span>
      </legend>
      <div className="flex max-h-56 flex-col gap-1 overflow-y-auto">
        {list.map((r) => (
          <label key={r.id} className="flex min-w-0 items-center gap-2 text-sm">
            <input type="checkbox" checked={chosen.includes(r.id)} onChange={() => onToggle(r.id)} />
            <span className="min-w-0 flex-1 truncate" title={r.name}>
              {r.modelName ?? "deleted model"} · {MODE_LABEL[r.mode]} · K={r.k}
            </span>
            <StatusBadge status={r.status} />
            {r.episodeId ? (
              r.episodeStatus === "ERROR" ? (
                <Badge tone="danger">error</Badge>
              ) : r.correct === true ? (
                <Badge tone="success">correct</Badge>
              ) : r.correct === false ? (
                <Badge tone="warning">wrong</Badge>
              ) : (
                <Badge>answered</Badge>
              )
            ) : (
              <span className="shrink-0 text-xs text-muted">no episode on this sample</span>
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export interface ModelChoice {
  modelId: string;
  mode: EvalMode;
  k: number;
}

/** 2–4 rows of model, prompt mode and K for "run now". */
export function ModelChoices({
  models,
  value,
  onChange,
}: {
  models: readonly ModelOutput[];
  value: ModelChoice[];
  onChange: (v: ModelChoice[]) => void;
}) {
  const runnable = models.filter((m) => MODEL_KIND_EVAL_MODES[m.kind].length > 0);
  const [fallback] = useState<ModelChoice>(() => ({ modelId: "", mode: "agentic_general", k: 16 }));
  const set = (i: number, patch: Partial<ModelChoice>) =>
    onChange(value.map((v, j) => (j === i ? { ...v, ...patch } : v)));
  return (
    <div className="flex flex-col gap-2" role="group" aria-label="Models to run">
      {value.map((v, i) => (
        <div key={i} className="flex flex-wrap items-center gap-2">
          <span className="w-5 text-xs text-muted">{i + 1}.</span>
          <Select
            aria-label={`Model ${i + 1}`}
            className="w-56 max-w-full"
            value={v.modelId}
            onChange={(e) => set(i, { modelId: e.target.value })}
          >
            <option value="">pick a model</option>
            {runnable.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
          <Select
            aria-label={`Mode ${i + 1}`}
            className="w-48"
            value={v.mode}
            onChange={(e) => set(i, { mode: e.target.value as EvalMode })}
          >
            {EVAL_MODES.map((m) => (
              <option key={m} value={m}>
                {MODE_LABEL[m]}
              </option>
            ))}
          </Select>
          <Input
            aria-label={`K ${i + 1}`}
            className="w-24"
            type="number"
            min={1}
            max={256}
            value={v.k}
            onChange={(e) => set(i, { k: Number(e.target.value) })}
          />
          {value.length > 2 && (
            <Button
              type="button"
              size="sm"
              variant="secondary"
              onClick={() => onChange(value.filter((_, j) => j !== i))}
            >
              Remove
            </Button>
          )}
        </div>
      ))}
      {value.length < MAX_COMPARED_RUNS && (
        <div>
          <Button type="button" size="sm" variant="secondary" onClick={() => onChange([...value, { ...fallback }])}>
            Add a model
          </Button>
        </div>
      )}
    </div>
  );
}
