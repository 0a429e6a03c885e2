"use client";
import { useQuery } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/trpc/client";
import { timeAgo } from "../format";

/**
 * The earlier versions of a comment (issue 41 item 15), newest first, each with when it was
 * written and when (and by whom) it was replaced. Loaded when opened from the "(edited)" marker.
 */
export function CommentHistory({
  projectId,
  episodeId,
  commentId,
  id,
}: {
  projectId: string;
  episodeId: string;
  commentId: string;
  /** The element id the "(edited)" button points at (aria-controls). */
  id: string;
}) {
  const trpc = useTRPC();
  const history = useQuery(trpc.reviews.commentHistory.queryOptions({ projectId, episodeId, commentId }));
  const versions = history.data?.versions ?? [];
  return (
    <div id={id} className="mt-2 rounded border border-line bg-surface p-2" aria-label="Edit history" role="region">
      {history.error && <p className="text-xs text-danger">{errorMessage(history.error)}</p>}
      {history.data && versions.length === 0 && (
        <p className="text-xs text-muted">
          Earlier versions of this comment were not kept (edited before history existed).
        </p>
      )}
      <ol className="flex flex-col gap-2" aria-label="Earlier versions">
        {versions.map((v, i) => (
          <li key={`${v.replacedAt.toISOString()}-${i}`} className="text-xs" data-testid="comment-version">
            <p className="text-muted">
              <span title={v.writtenAt.toLocaleString()}>written {timeAgo(v.writtenAt)}</span> ·{" "}
              <span title={v.replacedAt.toLocaleString()}>
                replaced {timeAgo(v.replacedAt)}
                {v.replacedBy ? ` by ${v.replacedBy.name}` : ""}
              </span>
            </p>
            <p className="whitespace-pre-wrap text-fg line-through decoration-muted/50">{v.body}</p>
          </li>
        ))}
      </ol>
    </div>
  );
}
