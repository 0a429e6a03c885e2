import { setJsonKey, type JsonObject, type JsonValue } from "./py-json";
import type { PyValue } from "./py-expr";
import { pyFloatRepr } from "./py-text";

/** SPEC §4 training parser: raised where Python's `json.dumps` raises TypeError (bytes, complex, set, Ellipsis, ...). */
export class PyUnserializableError extends Error {}

function dictKey(k: PyValue): string {
  // json.dumps key rules, in CPython's order: str, float, True/False/None, int, else TypeError.
  switch (k.t) {
    case "str":
      return k.v;
    case "float":
      if (Number.isNaN(k.v)) return "NaN";
      if (k.v === Infinity) return "Infinity";
      if (k.v === -Infinity) return "-Infinity";
      return pyFloatRepr(k.v);
    case "bool":
      return k.v ? "true" : "false";
    case "none":
      return "null";
    case "int":
      return k.v.toString();
    default:
      throw new PyUnserializableError(`keys must be str, int, float, bool or None, not ${k.t}`);
  }
}

/**
 * SPEC §4 training parser: `json.loads(json.dumps(value))` for a literal_eval result: what a consumer of the reference
 * parser's `arguments` string reads back. Tuples become arrays; duplicate keys after key
 * conversion (e.g. `1` and `"1"`) keep the last value. Ints beyond 2**53 lose precision.
 */
export function pyValueToJson(v: PyValue): JsonValue {
  switch (v.t) {
    case "str":
      return v.v;
    case "int":
      return Number(v.v);
    case "float":
      return v.v;
    case "bool":
      return v.v;
    case "none":
      return null;
    case "tuple":
    case "list":
      return v.items.map(pyValueToJson);
    case "dict": {
      const out: JsonObject = {};
      for (const [k, val] of v.entries) setJsonKey(out, dictKey(k), pyValueToJson(val));
      return out;
    }
    default:
      throw new PyUnserializableError(`Object of type ${v.t} is not JSON serializable`);
  }
}
