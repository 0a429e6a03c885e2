// The in-app inbox (issue 41 item 15): the @-mentions of the signed-in person in review comments,
// across their projects. It belongs to a person, not to a project: an API token (which acts for
// a project, on behalf of its creator) has no inbox and is refused, and each call reads or marks
// only the caller's own rows. A project the person left drops out of the list and the count.
import type { Prisma } from "@paravt/db";
import { INBOX_EXCERPT_CHARS, type InboxItemOutput, type InboxListOutput } from "../../contracts/reviews";
import { NotFoundError } from "../../errors";
import { db } from "../db";
import { refuseTokens, type Principal } from "./access";
import { memberSelect } from "./reviews-rows";

function mine(principal: Principal): Prisma.MentionNotificationWhereInput {
  refuseTokens(principal);
  return {
    recipientId: principal.userId,
    project: { memberships: { some: { userId: principal.userId } } },
  };
}

export async function inboxUnread(principal: Principal): Promise<{ unread: number }> {
  return { unread: await db().mentionNotification.count({ where: { ...mine(principal), readAt: null } }) };
}

const inboxInclude = {
  project: { select: { id: true, name: true } },
  comment: {
    select: {
      id: true,
      body: true,
      author: { select: memberSelect },
      review: {
        select: {
          episodeId: true,
          episode: {
            select: {
              sample: { select: { key: true } },
              // The newest queue listing the episode: where the team most likely reviews it now.
              queueItems: {
                select: { position: true, queue: { select: { id: true, name: true } } },
                orderBy: [{ queue: { createdAt: "desc" } }, { queueId: "desc" }],
                take: 1,
              },
            },
          },
        },
      },
    },
  },
} satisfies Prisma.MentionNotificationInclude;

function excerpt(body: string): string {
  return body.length <= INBOX_EXCERPT_CHARS ? body : `${body.slice(0, INBOX_EXCERPT_CHARS - 1)}…`;
}

export async function listInbox(
  principal: Principal,
  input: { unreadOnly: boolean; cursor?: string; limit: number },
): Promise<InboxListOutput> {
  const where = { ...mine(principal), ...(input.unreadOnly ? { readAt: null } : {}) };
  if (input.cursor) {
    const own = await db().mentionNotification.count({ where: { id: input.cursor, recipientId: principal.userId } });
    if (own === 0) throw new NotFoundError("Notification");
  }
  const [rows, { unread }] = await Promise.all([
    db().mentionNotification.findMany({
      where,
      include: inboxInclude,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: input.limit + 1,
      ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
    }),
    inboxUnread(principal),
  ]);
  const page = rows.slice(0, input.limit);
  const items: InboxItemOutput[] = page.map((n) => {
    const { review } = n.comment;
    const item = review.episode.queueItems[0];
    return {
      id: n.id,
      createdAt: n.createdAt,
      readAt: n.readAt,
      project: n.project,
      by: n.comment.author,
      commentId: n.comment.id,
      excerpt: excerpt(n.comment.body),
      episodeId: review.episodeId,
      sampleKey: review.episode.sample.key,
      queue: item ? { id: item.queue.id, name: item.queue.name, position: item.position } : null,
    };
  });
  return { items, unread, nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null };
}

/** Marks some of the caller's notifications read or unread; an id that is not theirs is not found. */
export async function markInbox(
  principal: Principal,
  input: { ids: string[]; read: boolean },
): Promise<{ unread: number }> {
  refuseTokens(principal);
  const ids = [...new Set(input.ids)];
  const own = await db().mentionNotification.count({ where: { id: { in: ids }, recipientId: principal.userId } });
  if (own !== ids.length) throw new NotFoundError("Notification");
  await db().mentionNotification.updateMany({
    // Only rows whose state changes: marking a read row read again keeps when it was first read.
    where: { id: { in: ids }, recipientId: principal.userId, readAt: input.read ? null : { not: null } },
    data: { readAt: input.read ? new Date() : null },
  });
  return inboxUnread(principal);
}

export async function markAllInboxRead(principal: Principal): Promise<{ marked: number; unread: number }> {
  const { count } = await db().mentionNotification.updateMany({
    where: { ...mine(principal), readAt: null },
    data: { readAt: new Date() },
  });
  return { marked: count, ...(await inboxUnread(principal)) };
}
