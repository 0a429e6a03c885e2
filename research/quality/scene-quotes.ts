// Where does a scene answer's quote come from? A model trained on sceneSearch "crops" +
// sceneAnswer "quote" rows (suite README) answers `scene_color` / `scene_position` questions by
// repeating a summary that shows the asked scene throughout ("The background is brown
// throughout. A yellow triangle from 02:16 to 02:23 is in the top-center …"). Per episode: how
// many tool rounds it ran, whether a tool response showed the asked scene throughout with a shape
// (the quote it could copy), whether the answer opens with such a quote of the asked scene, and
// whether that quote is the start of a tool response (copied) or made up.

export interface QuoteTally {
  /** Scene episodes (with tools) counted. */
  episodes: number;
  /** Tool rounds over them (assistant turns that called a tool). */
  rounds: number;
  /** ...where a tool response shows the asked scene throughout and names a shape. */
  quotable: number;
  /** ...whose answer opens with "The background is <asked scene> throughout." */
  quoted: number;
  /** ...whose quote (up to " That is the shape") is the start of a tool response. */
  copied: number;
  /** ...whose quote is copied and a quotable response existed. */
  copiedWhenQuotable: number;
}

export const noQuotes = (): QuoteTally => ({
  episodes: 0,
  rounds: 0,
  quotable: 0,
  quoted: 0,
  copied: 0,
  copiedWhenQuotable: 0,
});

/** The tally of one scene episode; null for other templates. */
export function sceneQuote(
  template: string,
  scene: string,
  finalText: string,
  responses: readonly string[],
  rounds: number,
): QuoteTally | null {
  if (template !== "scene_color" && template !== "scene_position") return null;
  const lead = `The background is ${scene} throughout.`;
  const quotable = responses.some((r) => r.startsWith(lead) && !r.includes("No shape appears"));
  // The thinking of the final turn, from its first character (the think prefix is forced).
  const body = finalText.replace(/^\s*(?:<think>\s*)?/, "");
  const quote = body.startsWith(lead) ? body.split(" That is the shape")[0]!.trim() : null;
  const copied = quote !== null && responses.some((r) => r.startsWith(quote));
  return {
    episodes: 1,
    rounds,
    quotable: quotable ? 1 : 0,
    quoted: quote !== null ? 1 : 0,
    copied: copied ? 1 : 0,
    copiedWhenQuotable: copied && quotable ? 1 : 0,
  };
}

export function addQuotes(total: QuoteTally, one: QuoteTally | null): void {
  if (!one) return;
  for (const key of Object.keys(total) as (keyof QuoteTally)[]) total[key] += one[key];
}
