// The checks behind /api/health. Each backing service gets a bounded probe, run in parallel, so
// the answer comes within `HEALTH_TIMEOUT_MS` whatever is down (issue 37, item 5: a Redis outage
// used to hang this route, because the shared ioredis connection queues commands until it is back).
import type { Redis } from "ioredis";

/** Longest a probe may take; a healthy Postgres or Redis answers in milliseconds. */
export const HEALTH_TIMEOUT_MS = 1500;

/** "ok", or why the service counts as down, in our words (never a driver message: the route is public). */
export type CheckResult = "ok" | string;

/** Runs `probe`, refusing it after `timeoutMs`. */
export async function check(name: string, probe: () => Promise<unknown>, timeoutMs = HEALTH_TIMEOUT_MS) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  // Through a promise, so a probe that throws synchronously (e.g. bad config) counts as down too.
  const run = Promise.resolve()
    .then(probe)
    .then(
      (): CheckResult => "ok",
      (err: unknown): CheckResult => {
        console.error(`health: ${name} check failed:`, err);
        return "unreachable";
      },
    );
  return Promise.race([run, timeout]).finally(() => clearTimeout(timer));
}

/** PING, unless the connection is already known to be down (then nothing is queued for later). */
export function pingRedis(client: Redis): Promise<unknown> {
  if (client.status === "reconnecting" || client.status === "close" || client.status === "end") {
    return Promise.reject(new Error(`Redis connection is ${client.status}`));
  }
  return client.ping();
}

export interface Health {
  ok: boolean;
  checks: Record<string, CheckResult>;
  /** Present when something is down: names it, e.g. "redis: no answer within 1500 ms". */
  error?: string;
}

/** Runs every probe in parallel and sums them up. */
export async function health(probes: Record<string, () => Promise<unknown>>, timeoutMs = HEALTH_TIMEOUT_MS) {
  const names = Object.keys(probes);
  const results = await Promise.all(names.map((n) => check(n, probes[n]!, timeoutMs)));
  const checks = Object.fromEntries(names.map((n, i) => [n, results[i]!]));
  const down = names.filter((n) => checks[n] !== "ok");
  const out: Health = { ok: down.length === 0, checks };
  if (down.length) out.error = down.map((n) => `${n}: ${checks[n]}`).join("; ");
  return out;
}
