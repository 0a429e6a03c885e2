// Where does an `order` answer's quote come from? A model trained on orderSearch "crops" rows
// (suite README) answers `order` questions by quoting the first tool-response sentence that names
// one of the four options ("The first of the four shapes in my crops: A green diamond from 01:30
// to 01:35 is in the middle-left. So the green diamond came first (C)."). Per episode: tool
// rounds, whether any response names an option (the quote it could copy), whether the answer
// opens with such a quote, whether the quoted sentence is word for word a response's, whether it
// is the FIRST such sentence (firstLookSentence: the earliest option the crops show), and whether
// the shape it concludes is the right answer.
import { firstLookSentence, type Appearance } from "@paravt/suite";

export const ORDER_QUOTE_LEAD = "The first of the four shapes in my crops: ";

export interface OrderQuoteTally {
  /** `order` episodes (with tools) counted. */
  episodes: number;
  /** Tool rounds over them (assistant turns that called a tool). */
  rounds: number;
  /** ...where a tool response names one of the four options. */
  findable: number;
  /** ...whose answer opens with ORDER_QUOTE_LEAD. */
  quoted: number;
  /** ...whose quoted sentence is a sentence of a tool response. */
  copied: number;
  /** ...whose quoted sentence is the first response sentence that names an option. */
  first: number;
  /** ...whose "so the <color shape> came first" (either form) names the right answer. */
  right: number;
}

export const noOrderQuotes = (): OrderQuoteTally => ({
  episodes: 0,
  rounds: 0,
  findable: 0,
  quoted: 0,
  copied: 0,
  first: 0,
  right: 0,
});

/** The tally of one `order` episode; null for other templates. */
export function orderQuote(
  template: string,
  options: readonly Appearance[],
  answerText: string,
  finalText: string,
  responses: readonly string[],
  rounds: number,
): OrderQuoteTally | null {
  if (template !== "order") return null;
  const firstSentence = firstLookSentence(responses, options);
  // The thinking of the final turn, from its first character (the think prefix is forced).
  const body = finalText.replace(/^\s*(?:<think>\s*)?/, "");
  const quote = body.startsWith(ORDER_QUOTE_LEAD) ? body.slice(ORDER_QUOTE_LEAD.length).split(" So the ")[0]! : null;
  // Sentences of a summary end in ". " and never hold one inside (suite observe.ts).
  const sentences = responses.flatMap((r) => r.split(/(?<=\.) /));
  const concluded = /[Ss]o the (\w+ \w+) came first/.exec(body)?.[1];
  return {
    episodes: 1,
    rounds,
    findable: firstSentence !== null ? 1 : 0,
    quoted: quote !== null ? 1 : 0,
    copied: quote !== null && sentences.includes(quote) ? 1 : 0,
    first: quote !== null && quote === firstSentence?.sentence ? 1 : 0,
    // answerText is the right option's "color shape" (suite templates.ts), so equality suffices.
    right: concluded === answerText ? 1 : 0,
  };
}

export function addOrderQuotes(total: OrderQuoteTally, one: OrderQuoteTally | null): void {
  if (!one) return;
  for (const key of Object.keys(total) as (keyof OrderQuoteTally)[]) total[key] += one[key];
}
