"use client";
import {
  REVIEW_STATUSES,
  type FailureTagOutput,
  type ReviewOutput,
  type ReviewStatus,
  type ScoreConfigOutput,
} from "@paravt/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { forwardRef, useImperativeHandle, useRef, useState } from "react";
import { useSessionValue } from "@/lib/session-value";
import { errorMessage, useTRPC } from "@/trpc/client";
import { timeAgo } from "../format";
import { CommentItem } from "./comment-item";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { Select } from "../ui/input";
import { insertMention, matchMembers, mentionQuery, mentionedIds } from "./mentions";
import { ScoreFields, type ScoreFieldsControl } from "./score-fields";

const STATUS_LABEL: Record<ReviewStatus, string> = { OPEN: "Open", TRIAGED: "Triaged", RESOLVED: "Resolved" };
const STATUS_KEY: Record<ReviewStatus, string> = { OPEN: "a", TRIAGED: "t", RESOLVED: "r" };

/** What the page's keyboard does through the panel. */
export interface ReviewPanelControl {
  setStatus(status: ReviewStatus): void;
  toggleTag(index: number): void;
  focusComment(): void;
  focusScore(): void;
}

interface Props {
  projectId: string;
  episodeId: string;
  tags: FailureTagOutput[];
  /** The project's score configs (a field each). */
  scoreConfigs: ScoreConfigOutput[];
  canWrite: boolean;
  /** The signed-in user (the author of their own comments) and whether they may delete anyone's. */
  meId: string | undefined;
  canModerate: boolean;
  /** Current time of the player (a new comment is pinned there when the box is ticked). */
  currentTime(): number;
  seek(t: number): void;
}

/**
 * Status, assignee, taxonomy tags, scores and comments of one episode. Writes go straight to the
 * server (each tag and each score is its own row there, so concurrent reviewers never overwrite
 * each other's); the cache is replaced by the server's answer and refreshed again by the live
 * review events.
 */
export const ReviewPanel = forwardRef<ReviewPanelControl, Props>(function ReviewPanel(
  { projectId, episodeId, tags, scoreConfigs, canWrite, meId, canModerate, currentTime, seek },
  ref,
) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const reviewKey = trpc.reviews.review.queryKey({ projectId, episodeId });
  const review = useQuery(trpc.reviews.review.queryOptions({ projectId, episodeId }));
  const members = useQuery({ ...trpc.members.list.queryOptions({ projectId }), staleTime: 60_000 });
  const onSaved = (r: ReviewOutput) => {
    queryClient.setQueryData(reviewKey, r);
    void queryClient.invalidateQueries({ queryKey: trpc.reviews.queue.queryKey() });
  };
  const update = useMutation(trpc.reviews.update.mutationOptions({ onSuccess: onSaved }));
  const setTag = useMutation(trpc.reviews.setTag.mutationOptions({ onSuccess: onSaved }));
  const comment = useMutation(trpc.reviews.comment.mutationOptions({ onSuccess: onSaved }));

  // The draft survives moving to another item and back (n / p remount the panel): kept per
  // episode in this tab's sessionStorage until it is posted (read after hydration: useSessionValue).
  const [draft, storeDraft] = useSessionValue(`paravt:review-draft:${episodeId}`);
  const body = draft ?? "";
  const setBody = (text: string) => storeDraft(text || null);
  const [pin, setPin] = useState(true);
  const [caret, setCaret] = useState(0);
  const [picked, setPicked] = useState<{ id: string; name: string }[]>([]);
  const box = useRef<HTMLTextAreaElement>(null);
  const scoreFields = useRef<ScoreFieldsControl>(null);

  const r = review.data;
  const tagIds = new Set(r?.tagIds ?? []);
  const toggle = (tag: FailureTagOutput | undefined) => {
    if (!tag || !canWrite) return;
    setTag.mutate({ projectId, episodeId, tagId: tag.id, on: !tagIds.has(tag.id) });
  };
  useImperativeHandle(ref, () => ({
    setStatus: (status) => canWrite && update.mutate({ projectId, episodeId, status }),
    toggleTag: (index) => toggle(tags[index]),
    focusComment: () => box.current?.focus(),
    focusScore: () => scoreFields.current?.focusFirst(),
  }));

  const memberList = (members.data ?? []).map((m) => ({ id: m.userId, name: m.name, email: m.email }));
  const mq = mentionQuery(body, caret);
  const suggestions = mq ? matchMembers(memberList, mq.query) : [];
  const submit = () => {
    if (!body.trim()) return;
    comment.mutate(
      {
        projectId,
        episodeId,
        body: body.trim(),
        videoTimeS: pin ? Math.round(currentTime() * 10) / 10 : null,
        mentionIds: mentionedIds(body, picked),
      },
      {
        onSuccess: () => {
          setBody("");
          setPicked([]);
        },
      },
    );
  };
  const error = review.error ?? update.error ?? setTag.error ?? comment.error;

  return (
    <section className="flex flex-col gap-4 rounded-lg border border-line bg-surface p-4" aria-label="Review">
      {error && <Alert>{errorMessage(error)}</Alert>}
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Status</h3>
        <div className="flex gap-1" role="radiogroup" aria-label="Review status">
          {REVIEW_STATUSES.map((s) => (
            <button
              key={s}
              type="button"
              role="radio"
              aria-checked={r?.status === s}
              disabled={!canWrite}
              onClick={() => update.mutate({ projectId, episodeId, status: s })}
              className={cn(
                "rounded-md border px-3 py-1 text-sm disabled:cursor-not-allowed",
                r?.status === s ? "border-accent bg-accent text-accent-fg" : "border-line text-muted hover:text-fg",
              )}
            >
              {STATUS_LABEL[s]} <kbd className="ml-1 font-mono text-xs opacity-70">{STATUS_KEY[s]}</kbd>
            </button>
          ))}
        </div>
        <label className="flex items-center gap-2 text-sm">
          <span className="text-muted">Assignee</span>
          <Select
            aria-label="Assignee"
            value={r?.assignee?.id ?? ""}
            disabled={!canWrite}
            onChange={(e) => update.mutate({ projectId, episodeId, assigneeId: e.target.value || null })}
          >
            <option value="">Unassigned</option>
            {memberList.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </Select>
        </label>
        {r?.updatedBy && r.updatedAt && (
          <p className="text-xs text-muted" data-testid="review-updated">
            last change by {r.updatedBy.name} {timeAgo(r.updatedAt)}
          </p>
        )}
      </div>

      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Failure tags</h3>
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Failure tags">
          {tags.map((t, i) => {
            const on = tagIds.has(t.id);
            return (
              <button
                key={t.id}
                type="button"
                aria-pressed={on}
                disabled={!canWrite}
                onClick={() => toggle(t)}
                title={t.description || t.name}
                className={cn(
                  "rounded-full border px-2.5 py-0.5 text-xs disabled:cursor-not-allowed",
                  on ? "border-accent bg-accent/15 text-fg" : "border-line text-muted hover:text-fg",
                )}
              >
                {i < 9 && <kbd className="mr-1 font-mono opacity-70">{i + 1}</kbd>}
                {t.name}
              </button>
            );
          })}
        </div>
      </div>

      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">Scores</h3>
        {scoreConfigs.length > 0 ? (
          <ScoreFields
            ref={scoreFields}
            projectId={projectId}
            episodeId={episodeId}
            configs={scoreConfigs}
            scores={r?.scores ?? []}
            canWrite={canWrite}
            onSaved={onSaved}
          />
        ) : (
          <p className="text-xs text-muted">
            No scores defined yet.{" "}
            <Link href={`/projects/${projectId}/reviews#scores`} className="text-accent hover:underline">
              Add one on the Reviews page
            </Link>
          </p>
        )}
      </div>

      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">
          Comments <span className="font-normal text-muted">({r?.comments.length ?? 0})</span>
        </h3>
        <ol className="flex flex-col gap-2" aria-label="Comments">
          {r?.comments.map((c) => (
            <CommentItem
              key={c.id}
              projectId={projectId}
              episodeId={episodeId}
              comment={c}
              canEdit={canWrite && c.author.id === meId}
              canDelete={canWrite && (c.author.id === meId || canModerate)}
              members={memberList}
              seek={seek}
              onSaved={onSaved}
            />
          ))}
        </ol>
        {canWrite && (
          <form
            className="relative flex flex-col gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <textarea
              ref={box}
              aria-label="New comment"
              rows={3}
              value={body}
              placeholder="What went wrong? @ mentions a member · Ctrl+Enter posts · Esc leaves the box"
              className="rounded-md border border-line bg-surface px-3 py-2 text-sm"
              onChange={(e) => {
                setBody(e.target.value);
                setCaret(e.target.selectionStart);
              }}
              onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
              onKeyDown={(e) => {
                if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  submit();
                }
                if (e.key === "Escape") e.currentTarget.blur();
              }}
            />
            {mq && suggestions.length > 0 && (
              <ul
                className="absolute top-full z-10 mt-1 w-64 rounded-md border border-line bg-surface shadow-lg"
                role="listbox"
                aria-label="Mention a member"
              >
                {suggestions.map((m) => (
                  <li key={m.id}>
                    <button
                      type="button"
                      role="option"
                      aria-selected={false}
                      className="w-full px-3 py-1.5 text-left text-sm hover:bg-surface-2"
                      onMouseDown={(e) => {
                        e.preventDefault(); // keep the textarea focused
                        const next = insertMention(body, caret, mq.start, m.name);
                        setBody(next.text);
                        setCaret(next.caret);
                        setPicked((p) => [...p, m]);
                        requestAnimationFrame(() => box.current?.setSelectionRange(next.caret, next.caret));
                      }}
                    >
                      {m.name} <span className="text-xs text-muted">{m.email}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <div className="flex items-center gap-3">
              <label className="flex items-center gap-1.5 text-xs text-muted">
                <input type="checkbox" checked={pin} onChange={(e) => setPin(e.target.checked)} />
                pin to the current video time
              </label>
              <Button size="sm" type="submit" className="ml-auto" disabled={!body.trim() || comment.isPending}>
                Comment
              </Button>
            </div>
          </form>
        )}
      </div>
    </section>
  );
});
