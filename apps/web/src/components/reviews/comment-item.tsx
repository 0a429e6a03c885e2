"use client";
import type { ReviewCommentOutput, ReviewOutput } from "@paravt/shared";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, useTRPC } from "@/trpc/client";
import { timeAgo } from "../format";
import { Button } from "../ui/button";
import { CommentHistory } from "./comment-history";
import { mentionedIds } from "./mentions";

interface Props {
  projectId: string;
  episodeId: string;
  comment: ReviewCommentOutput;
  /** The author may edit and delete; an owner (reviews.comment.moderate) may delete anyone's. */
  canEdit: boolean;
  canDelete: boolean;
  /** Members an edited "@Name" can mention (the server checks membership again). */
  members: readonly { id: string; name: string }[];
  seek(t: number): void;
  onSaved(review: ReviewOutput): void;
}

/**
 * One comment of the review panel: author, age, video pin, body, mentions, its own edit / delete,
 * and "(edited)", which opens the earlier versions.
 */
export function CommentItem({ projectId, episodeId, comment: c, canEdit, canDelete, members, seek, onSaved }: Props) {
  const trpc = useTRPC();
  const [draft, setDraft] = useState<string | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const edit = useMutation(trpc.reviews.editComment.mutationOptions({ onSuccess: onSaved }));
  const remove = useMutation(trpc.reviews.deleteComment.mutationOptions({ onSuccess: onSaved }));
  const save = () => {
    if (!draft?.trim()) return;
    // Mentions follow the edited text: "@Name" of a member mentions them, a removed one no longer does.
    const candidates = [...c.mentions, ...members.filter((m) => !c.mentions.some((x) => x.id === m.id))];
    edit.mutate(
      { projectId, episodeId, commentId: c.id, body: draft.trim(), mentionIds: mentionedIds(draft, candidates) },
      { onSuccess: () => setDraft(null) },
    );
  };
  const error = edit.error ?? remove.error;

  return (
    <li className="rounded-md border border-line bg-surface-2 p-2 text-sm" data-testid="review-comment">
      <div className="mb-1 flex items-center gap-2 text-xs text-muted">
        <span className="font-medium text-fg">{c.author.name}</span>
        <span>{timeAgo(c.createdAt)}</span>
        {c.editedAt && (
          <button
            type="button"
            className="hover:text-fg hover:underline"
            title={`edited ${timeAgo(c.editedAt)}: show the earlier versions`}
            aria-expanded={historyOpen}
            aria-controls={`history-${c.id}`}
            onClick={() => setHistoryOpen((o) => !o)}
          >
            (edited)
          </button>
        )}
        {c.videoTimeS !== null && (
          <button
            type="button"
            className="ml-auto shrink-0 rounded bg-accent/15 px-1.5 font-mono text-accent hover:underline"
            onClick={() => seek(c.videoTimeS!)}
            aria-label={`Seek to ${c.videoTimeS.toFixed(1)} s`}
            data-testid="comment-time"
          >
            {c.videoTimeS.toFixed(1)} s
          </button>
        )}
      </div>
      {draft === null ? (
        <p className="whitespace-pre-wrap">{c.body}</p>
      ) : (
        <form
          className="flex flex-col gap-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <textarea
            aria-label="Edit comment"
            rows={3}
            autoFocus
            value={draft}
            className="rounded-md border border-line bg-surface px-2 py-1 text-sm"
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                save();
              }
              if (e.key === "Escape") setDraft(null);
            }}
          />
          <div className="flex justify-end gap-2">
            <Button size="sm" variant="ghost" type="button" onClick={() => setDraft(null)}>
              Cancel
            </Button>
            <Button size="sm" type="submit" disabled={!draft.trim() || edit.isPending}>
              Save
            </Button>
          </div>
        </form>
      )}
      {historyOpen && c.editedAt && (
        <CommentHistory projectId={projectId} episodeId={episodeId} commentId={c.id} id={`history-${c.id}`} />
      )}
      {c.mentions.length > 0 && (
        <p className="mt-1 text-xs text-muted">mentions {c.mentions.map((m) => m.name).join(", ")}</p>
      )}
      {draft === null && (canEdit || canDelete) && (
        <div className="mt-1 flex justify-end gap-3 text-xs text-muted">
          {canEdit && (
            <button type="button" className="hover:text-fg hover:underline" onClick={() => setDraft(c.body)}>
              Edit
            </button>
          )}
          {canDelete && (
            <button
              type="button"
              className="hover:text-danger hover:underline"
              disabled={remove.isPending}
              onClick={() => {
                if (window.confirm("Delete this comment? This cannot be undone."))
                  remove.mutate({ projectId, episodeId, commentId: c.id });
              }}
            >
              Delete
            </button>
          )}
        </div>
      )}
      {error && <p className="mt-1 text-xs text-danger">{errorMessage(error)}</p>}
    </li>
  );
}
