/** The worker's log: one JSON object per line (time, message, fields). */
export function log(msg: string, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ t: new Date().toISOString(), msg, ...extra }));
}

/** The line of an error worth logging: Prisma puts the reason last, after a source excerpt. */
export function briefError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? text;
}
