import { hasParseableToolCall } from "./parseable-call";
import { pyMin } from "./py-text";

/**
 * SPEC §2 R_tool in [0, 1]: 0 without a parseable tool call (§4); else 0.1, or 0.3 if
 * `<tool_response>` appears; plus 0.5 if R_acc > 0.
 */
export function toolReward(completion: string, accReward: number): number {
  if (!hasParseableToolCall(completion)) return 0;
  let reward = completion.includes("<tool_response>") ? 0.3 : 0.1;
  if (accReward > 0) reward += 0.5;
  return pyMin(reward, 1);
}
