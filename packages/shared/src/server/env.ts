// The server's configuration, validated once with zod. Code reads `serverEnv()`, never
// process.env. Parsed lazily so that importing a module (e.g. during `next build`) does not
// require a database; the first real use fails with a message naming the missing variable.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

function repoRoot(start = process.cwd()): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, "turbo.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
  return dir;
}

const serverEnvSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: z
    .string({
      error: "DATABASE_URL is not set: point it at Postgres 15+, e.g. postgresql://postgres@127.0.0.1:5432/paravt",
    })
    .url("DATABASE_URL must be a postgresql:// URL"),
  REDIS_URL: z
    .string({
      error: "REDIS_URL is not set: point it at Redis 7 (maxmemory-policy noeviction), e.g. redis://127.0.0.1:6379/0",
    })
    .url("REDIS_URL must be a redis:// URL"),
  // Namespaces BullMQ keys and pub/sub channels so tests never touch the demo's queues.
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]+$/)
    .default("paravt"),
  AUTH_SECRET: z
    .string({ error: "AUTH_SECRET is not set: use 32+ random characters (npm start generates one into var/)" })
    .min(32, "AUTH_SECRET must have at least 32 characters"),
  APP_URL: z.string().url().default("http://localhost:3000"),
  DATA_DIR: z.string().default(() => path.join(repoRoot(), "var", "data")),
  // Directories whose videos may be registered by path (comma-separated, absolute). Paths
  // outside them, including through symlinks, are refused. Empty: registering by path is off.
  MEDIA_ROOTS: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().refine((p) => path.isAbsolute(p), "MEDIA_ROOTS entries must be absolute paths"))),
  // Hosts model endpoints may use even if they are link-local / metadata addresses
  // (comma-separated; "*.example.org" matches subdomains). Empty: none.
  MODEL_ENDPOINT_ALLOW: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
  // Largest accepted upload; larger bodies are cut off with 413 while streaming.
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 ** 3),
  // The request header a reverse proxy in front of the web app sets to the client's address
  // (e.g. x-forwarded-for or x-real-ip). Unset: no forwarded header is believed, because any
  // client can send one (issue 37 item 10). Read by `clientAddress()` (client-address.ts).
  TRUSTED_PROXY_HEADER: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9-]*$/, "TRUSTED_PROXY_HEADER must be one header name, e.g. x-forwarded-for or x-real-ip")
    .refine((h) => h !== "forwarded", "TRUSTED_PROXY_HEADER cannot be Forwarded (RFC 7239 is not parsed)")
    .optional()
    .transform((h) => h || undefined),
});

export type ServerEnv = z.infer<typeof serverEnvSchema>;

let cached: ServerEnv | undefined;

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  const res = serverEnvSchema.safeParse(source);
  if (!res.success) {
    const lines = res.error.issues.map((i) => `  - ${i.message}${i.path.length ? ` (${i.path.join(".")})` : ""}`);
    throw new EnvError(`Invalid server configuration:\n${lines.join("\n")}`);
  }
  return { ...res.data, DATA_DIR: path.resolve(res.data.DATA_DIR) };
}

export function serverEnv(): ServerEnv {
  // eslint-disable-next-line no-restricted-properties -- the one place that reads process.env
  cached ??= parseServerEnv(process.env);
  return cached;
}
