// Which request fields the nano server refuses. OpenAI answers 400 to an argument it does not
// know; vLLM accepts unknown ones with a warning. Here a field the server cannot honour is a 400
// naming it, never silently ignored, unless its value asks for nothing (the API's default, e.g.
// `presence_penalty: 0`, `tool_choice: "none"`, `response_format: {type: "text"}`), so clients
// that send defaults explicitly still work.

import { isDeepStrictEqual } from "node:util";
import { ChatCompletionRequestSchema } from "../openai-wire";

/** Values of fields the server does not implement that change nothing (besides null). */
const NO_OP_VALUES: Record<string, readonly unknown[]> = {
  frequency_penalty: [0],
  presence_penalty: [0],
  repetition_penalty: [1],
  logit_bias: [{}],
  tools: [[]],
  functions: [[]],
  tool_choice: ["none"],
  function_call: ["none"],
  response_format: [{ type: "text" }],
  // vLLM extensions that would change the output; their defaults are no-ops.
  top_k: [-1, 0],
  min_p: [0],
  min_tokens: [0],
  skip_special_tokens: [true],
  include_stop_str_in_output: [false],
  echo: [false],
};

/** Fields with no effect on a completion at all (bookkeeping only). */
const ALWAYS_NO_OP = new Set(["store", "metadata", "service_tier"]);

const SERVED = new Set(Object.keys(ChatCompletionRequestSchema.shape));

/** The first field the server cannot honour, with why; null when every field is served or a no-op. */
export function unsupportedField(body: Record<string, unknown>): { param: string; message: string } | null {
  for (const [key, value] of Object.entries(body)) {
    if (SERVED.has(key) || ALWAYS_NO_OP.has(key) || value === null || value === undefined) continue;
    const noOps = NO_OP_VALUES[key];
    if (noOps?.some((v) => isDeepStrictEqual(v, value))) continue;
    if (
      key === "parallel_tool_calls" &&
      typeof value === "boolean" &&
      !(Array.isArray(body.tools) && body.tools.length > 0)
    )
      continue;
    const message = noOps
      ? `${key} is not supported by the nano server (only ${noOps.map((v) => JSON.stringify(v)).join(" or ")} or null)`
      : `${key} is not supported by the nano server`;
    return { param: key, message };
  }
  return null;
}
