// Global setup of the fault suite: its own Postgres and Redis (services.ts), the schema migrated,
// and their coordinates in the environment the test files inherit. Stopped again at the end.
import fs from "node:fs";
import path from "node:path";
import { migrate, ensureDatabase } from "../../prisma/src/migrate";
import {
  FAULTS_DIR,
  freePort,
  initPostgres,
  killRedis,
  services,
  startPostgres,
  startRedis,
  stopPostgres,
  type FaultServices,
} from "./services";

export default async function setup(): Promise<() => Promise<void>> {
  fs.mkdirSync(FAULTS_DIR, { recursive: true });
  const s: FaultServices = {
    pgData: path.join(FAULTS_DIR, "pg"),
    pgPort: await freePort(),
    redisPort: await freePort(),
    redisPidFile: path.join(FAULTS_DIR, "redis.pid"),
  };
  initPostgres(s);
  startPostgres(s);
  startRedis(s);
  Object.assign(process.env, {
    FAULTS_PG_DATA: s.pgData,
    FAULTS_PG_PORT: String(s.pgPort),
    FAULTS_REDIS_PORT: String(s.redisPort),
    FAULTS_REDIS_PIDFILE: s.redisPidFile,
    DATABASE_URL: `postgresql://postgres@127.0.0.1:${s.pgPort}/paravt_faults_test`,
    REDIS_URL: `redis://127.0.0.1:${s.redisPort}/0`,
    REDIS_PREFIX: "paravt-faults",
    DATA_DIR: path.join(FAULTS_DIR, "data"),
    MEDIA_ROOTS: path.join(FAULTS_DIR, "media"),
  });
  fs.mkdirSync(process.env.MEDIA_ROOTS!, { recursive: true });
  await ensureDatabase(process.env.DATABASE_URL!);
  await migrate(process.env.DATABASE_URL!);
  return async () => {
    const now = services();
    try {
      killRedis(now);
    } catch {
      // already gone
    }
    try {
      stopPostgres("immediate", now);
    } catch {
      // already stopped
    }
  };
}
