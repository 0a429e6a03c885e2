// Where `paravt auth login` keeps the workbench URL and token: $PARAVT_CONFIG, else
// $XDG_CONFIG_HOME/paravt/config.json, else ~/.config/paravt/config.json, readable by the user
// only (mode 600). PARAVT_URL / PARAVT_TOKEN in the environment win over the file (CI jobs).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

export const remoteConfigSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: "The workbench URL must be http(s)://…" }),
  token: z.string().regex(/^pvt_[A-Za-z0-9_-]+$/, "API tokens look like pvt_…"),
  /** The token's project, learned from /whoami at login (or later, for a PARAVT_TOKEN alone). */
  projectId: z.string().min(1).optional(),
});
export type RemoteConfig = z.infer<typeof remoteConfigSchema>;

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PARAVT_CONFIG) return env.PARAVT_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(base, "paravt", "config.json");
}

export async function writeConfig(config: RemoteConfig, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = configPath(env);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await fs.writeFile(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(file, 0o600);
  return file;
}

export async function removeConfig(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  return fs.rm(configPath(env)).then(
    () => true,
    () => false,
  );
}

export class NotLoggedInError extends Error {
  constructor(file: string) {
    super(`Not logged in: run "paravt auth login --url <workbench> --token pvt_…" (no ${file})`);
  }
}

/** The saved login, with PARAVT_URL / PARAVT_TOKEN / PARAVT_PROJECT overriding its fields. */
export async function readConfig(env: NodeJS.ProcessEnv = process.env): Promise<RemoteConfig> {
  const file = configPath(env);
  const raw = await fs.readFile(file, "utf8").catch(() => null);
  let saved: Partial<RemoteConfig> = {};
  if (raw !== null) {
    try {
      saved = JSON.parse(raw) as Partial<RemoteConfig>;
    } catch {
      throw new Error(`${file} is not valid JSON; log in again`);
    }
  }
  const merged = {
    ...saved,
    ...(env.PARAVT_URL ? { url: env.PARAVT_URL } : {}),
    // Another token than the saved one may belong to another project: its project is looked up.
    ...(env.PARAVT_TOKEN && env.PARAVT_TOKEN !== saved.token ? { token: env.PARAVT_TOKEN, projectId: undefined } : {}),
    ...(env.PARAVT_PROJECT ? { projectId: env.PARAVT_PROJECT } : {}),
  };
  if (!merged.url || !merged.token) throw new NotLoggedInError(file);
  const parsed = remoteConfigSchema.safeParse(merged);
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

/** `pvt_abcd…wxyz`: enough to tell tokens apart, never the secret. */
export function maskToken(token: string): string {
  return token.length <= 12 ? "pvt_…" : `${token.slice(0, 8)}…${token.slice(-4)}`;
}
