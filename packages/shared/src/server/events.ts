// Run progress over Redis pub/sub: workers publish, every web process relays to its SSE clients
// (run events coalesced per run, `runEvents`).
// One subscriber connection per process fans out to any number of listeners, so a page with
// many open tabs costs one Redis connection, not one per tab.
import type { Redis } from "ioredis";
import type { z } from "zod";
import { reviewEventSchema, type LiveReviewMessage, type ReviewEvent } from "../contracts/reviews";
import { runEventSchema, type LiveRunMessage, type RunEvent } from "../contracts/runs";
import { mergeRunEvents } from "../live/run-event-merge";
import { createCoalescer } from "./event-coalescer";
import { serverEnv } from "./env";
import { createRedis, redis } from "./redis";

type Topic = "events" | "reviews";

function channel(topic: Topic, projectId: string): string {
  return `${serverEnv().REDIS_PREFIX}:${topic}:project:${projectId}`;
}

export async function publishRunEvent(event: RunEvent): Promise<void> {
  await redis().publish(channel("events", event.projectId), JSON.stringify(event));
}

/** Review changes (issue 10) travel on their own channel, so run pages never parse them. */
export async function publishReviewEvent(event: ReviewEvent): Promise<void> {
  await redis().publish(channel("reviews", event.projectId), JSON.stringify(event));
}

/** Listeners get the decoded JSON; each subscription validates it with its own schema. */
type RawListener = (payload: unknown) => void;

/** A channel's listeners and its SUBSCRIBE, which every listener awaits before it counts as live. */
interface Channel {
  listeners: Set<RawListener>;
  subscribed: Promise<unknown>;
}

interface Bus {
  sub: Redis;
  channels: Map<string, Channel>;
}

const holder = globalThis as unknown as { __paravtBus?: Bus };

function bus(): Bus {
  if (!holder.__paravtBus) {
    const sub = createRedis();
    const channels = new Map<string, Channel>();
    sub.on("message", (ch: string, raw: string) => {
      const payload = safeJson(raw);
      for (const fn of channels.get(ch)?.listeners ?? []) fn(payload);
    });
    holder.__paravtBus = { sub, channels };
  }
  return holder.__paravtBus;
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

async function listen(ch: string, fn: RawListener): Promise<() => Promise<void>> {
  const b = bus();
  let channel = b.channels.get(ch);
  if (!channel) {
    const created: Channel = { listeners: new Set(), subscribed: b.sub.subscribe(ch) };
    // A failed SUBSCRIBE is forgotten, so the next listener tries again instead of awaiting it.
    created.subscribed.catch(() => {
      if (b.channels.get(ch) === created) b.channels.delete(ch);
    });
    b.channels.set(ch, created);
    channel = created;
  }
  channel.listeners.add(fn);
  // A second listener that arrives while the first one's SUBSCRIBE is in flight must wait for it
  // too: it tells its client "subscribed" (refetch now, miss nothing after) only once that is true.
  await channel.subscribed;
  return async () => {
    const current = b.channels.get(ch);
    if (!current) return;
    current.listeners.delete(fn);
    if (current.listeners.size === 0) {
      b.channels.delete(ch);
      await b.sub.unsubscribe(ch);
    }
  };
}

/** Calls `fn` for every event of the project until the returned function is called. */
export async function onRunEvents(projectId: string, fn: (event: RunEvent) => void): Promise<() => Promise<void>> {
  return listen(channel("events", projectId), (payload) => {
    const parsed = runEventSchema.safeParse(payload);
    if (parsed.success) fn(parsed.data); // a foreign or malformed message is not ours to relay
  });
}

/**
 * A channel's events as an async iterable that ends when `signal` aborts (tRPC subscriptions).
 * Its first value is `null`: the Redis subscription is live, so a client knows from when on it
 * misses nothing.
 */
async function* liveEvents<T>(
  ch: string,
  schema: z.ZodType<T>,
  signal?: AbortSignal,
  coalesce?: Omit<Parameters<typeof createCoalescer<T>>[0], "emit">,
): AsyncGenerator<T | null> {
  const pending: T[] = [];
  let wake: (() => void) | undefined;
  const deliver = (item: T) => {
    pending.push(item);
    wake?.();
  };
  const coalescer = coalesce ? createCoalescer({ ...coalesce, emit: deliver }) : null;
  const stop = await listen(ch, (payload) => {
    const parsed = schema.safeParse(payload);
    if (!parsed.success) return;
    if (coalescer) coalescer.push(parsed.data);
    else deliver(parsed.data);
  });
  const aborted = new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  try {
    yield null;
    while (!signal?.aborted) {
      while (pending.length) yield pending.shift()!;
      await Promise.race([new Promise<void>((r) => (wake = r)), aborted]);
      wake = undefined;
    }
  } finally {
    coalescer?.close();
    await stop();
  }
}

/**
 * How long a run's burst of events is merged into one for live pages (issue 42 item 1): a trainer
 * at 100 steps/s costs each page 4 events/s, each at most this late.
 */
export const RUN_EVENT_COALESCE_MS = 250;

/**
 * Run changes of a project: `subscribed` first, then one `run` per change, a burst of one run's
 * changes within `coalesceMs` merged into one (`mergeRunEvents`: the latest row, every change).
 */
export async function* runEvents(
  projectId: string,
  signal?: AbortSignal,
  opts: { coalesceMs?: number } = {},
): AsyncGenerator<LiveRunMessage> {
  const coalesce = {
    windowMs: opts.coalesceMs ?? RUN_EVENT_COALESCE_MS,
    key: (e: RunEvent) => e.runId,
    merge: mergeRunEvents,
  };
  for await (const event of liveEvents(channel("events", projectId), runEventSchema, signal, coalesce)) {
    yield event === null ? { type: "subscribed" } : { type: "run", event };
  }
}

/** Review changes of a project: `subscribed` first, then one `review` per change. */
export async function* reviewEvents(projectId: string, signal?: AbortSignal): AsyncGenerator<LiveReviewMessage> {
  for await (const event of liveEvents(channel("reviews", projectId), reviewEventSchema, signal)) {
    yield event === null ? { type: "subscribed" } : { type: "review", event };
  }
}

export async function closeEventBus(): Promise<void> {
  if (holder.__paravtBus) {
    await holder.__paravtBus.sub.quit();
    holder.__paravtBus = undefined;
  }
}
