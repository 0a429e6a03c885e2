// Python's `json.dumps(value, ensure_ascii=False)` for the JSON values the agent writes: separators
// ", " and ": ", keys in insertion order. Models trained on Python-written tool calls and prompts
// (SPEC §1.3's canonical `<tool_call>` form, the reference evaluator's TOOL_SCHEMA) see these bytes.
// Numbers are written as JavaScript writes them: integers without ".0" (Python writes a float 10.0
// as "10.0"), which is what the values here are.

export function pythonJsonDumps(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJsonDumps(v)}`)
    .join(", ")}}`;
}
