// Checks a JSON value against a schema of the OpenAPI document (the JSON Schema 2020-12 subset
// zod-openapi emits: type, enum, const, properties / required / additionalProperties, items,
// anyOf / oneOf / allOf, $ref to components, min / max, the date-time format). The contract test
// uses it to hold every successful response to what the document promises.

type Schema = Record<string, unknown>;

export interface SchemaDoc {
  components?: { schemas?: Record<string, unknown> };
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function typeMatches(expected: string, v: unknown): boolean {
  const actual = typeOf(v);
  return expected === actual || (expected === "number" && actual === "integer");
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Problems of `value` against `schema` ("$.a.b: expected string, got number"); empty = valid. */
export function schemaProblems(schema: unknown, value: unknown, doc: SchemaDoc, at = "$"): string[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${at}: no value is allowed here`];
  const s = schema as Schema;
  if (typeof s.$ref === "string") {
    const name = s.$ref.replace(/^#\/components\/schemas\//, "");
    const target = doc.components?.schemas?.[name];
    if (target === undefined) return [`${at}: unresolved $ref ${s.$ref}`];
    return schemaProblems(target, value, doc, at);
  }
  const problems: string[] = [];
  if (s.not !== undefined && schemaProblems(s.not, value, doc, at).length === 0) problems.push(`${at}: matches "not"`);
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) problems.push(...schemaProblems(sub, value, doc, at));
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = s[key];
    if (!Array.isArray(options)) continue;
    const matching = options.filter((sub) => schemaProblems(sub, value, doc, at).length === 0).length;
    if (matching === 0 || (key === "oneOf" && matching > 1)) {
      problems.push(`${at}: ${matching} of the ${key} options match ${JSON.stringify(value)?.slice(0, 80)}`);
    }
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((t) => typeMatches(t, value))) {
      return [...problems, `${at}: expected ${types.join(" | ")}, got ${typeOf(value)}`];
    }
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => e === value)) problems.push(`${at}: ${String(value)} not in enum`);
  if ("const" in s && s.const !== value) problems.push(`${at}: expected ${JSON.stringify(s.const)}`);
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum) problems.push(`${at}: below minimum ${s.minimum}`);
    if (typeof s.maximum === "number" && value > s.maximum) problems.push(`${at}: above maximum ${s.maximum}`);
  }
  if (typeof value === "string" && s.format === "date-time" && !DATE_TIME.test(value)) {
    problems.push(`${at}: "${value}" is not a date-time`);
  }
  if (Array.isArray(value)) {
    if (s.items !== undefined)
      value.forEach((v, i) => problems.push(...schemaProblems(s.items, v, doc, `${at}[${i}]`)));
    if (Array.isArray(s.prefixItems)) {
      s.prefixItems.forEach((sub, i) => problems.push(...schemaProblems(sub, value[i], doc, `${at}[${i}]`)));
    }
  }
  if (typeOf(value) === "object") {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, unknown>;
    for (const key of (s.required as string[] | undefined) ?? []) {
      if (!(key in obj)) problems.push(`${at}: missing required "${key}"`);
    }
    for (const [key, v] of Object.entries(obj)) {
      if (key in props) problems.push(...schemaProblems(props[key], v, doc, `${at}.${key}`));
      else if (s.additionalProperties === false) problems.push(`${at}: undocumented property "${key}"`);
      else if (s.additionalProperties !== undefined) {
        problems.push(...schemaProblems(s.additionalProperties, v, doc, `${at}.${key}`));
      }
    }
  }
  return problems;
}
