"use client";
import { inboxItemHref, type InboxItemOutput } from "@paravt/shared";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { errorMessage, useTRPC } from "@/trpc/client";
import { timeAgo } from "../format";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Card, PageHeader } from "../ui/card";
import { cn } from "../ui/cn";
import { INBOX_POLL_MS } from "./inbox-bell";

/**
 * The signed-in person's inbox (issue 41 item 15): review comments that mention them, newest
 * first, across their projects. Opening one marks it read; `?unread=1` keeps only the unread.
 */
export function Inbox() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const params = useSearchParams();
  const unreadOnly = params.get("unread") === "1";
  const inbox = useInfiniteQuery(
    trpc.reviews.inbox.infiniteQueryOptions(
      { unreadOnly, limit: 30 },
      { getNextPageParam: (last) => last.nextCursor ?? undefined, refetchInterval: INBOX_POLL_MS },
    ),
  );
  const refresh = () =>
    void Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.reviews.inbox.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.reviews.inboxUnread.pathKey() }),
    ]);
  const mark = useMutation(trpc.reviews.markInbox.mutationOptions({ onSuccess: refresh }));
  const markAll = useMutation(trpc.reviews.markAllInboxRead.mutationOptions({ onSuccess: refresh }));
  const items = inbox.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = inbox.data?.pages[0]?.unread ?? 0;
  const error = inbox.error ?? mark.error ?? markAll.error;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Inbox"
        description="Review comments that mention you, in every project you are a member of."
        actions={
          <>
            <Button
              variant={unreadOnly ? "primary" : "secondary"}
              size="sm"
              aria-pressed={unreadOnly}
              onClick={() => router.replace(unreadOnly ? "/inbox" : "/inbox?unread=1", { scroll: false })}
            >
              Unread only
            </Button>
            <Button
              variant="secondary"
              size="sm"
              disabled={unread === 0 || markAll.isPending}
              onClick={() => markAll.mutate()}
            >
              Mark all read
            </Button>
          </>
        }
      />
      {error && <Alert>{errorMessage(error)}</Alert>}
      <Card className="p-0">
        <ol className="flex flex-col divide-y divide-line" aria-label="Mentions">
          {inbox.data && items.length === 0 && (
            <li className="px-5 py-8 text-center text-sm text-muted">
              {unreadOnly ? "Nothing unread." : "No one has mentioned you yet."}
            </li>
          )}
          {items.map((item) => (
            <InboxRow
              key={item.id}
              item={item}
              onOpen={() => !item.readAt && mark.mutate({ ids: [item.id], read: true })}
              onToggle={() => mark.mutate({ ids: [item.id], read: !item.readAt })}
            />
          ))}
        </ol>
      </Card>
      {inbox.hasNextPage && (
        <Button
          variant="secondary"
          className="self-center"
          disabled={inbox.isFetchingNextPage}
          onClick={() => void inbox.fetchNextPage()}
        >
          Older mentions
        </Button>
      )}
    </div>
  );
}

function InboxRow({ item, onOpen, onToggle }: { item: InboxItemOutput; onOpen(): void; onToggle(): void }) {
  const unread = item.readAt === null;
  return (
    <li className={cn("flex items-start gap-3 px-5 py-3", unread && "bg-accent/5")} data-testid="inbox-item">
      <span
        className={cn("mt-1.5 size-2 shrink-0 rounded-full", unread ? "bg-accent" : "bg-transparent")}
        aria-hidden="true"
      />
      {unread && <span className="sr-only">Unread:</span>}
      <div className="flex min-w-0 flex-1 flex-col gap-0.5">
        <p className="text-sm">
          <span className="font-medium">{item.by.name}</span> mentioned you on sample{" "}
          <span className="font-mono">{item.sampleKey}</span>
          <span className="text-muted">
            {" "}
            · {item.project.name}
            {item.queue ? ` · ${item.queue.name}` : ""}
          </span>
        </p>
        <Link
          href={inboxItemHref(item)}
          onClick={onOpen}
          className="truncate text-sm text-muted hover:text-fg hover:underline"
        >
          {item.excerpt}
        </Link>
      </div>
      <span className="shrink-0 text-xs text-muted" title={item.createdAt.toLocaleString()}>
        {timeAgo(item.createdAt)}
      </span>
      <Button
        size="sm"
        variant="ghost"
        onClick={onToggle}
        className="shrink-0"
        aria-label={`${unread ? "Mark read" : "Mark unread"}: ${item.by.name} on ${item.sampleKey}`}
      >
        {unread ? "Mark read" : "Mark unread"}
      </Button>
    </li>
  );
}
