"use client";
import type { FailureTagOutput } from "@paravt/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Input, Select } from "../ui/input";

/**
 * The project's failure taxonomy: editors add, rename (every use follows, reviews point at the
 * tag's id) and merge tags; owners also delete them. Numbers are the review page's keys.
 */
export function TaxonomyEditor({
  projectId,
  tags,
  canEdit,
  canDelete,
}: {
  projectId: string;
  tags: FailureTagOutput[];
  canEdit: boolean;
  canDelete: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = { onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.reviews.pathKey() }) };
  const create = useMutation(trpc.reviews.createTag.mutationOptions(refresh));
  const rename = useMutation(trpc.reviews.renameTag.mutationOptions(refresh));
  const merge = useMutation(trpc.reviews.mergeTags.mutationOptions(refresh));
  const remove = useMutation(trpc.reviews.deleteTag.mutationOptions(refresh));
  const [name, setName] = useState("");
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const [mergeFrom, setMergeFrom] = useState("");
  const [mergeInto, setMergeInto] = useState("");
  const error = create.error ?? rename.error ?? merge.error ?? remove.error;

  return (
    <div className="flex flex-col gap-3">
      {error && <Alert>{errorMessage(error)}</Alert>}
      <ol className="flex flex-col divide-y divide-line text-sm" aria-label="Taxonomy">
        {tags.map((t, i) => (
          <li key={t.id} className="flex items-center gap-2 py-1.5">
            <kbd className="w-5 text-center font-mono text-xs text-muted">{i < 9 ? i + 1 : ""}</kbd>
            {editing?.id === t.id ? (
              <form
                className="flex flex-1 gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  rename.mutate({ projectId, tagId: t.id, name: editing.name }, { onSuccess: () => setEditing(null) });
                }}
              >
                <Input
                  aria-label={`New name of ${t.name}`}
                  autoFocus
                  value={editing.name}
                  onChange={(e) => setEditing({ id: t.id, name: e.target.value })}
                  className="h-8"
                />
                <Button size="sm" type="submit">
                  Save
                </Button>
                <Button size="sm" variant="ghost" type="button" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
              </form>
            ) : (
              <>
                <span className="flex-1">{t.name}</span>
                <span className="text-xs tabular-nums text-muted">{t.uses} uses</span>
                {canEdit && (
                  <Button size="sm" variant="ghost" onClick={() => setEditing({ id: t.id, name: t.name })}>
                    Rename
                  </Button>
                )}
                {canDelete && (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => {
                      if (window.confirm(`Delete "${t.name}" and remove it from ${t.uses} reviews?`))
                        remove.mutate({ projectId, tagId: t.id });
                    }}
                  >
                    Delete
                  </Button>
                )}
              </>
            )}
          </li>
        ))}
      </ol>
      {canEdit && (
        <div className="flex flex-wrap items-center gap-3">
          <form
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate({ projectId, name, description: "" }, { onSuccess: () => setName("") });
            }}
          >
            <Input
              aria-label="New tag"
              placeholder="New tag"
              value={name}
              onChange={(e) => setName(e.target.value)}
              className="h-8 w-48"
            />
            <Button size="sm" type="submit" disabled={!name.trim()}>
              Add
            </Button>
          </form>
          <form
            className="flex items-center gap-2 text-sm"
            onSubmit={(e) => {
              e.preventDefault();
              merge.mutate(
                { projectId, fromTagId: mergeFrom, intoTagId: mergeInto },
                {
                  onSuccess: () => {
                    setMergeFrom("");
                    setMergeInto("");
                  },
                },
              );
            }}
          >
            <span className="text-muted">Merge</span>
            <Select
              aria-label="Merge tag"
              value={mergeFrom}
              onChange={(e) => setMergeFrom(e.target.value)}
              className="h-8 w-44"
            >
              <option value="">tag…</option>
              {tags.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
            <span className="text-muted">into</span>
            <Select
              aria-label="Into tag"
              value={mergeInto}
              onChange={(e) => setMergeInto(e.target.value)}
              className="h-8 w-44"
            >
              <option value="">tag…</option>
              {tags
                .filter((t) => t.id !== mergeFrom)
                .map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
            </Select>
            <Button size="sm" variant="secondary" type="submit" disabled={!mergeFrom || !mergeInto}>
              Merge
            </Button>
          </form>
        </div>
      )}
    </div>
  );
}
