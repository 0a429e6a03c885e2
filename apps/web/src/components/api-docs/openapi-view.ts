// Pure helpers of the API reference page: the slice of an OpenAPI 3.1 document the page reads,
// operations grouped by tag, $ref resolution, example bodies and request URLs for "Try it".
// Client-safe (no server imports); unit-tested in openapi-view.test.ts.

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
};

export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface MediaObject {
  schema?: JsonSchema;
}

export interface ResponseObject {
  description?: string;
  headers?: Record<string, { description?: string; schema?: JsonSchema }>;
  content?: Record<string, MediaObject>;
}

export interface OperationObject {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content: Record<string, MediaObject> };
  responses: Record<string, ResponseObject>;
}

export interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface Operation {
  method: HttpMethod;
  path: string;
  /** The URL prefix of the path (a path-level server, else the document's first). */
  server: string;
  op: OperationObject;
}

export interface TagGroup {
  tag: string;
  operations: Operation[];
}

/** Operations grouped by their first tag, in the document's tag order (untagged last). */
export function operationsByTag(doc: OpenApiDoc): TagGroup[] {
  const groups = new Map<string, Operation[]>();
  for (const t of doc.tags ?? []) groups.set(t.name, []);
  for (const [path, item] of Object.entries(doc.paths)) {
    const server = item.servers?.[0]?.url ?? doc.servers?.[0]?.url ?? "";
    for (const method of HTTP_METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const tag = op.tags?.[0] ?? "other";
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method, path, server, op });
    }
  }
  return [...groups.entries()].filter(([, ops]) => ops.length > 0).map(([tag, operations]) => ({ tag, operations }));
}

/** The schema a `$ref` names (one level), else the schema itself. */
export function resolveSchema(doc: OpenApiDoc, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace(/^#\/components\/schemas\//, "");
  return doc.components?.schemas?.[name];
}

/** A short label of a schema's type: "string", "integer | null", "array of object", "enum". */
export function typeLabel(doc: OpenApiDoc, raw: JsonSchema | undefined): string {
  const schema = resolveSchema(doc, raw);
  if (!schema) return "any";
  if (schema.enum) return "enum";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const options = schema.anyOf ?? schema.oneOf;
  if (options) return options.map((o) => typeLabel(doc, o)).join(" | ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? "object" : "any";
  return types
    .map((t) =>
      t === "array" ? `array of ${typeLabel(doc, schema.items)}` : schema.format ? `${t} (${schema.format})` : t,
    )
    .join(" | ");
}

/** Constraints worth showing next to a field: bounds, lengths, pattern, default. */
export function constraints(doc: OpenApiDoc, raw: JsonSchema | undefined): string[] {
  const s = resolveSchema(doc, raw);
  if (!s) return [];
  const out: string[] = [];
  const min = s.minimum ?? s.exclusiveMinimum;
  const max = s.maximum ?? s.exclusiveMaximum;
  // zod's int() bounds are the safe-integer range: noise for a reader.
  if (min !== undefined && Math.abs(min) < Number.MAX_SAFE_INTEGER)
    out.push(`${s.exclusiveMinimum !== undefined ? ">" : ">="} ${min}`);
  if (max !== undefined && Math.abs(max) < Number.MAX_SAFE_INTEGER)
    out.push(`${s.exclusiveMaximum !== undefined ? "<" : "<="} ${max}`);
  if (s.minLength !== undefined) out.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) out.push(`max length ${s.maxLength}`);
  if (s.minItems !== undefined) out.push(`min ${s.minItems} items`);
  if (s.maxItems !== undefined) out.push(`max ${s.maxItems} items`);
  if (s.pattern) out.push(`pattern ${s.pattern}`);
  if (s.enum) out.push(s.enum.map((v) => JSON.stringify(v)).join(" | "));
  const items = resolveSchema(doc, s.items);
  if (items?.enum) out.push(`items ${items.enum.map((v) => JSON.stringify(v)).join(" | ")}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

/**
 * A starting body for "Try it": the required fields with their defaults, first enum values or
 * lower bounds; optional fields are left out (the API fills its defaults).
 */
export function exampleFor(doc: OpenApiDoc, raw: JsonSchema | undefined, depth = 0): unknown {
  const s = resolveSchema(doc, raw);
  if (!s || depth > 6) return null;
  if (s.default !== undefined) return s.default;
  if (s.examples?.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options?.length) {
    const first = options.find((o) => resolveSchema(doc, o)?.type !== "null") ?? options[0];
    return exampleFor(doc, first, depth + 1);
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== "null") ?? s.type[0]) : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = exampleFor(doc, s.properties?.[key], depth + 1);
      return out;
    }
    case "array":
      return (s.minItems ?? 0) > 0 ? [exampleFor(doc, s.items, depth + 1)] : [];
    case "integer":
    case "number": {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : undefined);
      return min !== undefined && Math.abs(min) < Number.MAX_SAFE_INTEGER ? min : 0;
    }
    case "boolean":
      return false;
    case "string":
      return s.format === "date-time" ? new Date(0).toISOString() : "string";
    case "null":
      return null;
    default:
      return null;
  }
}

/**
 * The URL of a call: path parameters substituted (URI-encoded), query parameters appended, a
 * comma-separated value of a list parameter repeated (?names=a&names=b). Missing required path
 * parameters are reported instead.
 */
export function requestUrl(operation: Operation, values: Record<string, string>): { url: string; missing: string[] } {
  const params = operation.op.parameters ?? [];
  const missing: string[] = [];
  const path = operation.path.replace(/\{(.+?)\}/g, (_, name: string) => {
    const v = values[name]?.trim();
    if (!v) missing.push(name);
    return encodeURIComponent(v ?? "");
  });
  const query = new URLSearchParams();
  for (const p of params.filter((q) => q.in === "query")) {
    const v = values[p.name]?.trim();
    if (!v) continue;
    const isList = resolveSchemaType(p.schema) === "array";
    for (const item of isList
      ? v
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean)
      : [v])
      query.append(p.name, item);
  }
  const qs = query.toString();
  return { url: `${operation.server}${path}${qs ? `?${qs}` : ""}`, missing };
}

function resolveSchemaType(schema: JsonSchema | undefined): string | undefined {
  const t = schema?.type;
  return Array.isArray(t) ? t.find((x) => x !== "null") : t;
}

/** A curl command line of the call, with the token as a shell variable. */
export function curlCommand(
  origin: string,
  operation: Operation,
  url: string,
  body: { json?: string; file?: boolean },
): string {
  const parts = [
    `curl -X ${operation.method.toUpperCase()} "${origin}${url}"`,
    `-H "Authorization: Bearer $PARAVT_TOKEN"`,
  ];
  if (body.file) parts.push(`-H "X-File-Name: video.mp4"`, `--data-binary @video.mp4`);
  else if (body.json !== undefined) {
    parts.push(`-H "Content-Type: application/json"`, `-d '${body.json.replace(/'/g, "'\\''")}'`);
  }
  return parts.join(" \\\n  ");
}
