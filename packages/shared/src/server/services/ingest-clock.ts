// The wall time an ingested metric point is stored at (issue 40, "Bad input: clock skew"). A
// trainer's `at` comes from its machine's clock, which may be wrong: a time ahead of the server's
// cannot be true (the point would be received before it happened), so it is replaced by the
// server's time; a time long before the run was created is kept, since uploading a log after the
// fact is ordinary, and only said. Either way the item's answer carries the reason. Pure.
import { CLOCK_SKEW_TOLERANCE_MS, type IngestReasonCode } from "../../contracts/ingest";

export interface IngestNote {
  code: IngestReasonCode;
  text: string;
}

/** "45 s", "12 min", "5.5 h", "3 days": the size of a clock difference, for a reason text. */
export function spanText(ms: number): string {
  const s = Math.abs(ms) / 1000;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 120 * 60) return `${Math.round(s / 60)} min`;
  if (s < 48 * 3600) return `${Math.round(s / 360) / 10} h`;
  return `${Math.round(s / 86_400)} days`;
}

/**
 * The wall time to store for an item's `at` (undefined: the database's time of the insert) and
 * the note to answer with. `now` is the server's clock when the batch arrived.
 */
export function metricWallTime(
  at: string | undefined,
  now: Date,
  runCreatedAt: Date,
): { wallTime?: Date; note?: IngestNote } {
  if (at === undefined) return {};
  const t = Date.parse(at);
  if (!Number.isFinite(t)) return {};
  const tolerance = spanText(CLOCK_SKEW_TOLERANCE_MS);
  const ahead = t - now.getTime();
  if (ahead > CLOCK_SKEW_TOLERANCE_MS) {
    return {
      wallTime: now,
      note: {
        code: "clock_ahead",
        text:
          `at ${at} is ${spanText(ahead)} ahead of the server's clock (more than the ${tolerance} ` +
          `tolerance; the sending machine's clock runs ahead): stored at the server's time ${now.toISOString()}`,
      },
    };
  }
  const before = runCreatedAt.getTime() - t;
  if (before > CLOCK_SKEW_TOLERANCE_MS) {
    return {
      wallTime: new Date(t),
      note: {
        code: "before_run",
        text:
          `at ${at} is ${spanText(before)} before the run was created (${runCreatedAt.toISOString()}): ` +
          `kept as given, as for a log uploaded after the fact; if the sending machine's clock runs behind, set it right`,
      },
    };
  }
  return { wallTime: new Date(t) };
}

/** An item's answer with its notes: their texts joined, the first one's code. */
export function withNotes<T extends { id: string; status: string }>(
  result: T,
  notes: IngestNote[],
): T & { reason?: string; code?: IngestReasonCode } {
  if (notes.length === 0) return result;
  return { ...result, reason: notes.map((n) => n.text).join("; "), code: notes[0]!.code };
}
