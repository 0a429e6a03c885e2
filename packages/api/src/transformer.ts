// The tRPC transformer: superjson's wire format, written without superjson's walk when an answer
// is plain JSON. superjson visits every node of an answer to find Dates, Maps, undefined and
// shared references: 35 ms of CPU for a 6-series chart of 1,000 points each, against 3 ms for
// this file's check and JSON.stringify (2-core VM; bench/metrics/README.md), more than the
// chart's database read. For a value of only strings,
// finite numbers other than -0, booleans, null, arrays without holes and plain objects, each
// object met once, superjson.serialize answers `{ json: value }` unchanged
// (transformer.test.ts); checking that is one cheap walk. Anything else goes through superjson.
// The browser's client keeps superjson: the format is the same.
import superjson from "superjson";

/** Whether superjson would pass `value` through untouched (see the file's head). */
export function isPlainJson(value: unknown): boolean {
  return plain(value, new Set());
}

function plain(v: unknown, seen: Set<object>): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v) && !Object.is(v, -0);
    case "object": {
      // A second path to the same object is a referential equality superjson records.
      if (seen.has(v)) return false;
      seen.add(v);
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!(i in v) || !plain(v[i], seen)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key of Object.keys(v)) if (!plain((v as Record<string, unknown>)[key], seen)) return false;
      return true;
    }
    default:
      return false;
  }
}

export const transformer = {
  serialize: (value: unknown) => (isPlainJson(value) ? { json: value } : superjson.serialize(value)),
  deserialize: (value: unknown) => superjson.deserialize(value as Parameters<typeof superjson.deserialize>[0]),
};
