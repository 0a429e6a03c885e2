"use client";
import {
  REVIEW_FILTER_LABELS,
  reviewQueueFilterSchema,
  type FlipDirection,
  type ReviewQueueFilterKind,
} from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Field, Input, Select } from "../ui/input";

const KINDS = Object.keys(REVIEW_FILTER_LABELS) as ReviewQueueFilterKind[];

/**
 * "Review these": builds a review queue from one run's episodes by a filter and opens it.
 * On eval runs with a dataset, "flipped" picks the other run among the evaluations of the dataset.
 */
export function BuildQueueForm({
  projectId,
  runId,
  datasetId,
}: {
  projectId: string;
  runId: string;
  /** The run's dataset, for the "flipped against" picker (eval runs only). */
  datasetId?: string | null;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [kind, setKind] = useState<ReviewQueueFilterKind>("wrong");
  const [maxK, setMaxK] = useState("16");
  const [below, setBelow] = useState("0.3");
  const [against, setAgainst] = useState("");
  const [direction, setDirection] = useState<FlipDirection>("right_to_wrong");
  const [name, setName] = useState("");
  const others = useQuery({
    ...trpc.evals.runsOn.queryOptions({ projectId, datasetId: datasetId ?? "" }),
    enabled: kind === "flipped" && Boolean(datasetId),
  });
  const create = useMutation(
    trpc.reviews.createQueue.mutationOptions({
      onSuccess: (out) => router.push(`/projects/${projectId}/reviews/${out.queue.id}?item=1`),
    }),
  );
  const kinds = datasetId ? KINDS : KINDS.filter((k) => k !== "flipped");
  // The same schema as the server: a bad number is shown here, not after a round trip.
  const parsed = reviewQueueFilterSchema.safeParse(
    kind === "no_tool_small_k"
      ? { kind, maxK: Number(maxK) }
      : kind === "low_iou"
        ? { kind, below: Number(below) }
        : kind === "flipped"
          ? { kind, againstRunId: against, direction }
          : { kind },
  );
  const problem = parsed.success ? null : (parsed.error.issues[0]?.message ?? "Invalid filter");

  return (
    <form
      className="flex flex-wrap items-end gap-3 rounded-lg border border-line bg-surface p-3"
      aria-label="Build a review queue"
      onSubmit={(e) => {
        e.preventDefault();
        if (parsed.success) create.mutate({ projectId, runId, filter: parsed.data, ...(name.trim() ? { name } : {}) });
      }}
    >
      <Field label="Review queue from">
        <Select value={kind} onChange={(e) => setKind(e.target.value as ReviewQueueFilterKind)} className="w-56">
          {kinds.map((k) => (
            <option key={k} value={k}>
              {REVIEW_FILTER_LABELS[k]}
            </option>
          ))}
        </Select>
      </Field>
      {kind === "no_tool_small_k" && (
        <Field label="K at most">
          <Input type="number" min={1} value={maxK} onChange={(e) => setMaxK(e.target.value)} className="w-24" />
        </Field>
      )}
      {kind === "low_iou" && (
        <Field label="IoU below">
          <Input
            type="number"
            step="0.05"
            min={0}
            max={1}
            value={below}
            onChange={(e) => setBelow(e.target.value)}
            className="w-24"
          />
        </Field>
      )}
      {kind === "flipped" && (
        <>
          <Field label="Against run">
            <Select value={against} onChange={(e) => setAgainst(e.target.value)} className="w-64">
              <option value="">Pick a run…</option>
              {(others.data ?? [])
                .filter((r) => r.id !== runId)
                .map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name}
                  </option>
                ))}
            </Select>
          </Field>
          <Field label="Direction">
            <Select value={direction} onChange={(e) => setDirection(e.target.value as FlipDirection)} className="w-44">
              <option value="right_to_wrong">right there → wrong here</option>
              <option value="wrong_to_right">wrong there → right here</option>
              <option value="any">either way</option>
            </Select>
          </Field>
        </>
      )}
      <Field label="Name (optional)">
        <Input value={name} onChange={(e) => setName(e.target.value)} placeholder="from the filter" className="w-56" />
      </Field>
      <Button type="submit" disabled={!parsed.success || create.isPending}>
        {create.isPending ? "Building…" : "Build review queue"}
      </Button>
      {problem && kind === "flipped" && !against ? null : problem && <p className="text-sm text-danger">{problem}</p>}
      {create.error && (
        <div className="basis-full">
          <Alert>{errorMessage(create.error)}</Alert>
        </div>
      )}
    </form>
  );
}
