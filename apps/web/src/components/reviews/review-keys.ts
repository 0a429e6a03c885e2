// Keyboard of the review page (issue 10): n / p next and previous item, 1-9 toggle the tag at that
// position of the taxonomy, a / t / r set the status (open / triaged / resolved), c comment, s the
// first score field (issue 41 item 15), ? help (shared with the episode viewer's own keys). Pure,
// so the mapping is unit-tested.
import type { ReviewStatus } from "@paravt/shared";

export type ReviewKeyAction =
  | { kind: "next" }
  | { kind: "prev" }
  | { kind: "tag"; index: number }
  | { kind: "status"; status: ReviewStatus }
  | { kind: "comment" }
  | { kind: "score" };

export const REVIEW_HOTKEYS: readonly (readonly [string, string])[] = [
  ["n / p", "next / previous item of the queue"],
  ["1 – 9", "toggle the tag with that number"],
  ["a / t / r", "status open / triaged / resolved"],
  ["c", "write a comment (pinned to the current time)"],
  ["s", "give a score (Tab to the next one, Enter saves, Esc leaves)"],
];

const STATUS_KEYS: Record<string, ReviewStatus> = { a: "OPEN", t: "TRIAGED", r: "RESOLVED" };

export function reviewKeyAction(key: string): ReviewKeyAction | null {
  if (key === "n") return { kind: "next" };
  if (key === "p") return { kind: "prev" };
  if (key === "c") return { kind: "comment" };
  if (key === "s") return { kind: "score" };
  const status = STATUS_KEYS[key];
  if (status) return { kind: "status", status };
  if (/^[1-9]$/.test(key)) return { kind: "tag", index: Number(key) - 1 };
  return null;
}
