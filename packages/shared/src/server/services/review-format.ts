// "Format failure" of a stored episode (issue 10 queue filter), from what the episode runner
// stored: the SPEC §4 parser's issues per turn, the SPEC §2 tag balance of every main-agent turn
// (`tagsBalanced` over the forced prefix + the generated text), and whether an answer came out.
import { tagsBalanced } from "@paravt/protocol";

export interface StoredTurnText {
  rawText: string;
  forcedPrefix: string | null;
  parseIssues: unknown;
}

export interface FormatFailure {
  failed: boolean;
  /** Why, for the queue's tooltip and the export: one short reason per problem found. */
  reasons: string[];
}

function issuesOf(parseIssues: unknown): string[] {
  return Array.isArray(parseIssues) ? parseIssues.filter((i): i is string => typeof i === "string") : [];
}

/** An answered (status OK) episode fails format when any of the three checks fails. */
export function formatFailure(turns: readonly StoredTurnText[], prediction: string | null): FormatFailure {
  const reasons: string[] = [];
  turns.forEach((t, i) => {
    const issues = issuesOf(t.parseIssues);
    if (issues.length) reasons.push(`turn ${i + 1}: ${issues.join("; ")}`);
    if (!tagsBalanced((t.forcedPrefix ?? "") + t.rawText)) reasons.push(`turn ${i + 1}: unclosed or unbalanced tag`);
  });
  if (!prediction || prediction.trim() === "") reasons.push("no answer could be extracted");
  return { failed: reasons.length > 0, reasons };
}
