"use client";
import type { ScoreConfigOutput, ScoreSummaryOutput } from "@paravt/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { formatScore } from "./score-input";

/**
 * The project's score configs (issue 41 item 15) with each one's mean and count over the
 * overview's reviews: editors add (name and a fixed range) and rename them, owners delete them
 * and every value given with them.
 */
export function ScoreConfigEditor({
  projectId,
  configs,
  summary,
  canEdit,
  canDelete,
}: {
  projectId: string;
  configs: ScoreConfigOutput[];
  summary: ScoreSummaryOutput[];
  canEdit: boolean;
  canDelete: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = { onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() }) };
  const create = useMutation(trpc.reviews.createScoreConfig.mutationOptions(refresh));
  const update = useMutation(trpc.reviews.updateScoreConfig.mutationOptions(refresh));
  const remove = useMutation(trpc.reviews.deleteScoreConfig.mutationOptions(refresh));
  const [draft, setDraft] = useState({ name: "", min: "0", max: "1", description: "" });
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const error = create.error ?? update.error ?? remove.error;
  const stats = new Map(summary.map((s) => [s.configId, s]));
  const min = Number(draft.min);
  const max = Number(draft.max);
  const rangeOk = draft.min.trim() !== "" && draft.max.trim() !== "" && min < max;

  return (
    <div className="flex flex-col gap-3">
      {error && <Alert>{errorMessage(error)}</Alert>}
      {configs.length === 0 && (
        <p className="text-sm text-muted">
          No scores yet. A score is a number reviewers give each item in a fixed range, e.g. “grounding quality” 0–5.
        </p>
      )}
      <ol className="flex flex-col divide-y divide-line text-sm" aria-label="Score configs">
        {configs.map((c) => {
          const s = stats.get(c.id);
          return (
            <li key={c.id} className="flex items-center gap-2 py-1.5">
              {editing?.id === c.id ? (
                <form
                  className="flex flex-1 gap-2"
                  onSubmit={(e) => {
                    e.preventDefault();
                    update.mutate(
                      { projectId, configId: c.id, name: editing.name },
                      { onSuccess: () => setEditing(null) },
                    );
                  }}
                >
                  <Input
                    aria-label={`New name of ${c.name}`}
                    autoFocus
                    value={editing.name}
                    onChange={(e) => setEditing({ id: c.id, name: e.target.value })}
                    onKeyDown={(e) => e.key === "Escape" && setEditing(null)}
                    className="h-8"
                  />
                  <Button size="sm" type="submit" disabled={!editing.name.trim()}>
                    Save
                  </Button>
                  <Button size="sm" variant="ghost" type="button" onClick={() => setEditing(null)}>
                    Cancel
                  </Button>
                </form>
              ) : (
                <>
                  <span className="flex-1" title={c.description || undefined}>
                    {c.name}{" "}
                    <span className="text-xs text-muted">
                      {c.min}–{c.max}
                    </span>
                  </span>
                  <span className="text-xs tabular-nums text-muted" data-testid="score-summary">
                    {s && s.mean !== null ? `mean ${formatScore(s.mean)} · n ${s.n}` : "n 0"}
                  </span>
                  {canEdit && (
                    <Button size="sm" variant="ghost" onClick={() => setEditing({ id: c.id, name: c.name })}>
                      Rename
                    </Button>
                  )}
                  {canDelete && (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => {
                        if (window.confirm(`Delete the score "${c.name}" and its ${c.uses} values?`))
                          remove.mutate({ projectId, configId: c.id });
                      }}
                    >
                      Delete
                    </Button>
                  )}
                </>
              )}
            </li>
          );
        })}
      </ol>
      {canEdit && (
        <form
          className="flex flex-wrap items-end gap-2"
          aria-label="Add a score"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate(
              { projectId, name: draft.name, description: draft.description, min, max },
              { onSuccess: () => setDraft({ name: "", min: "0", max: "1", description: "" }) },
            );
          }}
        >
          <Input
            aria-label="Score name"
            placeholder="New score"
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            className="h-8 w-44"
          />
          <Input
            aria-label="Minimum"
            type="number"
            step="any"
            value={draft.min}
            onChange={(e) => setDraft({ ...draft, min: e.target.value })}
            className="h-8 w-20"
          />
          <span className="pb-1.5 text-muted">to</span>
          <Input
            aria-label="Maximum"
            type="number"
            step="any"
            value={draft.max}
            aria-invalid={rangeOk ? undefined : true}
            onChange={(e) => setDraft({ ...draft, max: e.target.value })}
            className="h-8 w-20"
          />
          <Input
            aria-label="Score description"
            placeholder="What it measures (optional)"
            value={draft.description}
            onChange={(e) => setDraft({ ...draft, description: e.target.value })}
            className="h-8 w-56"
          />
          <Button size="sm" type="submit" disabled={!draft.name.trim() || !rangeOk || create.isPending}>
            Add score
          </Button>
        </form>
      )}
      {canEdit && !rangeOk && <p className="text-xs text-danger">The minimum must be below the maximum.</p>}
    </div>
  );
}
