// Who is working (issue 39 item 6). Each worker process keeps one Redis key alive with its
// description (`announceWorker`, every WORKER_HEARTBEAT_MS from workers/src/heartbeat.ts) that
// expires after three missed beats, so a killed worker drops off the list by itself; a worker that
// stops cleanly deletes its key at once. Nothing here is kept in Postgres: a live worker is a fact
// about now, and runs keep their own history.
import { workerInfo, type WorkerInfo } from "../contracts/workers";
import { serverEnv } from "./env";
import { redis } from "./redis";

/** What this process announces as a worker, once it is one (set by workers/src/main.ts). */
export interface WorkerIdentity {
  backend: string;
  device: string;
}

let identity: WorkerIdentity | null = null;

/** Called once by a worker process: each run attempt it starts records this (run-attempts.ts); null forgets it. */
export function setWorkerIdentity(value: WorkerIdentity | null): void {
  identity = value;
}

export function workerIdentity(): WorkerIdentity | null {
  return identity;
}

function keyPrefix(): string {
  return `${serverEnv().REDIS_PREFIX}:workers:`;
}

/** Writes (or refreshes) a worker's announcement; it expires `ttlMs` later unless refreshed. */
export async function announceWorker(info: WorkerInfo, ttlMs: number): Promise<void> {
  const checked = workerInfo.parse(info);
  await redis().set(keyPrefix() + checked.id, JSON.stringify(checked), "PX", Math.max(1, Math.round(ttlMs)));
}

/** A worker that stops cleanly leaves the list at once. */
export async function withdrawWorker(id: string): Promise<void> {
  await redis().del(keyPrefix() + id);
}

/**
 * Every announcement that has not expired, oldest worker first. An entry this version cannot
 * read (another version's worker, a hand-written key) is counted in `unreadable`, not guessed at.
 */
export async function liveWorkers(): Promise<{ workers: WorkerInfo[]; unreadable: number }> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await redis().scan(cursor, "MATCH", `${keyPrefix()}*`, "COUNT", 500);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  if (!keys.length) return { workers: [], unreadable: 0 };
  const values = await redis().mget(...keys);
  const workers: WorkerInfo[] = [];
  let unreadable = 0;
  for (const raw of values) {
    if (raw === null) continue; // expired between SCAN and MGET
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      unreadable++;
      continue;
    }
    const res = workerInfo.safeParse(parsed);
    if (res.success) workers.push(res.data);
    else unreadable++;
  }
  workers.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  return { workers, unreadable };
}
