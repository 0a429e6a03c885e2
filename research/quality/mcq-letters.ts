// Does an mcq answer's letter say what its thinking concluded? For `scene_color` ("so its color
// is white: option D") and `order` ("so the red square came first: option A"; "So the …" after an
// orderSearch "crops" quote) answers: the
// option text the thinking names, whether that text is the right one, and whether the letter in
// the answer tag is that text's letter in the question. A model can reason to the right text and
// still write another letter (nano README, Quality bar: the letter comes before its text in the
// question, "D. white", so no copy that follows a match reaches it).
import { LETTERS } from "@paravt/suite";

const CONCLUSION: Readonly<Record<string, RegExp>> = {
  scene_color: /so its color is (\w+)[ .:][^]*<answer>\s*([A-D])\s*<\/answer>/,
  order: /[Ss]o the (\w+ \w+) came first[ .:][^]*<answer>\s*([A-D])\s*<\/answer>/,
};

export interface LetterTally {
  /** Answers whose thinking names an option text and whose answer tag holds a letter. */
  stated: number;
  /** ...whose named text is the right answer's. */
  textRight: number;
  /** ...whose letter is the named text's letter. */
  letterMatches: number;
}

export const noLetters = (): LetterTally => ({ stated: 0, textRight: 0, letterMatches: 0 });

/** The tally of one final turn; null for other templates or when no conclusion is found. */
export function mcqLetter(
  template: string,
  finalText: string,
  options: readonly string[],
  answerText: string,
): LetterTally | null {
  const re = CONCLUSION[template];
  const m = re?.exec(finalText);
  if (!m) return null;
  const [, text, letter] = m;
  return {
    stated: 1,
    textRight: text === answerText ? 1 : 0,
    letterMatches: LETTERS[options.indexOf(text!)] === letter ? 1 : 0,
  };
}

export function addLetters(total: LetterTally, one: LetterTally | null): void {
  if (!one) return;
  total.stated += one.stated;
  total.textRight += one.textRight;
  total.letterMatches += one.letterMatches;
}
