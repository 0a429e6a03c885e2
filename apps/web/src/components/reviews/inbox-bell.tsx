"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/trpc/client";
import { cn } from "../ui/cn";

/**
 * How often the header asks for the unread count. The inbox spans projects and the live review
 * events are per project, so the count is polled; review pages refresh it sooner, since their
 * live events refetch every reviews query.
 */
export const INBOX_POLL_MS = 30_000;

/** The header's bell: a link to the inbox with the number of unread mentions. */
export function InboxBell() {
  const trpc = useTRPC();
  const unread = useQuery({ ...trpc.reviews.inboxUnread.queryOptions(), refetchInterval: INBOX_POLL_MS });
  const n = unread.data?.unread ?? 0;
  return (
    <Link
      href="/inbox"
      aria-label={n > 0 ? `Inbox, ${n} unread` : "Inbox"}
      className={cn(
        "relative inline-flex h-8 w-9 items-center justify-center rounded-md text-muted hover:bg-surface-2 hover:text-fg",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent",
      )}
    >
      <svg
        viewBox="0 0 24 24"
        aria-hidden="true"
        className="size-5"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
      >
        <path strokeLinecap="round" strokeLinejoin="round" d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16Z" />
        <path strokeLinecap="round" d="M10 20a2 2 0 0 0 4 0" />
      </svg>
      {n > 0 && (
        <span
          className="absolute -right-0.5 -top-0.5 min-w-4 rounded-full bg-accent px-1 text-center text-[10px] font-semibold leading-4 text-accent-fg tabular-nums"
          data-testid="inbox-unread"
        >
          {n > 99 ? "99+" : n}
        </span>
      )}
    </Link>
  );
}
