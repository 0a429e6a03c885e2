// Run progress over Redis pub/sub: workers publish, every web process relays to its SSE clients.
// One subscriber connection per process fans out to any number of listeners, so a page with
// many open tabs costs one Redis connection, not one per tab.
import type { Redis } from "ioredis";
import { runEventSchema, type LiveRunMessage, type RunEvent } from "../contracts/runs";
import { serverEnv } from "./env";
import { createRedis, redis } from "./redis";

function channel(projectId: string): string {
  return `${serverEnv().REDIS_PREFIX}:events:project:${projectId}`;
}

export async function publishRunEvent(event: RunEvent): Promise<void> {
  await redis().publish(channel(event.projectId), JSON.stringify(event));
}

type Listener = (event: RunEvent) => void;

interface Bus {
  sub: Redis;
  listeners: Map<string, Set<Listener>>;
}

const holder = globalThis as unknown as { __paravtBus?: Bus };

function bus(): Bus {
  if (!holder.__paravtBus) {
    const sub = createRedis();
    const listeners = new Map<string, Set<Listener>>();
    sub.on("message", (ch: string, raw: string) => {
      const parsed = runEventSchema.safeParse(safeJson(raw));
      if (!parsed.success) return; // a foreign or malformed message is not ours to relay
      for (const fn of listeners.get(ch) ?? []) fn(parsed.data);
    });
    holder.__paravtBus = { sub, listeners };
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

/** Calls `fn` for every event of the project until the returned function is called. */
export async function onRunEvents(projectId: string, fn: Listener): Promise<() => Promise<void>> {
  const b = bus();
  const ch = channel(projectId);
  let set = b.listeners.get(ch);
  if (!set) {
    set = new Set();
    b.listeners.set(ch, set);
    await b.sub.subscribe(ch);
  }
  set.add(fn);
  return async () => {
    const current = b.listeners.get(ch);
    if (!current) return;
    current.delete(fn);
    if (current.size === 0) {
      b.listeners.delete(ch);
      await b.sub.unsubscribe(ch);
    }
  };
}

/**
 * The same stream as an async iterable that ends when `signal` aborts (tRPC subscriptions).
 * Its first message says the Redis subscription is live, so a client knows from when on it
 * misses nothing.
 */
export async function* runEvents(projectId: string, signal?: AbortSignal): AsyncGenerator<LiveRunMessage> {
  const pending: RunEvent[] = [];
  let wake: (() => void) | undefined;
  const stop = await onRunEvents(projectId, (e) => {
    pending.push(e);
    wake?.();
  });
  const aborted = new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
  try {
    yield { type: "subscribed" };
    while (!signal?.aborted) {
      while (pending.length) yield { type: "run", event: pending.shift()! };
      await Promise.race([new Promise<void>((r) => (wake = r)), aborted]);
      wake = undefined;
    }
  } finally {
    await stop();
  }
}

export async function closeEventBus(): Promise<void> {
  if (holder.__paravtBus) {
    await holder.__paravtBus.sub.quit();
    holder.__paravtBus = undefined;
  }
}
