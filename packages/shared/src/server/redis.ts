import { Redis, type RedisOptions } from "ioredis";
import { serverEnv } from "./env";

/**
 * A new ioredis connection. BullMQ workers and pub/sub subscribers need their own connections
 * (blocking commands / subscriber mode), hence a factory rather than a singleton;
 * `maxRetriesPerRequest: null` is what BullMQ requires for worker connections.
 */
export function createRedis(opts: RedisOptions = {}): Redis {
  const client = new Redis(serverEnv().REDIS_URL, { maxRetriesPerRequest: null, ...opts });
  // Without a listener ioredis prints "[ioredis] Unhandled error event" with a stack for every
  // reconnect attempt while Redis is down; one line per connection every 10 s says the same.
  let lastLogged = 0;
  client.on("error", (err: Error) => {
    const now = Date.now();
    if (now - lastLogged < 10_000) return;
    lastLogged = now;
    console.warn(JSON.stringify({ t: new Date(now).toISOString(), msg: "redis unreachable", error: err.message }));
  });
  return client;
}

const holder = globalThis as unknown as { __paravtRedis?: Redis };

/** Shared connection for plain commands and PUBLISH. */
export function redis(): Redis {
  holder.__paravtRedis ??= createRedis();
  return holder.__paravtRedis;
}
