// @-mentions in a comment box: the word being typed after "@" (the autocomplete's query) and the
// text after picking a member. The member ids travel beside the text (reviewCommentInput.mentionIds);
// the body keeps a readable "@Name".

/** The query after the last "@" before the caret, if the caret is still in that word. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf("@");
  if (at < 0) return null;
  // "@" starts a mention only at the beginning or after whitespace (not inside an e-mail address).
  if (at > 0 && !/\s/.test(before[at - 1]!)) return null;
  const query = before.slice(at + 1);
  if (/\s/.test(query) || query.length > 40) return null;
  return { start: at, query };
}

/** Replaces the "@query" at `start` with "@Name " and returns the new text and caret. */
export function insertMention(
  text: string,
  caret: number,
  start: number,
  name: string,
): { text: string; caret: number } {
  const insert = `@${name} `;
  return { text: text.slice(0, start) + insert + text.slice(caret), caret: start + insert.length };
}

/** Members whose name or e-mail starts with the query (case-insensitive), at most `limit`. */
export function matchMembers<M extends { name: string; email: string }>(
  members: readonly M[],
  query: string,
  limit = 6,
): M[] {
  const q = query.toLowerCase();
  return members
    .filter(
      (m) =>
        m.name.toLowerCase().startsWith(q) ||
        m.email.toLowerCase().startsWith(q) ||
        m.name.toLowerCase().includes(` ${q}`),
    )
    .slice(0, limit);
}

/** Keeps only the picked members whose "@Name" is still in the text (the user may delete it). */
export function mentionedIds<M extends { id: string; name: string }>(text: string, picked: readonly M[]): string[] {
  return [...new Set(picked.filter((m) => text.includes(`@${m.name}`)).map((m) => m.id))];
}
