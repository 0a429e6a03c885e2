import { Redis, type RedisOptions } from "ioredis";
import { serverEnv } from "./env";

/**
 * A new ioredis connection. BullMQ workers and pub/sub subscribers need their own connections
 * (blocking commands / subscriber mode), hence a factory rather than a singleton;
 * `maxRetriesPerRequest: null` is what BullMQ requires for worker connections.
 */
export function createRedis(opts: RedisOptions = {}): Redis {
  return new Redis(serverEnv().REDIS_URL, { maxRetriesPerRequest: null, ...opts });
}

const holder = globalThis as unknown as { __paravtRedis?: Redis };

/** Shared connection for plain commands and PUBLISH. */
export function redis(): Redis {
  holder.__paravtRedis ??= createRedis();
  return holder.__paravtRedis;
}
