import { describe, expect, it } from "vitest";
import { extractAnswer, removeBlocks } from "./answer";

describe("extractAnswer (SPEC §2 Answer extraction)", () => {
  it("takes the first <answer>X</answer>, trimmed", () => {
    expect(extractAnswer("<think>x</think><answer> B </answer><answer>C</answer>")).toBe("B");
  });

  it("an unclosed <answer> is not an answer block", () => {
    expect(extractAnswer("<answer>B")).toBe("<answer>B");
  });

  it("else uses the text after the first </think> without complete tool blocks", () => {
    const c =
      "<think>a</think> before <tool_call>{}</tool_call> mid <tool_code>f()</tool_code>" +
      " <tool_response>r</tool_response> end</think>x";
    expect(extractAnswer(c)).toBe("before  mid   end</think>x");
  });

  it("deletes <|im_end|> and <|im_start|> from that tail", () => {
    expect(extractAnswer("<think>t</think>\nB<|im_end|>")).toBe("B");
  });

  it("keeps an unterminated tool block in the tail", () => {
    expect(extractAnswer("<think>t</think> <tool_call>{")).toBe("<tool_call>{");
  });

  it("falls back to the last non-empty line not starting with <|im_ or <tool_", () => {
    expect(extractAnswer("first\n  B  \n<|im_end|>\n<tool_call>x\n\n")).toBe("B");
  });

  it("falls back when the tail after </think> is empty", () => {
    expect(extractAnswer("B\n<tool_call>x</tool_call></think>\n<|im_end|>")).toBe("B");
  });

  it("returns empty when nothing qualifies", () => {
    expect(extractAnswer("")).toBe("");
    expect(extractAnswer("<|im_end|>\n<tool_response>")).toBe("");
  });

  it("removeBlocks removes complete blocks leftmost first", () => {
    expect(removeBlocks("a<x>1</x>b<x>2</x>c<x>3", "<x>", "</x>")).toBe("abc<x>3");
  });
});
