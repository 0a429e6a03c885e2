// Schema-driven fuzzing of the REST API (issue 37 item 11). For EVERY operation of the OpenAPI
// document, starting from its contract fixture's valid request (openapi-contract/fixtures), each
// path parameter, query parameter and body field is replaced, one at a time, by hostile values
// chosen by its JSON schema type: NUL and lone surrogates, very long strings, invalid
// percent-encodings, integers at and beyond what Postgres int4 / int8 store, floats, -0, NaN-like
// strings, wrong types, deeply nested and huge JSON; and the whole request by duplicate query
// parameters, a body that is not JSON and a wrong content type. Every answer, through the real
// handlers against the real test database and Redis, must be:
//   - never a 5xx;
//   - a status the document lists for the operation, or 400/401/403/404/413/415/422;
//   - free of database driver text, stack frames and server paths.
// The values are a fixed catalogue (no randomness), so a failure names the exact request.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { evals, queue, tokens } from "@paravt/shared/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";
import { documentedOperations, ORIGIN, send, type DocumentedOperation } from "./openapi-contract/http";
import { loadFixtures } from "./openapi-contract/load-fixtures";
import type { RestRequest } from "./openapi-contract/types";
import { createWorld, type World } from "./openapi-contract/world";

const scratch = path.join(os.tmpdir(), `paravt-openapi-fuzz-${process.pid}`);
process.env.REDIS_PREFIX = `paravt-test-openapi-fuzz-${process.pid}`;
process.env.MEDIA_ROOTS = path.join(scratch, "media");
process.env.DATA_DIR = path.join(scratch, "data");
fs.mkdirSync(process.env.MEDIA_ROOTS, { recursive: true });

const doc = buildOpenApiDocument();
const operations = documentedOperations(doc);
const fixtures = await loadFixtures();

/** Refusals any operation may give to a hostile request besides what it documents. */
const ALWAYS_ALLOWED = new Set([400, 401, 403, 404, 413, 415, 422]);

/** Driver text, stack frames and server paths: none may reach a caller. */
const LEAKS: [string, RegExp][] = [
  ["prisma", /prisma/i],
  ["a Prisma invocation", /Invalid `/],
  ["a Prisma error code", /\bP[12]\d{3}\b/],
  ["a Postgres constraint message", /violates/i],
  ["a column name", /\bcolumn\b/i],
  ["a relation name", /relation "/i],
  ["a stack frame", /\n\s+at |\s{4}at \S+ \(/],
  ["a server path", /\/work\/|node_modules|\/tmp\//],
];

/** What even a successful answer must not carry (its data is the world's, which has none of it). */
const SUCCESS_LEAKS = LEAKS.filter(([what]) => ["a Prisma invocation", "a stack frame"].includes(what));

// ----- hostile values ------------------------------------------------------------------------------

/**
 * A JSON literal JSON.stringify cannot produce (1e999 parses to Infinity, -0, integers beyond 2^53,
 * nesting deeper than a recursive stringify allows): carried as a marker string and spliced into
 * the body text.
 */
const RAW_START = "\u0001raw:";
const RAW_END = "\u0001";
const raw = (literal: string) => `${RAW_START}${literal}${RAW_END}`;
const RAW_MARKER = /"\\u0001raw:(.*?)\\u0001"/g;

function bodyText(body: unknown): string {
  return JSON.stringify(body).replace(RAW_MARKER, (_, literal: string) => JSON.parse(`"${literal}"`) as string);
}

const deepObject = (depth: number) => raw(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`);
const deepArray = (depth: number) => raw(`${"[".repeat(depth)}${"]".repeat(depth)}`);
const manyKeys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

/**
 * Hostile values by JSON schema type: `every` goes to every field of the type; `spread` is dealt
 * out two values per field in turn, so an operation with several fields of a type sends them all
 * without multiplying the requests (the suite stays within about a minute on two cores).
 */
interface Catalogue {
  every: readonly unknown[];
  spread: readonly unknown[];
}

const WRONG_TYPES = [null, true, [], {}, "12"];

const STRINGS: Catalogue = {
  every: ["a\u0000b", "\ud800"],
  spread: ["x".repeat(70_000), "\u0000", "x\udfff", "", " ", "%ZZ", "%C0%AF", raw("1e999"), 0, ...WRONG_TYPES],
};

const NUMBERS: Catalogue = {
  every: [2_147_483_648, raw("9223372036854775808"), raw("1e999")],
  spread: [
    1e308,
    -2_147_483_649,
    raw("-0"),
    0.5,
    2_147_483_647,
    -2_147_483_648,
    Number.MAX_SAFE_INTEGER,
    raw("9007199254740993"),
    raw("9223372036854775807"),
    raw("-9223372036854775809"),
    -1e308,
    raw("-1e999"),
    5e-324,
    -1,
    0,
    "NaN",
    "Infinity",
    ...WRONG_TYPES,
  ],
};

const BOOLEANS: Catalogue = { every: ["true"], spread: [1, 0, "false", ...WRONG_TYPES] };

const ARRAYS: Catalogue = {
  every: [Array.from({ length: 10_001 }, () => null)],
  spread: [deepArray(5000), [], [null], ["\u0000"], "x", null, {}],
};

const OBJECTS: Catalogue = {
  every: [deepObject(5000)],
  spread: [
    manyKeys(2000),
    raw('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
    { "\u0000": 1 },
    { "\ud800": "\ud800" },
    [],
    "x",
    null,
    1,
  ],
};

/** A field of any JSON value (`z.unknown()`). */
const ANYTHING: Catalogue = { every: [deepObject(5000)], spread: ["\u0000", raw("1e999"), ...OBJECTS.spread] };

/** Path segments, as sent (percent-encoded already, or not decodable at all). */
const SEGMENTS: Catalogue = {
  every: ["%ZZ", "%C0%AF", "%00"],
  spread: [
    "%ED%A0%80",
    "2147483648",
    "%",
    "%E0%A4%A",
    "%FF",
    "a%00b",
    "x".repeat(5000),
    "%20",
    "-1",
    "9223372036854775808",
    "1e308",
    "-0",
    "NaN",
    "0x1F",
  ],
};

/** Query values, as sent after `name=`. */
const QUERY_VALUES: Catalogue = {
  every: ["%ZZ", "%00", "2147483648", "1e999"],
  spread: [
    "9223372036854775808",
    "x".repeat(20_000),
    "%C0%AF",
    "%",
    "%ED%A0%80",
    "",
    "+",
    "2147483647",
    "-2147483649",
    "9223372036854775807",
    "1e308",
    "-1e308",
    "-0",
    "0.5",
    "-1",
    "NaN",
    "Infinity",
    "0x10",
    "%201",
    "true",
    "null",
  ],
};

/** What an integer path or query parameter is sent, all of it, besides a few of the others. */
const INTEGER_TEXTS = [
  "2147483647",
  "2147483648",
  "-2147483649",
  "9223372036854775808",
  "1e308",
  "1e999",
  "-0",
  "0.5",
  "NaN",
  "0x10",
];

/** Whole bodies: [label, text, content type]; `{json}` is the valid request's body. */
const BODIES: Catalogue = {
  every: [
    ["not JSON", "{not json", "application/json"],
    ["deeply nested body", `${"[".repeat(100_000)}${"]".repeat(100_000)}`, "application/json"],
    ["text/plain body", "{json}", "text/plain"],
    ["no content type", "{json}", null],
  ],
  spread: [
    ["truncated JSON", "{json}-1", "application/json"],
    ["empty body", "", "application/json"],
    ["null body", "null", "application/json"],
    ["array body", "[]", "application/json"],
    ["number body", "1e999", "application/json"],
    ["string body", '"\\u0000"', "application/json"],
    ["huge body", "{huge}", "application/json"],
    ["BOM before JSON", "\ufeff{json}", "application/json"],
    ["form body", "a=b&c=%ZZ", "application/x-www-form-urlencoded"],
    ["multipart content type", "{json}", "multipart/form-data; boundary=x"],
    ["JSON content type with a charset", "{json}", "application/json; charset=utf-16"],
  ],
};

/** Whole query pieces added to a valid query. */
const QUERY_STRINGS: Catalogue = { every: [], spread: ["%ZZ", "a%00=1", `${"x".repeat(10_000)}=1`, "=", "&&&"] };

const AUTHORIZATIONS: Catalogue = {
  every: [],
  spread: [`Bearer ${"x".repeat(8000)}`, "Bearer %ZZ", "Basic Zm9vOmJhcg==", "Bearer", "Bearer pvt_\u00e9"],
};

/** Deals a catalogue's values out to fields: all of `every`, and the next two of `spread`. */
class Dealer {
  private next = new Map<Catalogue, number>();

  constructor(private readonly start: number) {}

  deal(c: Catalogue, spread = 2): unknown[] {
    const at = this.next.get(c) ?? this.start;
    this.next.set(c, at + spread);
    const dealt = Array.from(
      { length: Math.min(spread, c.spread.length) },
      (_, i) => c.spread[(at + i) % c.spread.length],
    );
    return [...c.every, ...dealt];
  }

  /** Only `n` values, in turn from `every` and `spread` together (for what every operation shares). */
  few(c: Catalogue, n: number): unknown[] {
    const all = [...c.every, ...c.spread];
    const at = this.next.get(c) ?? this.start;
    this.next.set(c, at + n);
    return Array.from({ length: Math.min(n, all.length) }, (_, i) => all[(at + i) % all.length]);
  }
}

// ----- the document's schemas ----------------------------------------------------------------------

type Schema = Record<string, unknown>;

function resolve(schema: unknown): Schema {
  let s = (schema ?? {}) as Schema;
  for (let i = 0; i < 10 && typeof s.$ref === "string"; i++) {
    s = (doc.components?.schemas?.[s.$ref.replace(/^#\/components\/schemas\//, "")] ?? {}) as Schema;
  }
  return s;
}

/** The schema's type; for anyOf / oneOf, the first branch that is not null. */
function typeOf(schema: unknown): string {
  const s = resolve(schema);
  if (typeof s.type === "string") return s.type;
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (branches) {
    for (const b of branches) {
      const t = typeOf(b);
      if (t !== "null") return t;
    }
  }
  if (s.const !== undefined) return typeof s.const;
  return "any";
}

function catalogueFor(type: string): Catalogue {
  switch (type) {
    case "string":
      return STRINGS;
    case "integer":
    case "number":
      return NUMBERS;
    case "boolean":
      return BOOLEANS;
    case "array":
      return ARRAYS;
    case "object":
      return OBJECTS;
    default:
      return ANYTHING;
  }
}

type Key = string | number;

/**
 * Every field of a body schema with its type, as a path into the body: object properties, the
 * first item of arrays, the branch of a oneOf whose const `kind` matches the base value.
 */
function fieldsOf(schema: unknown, base: unknown, at: Key[] = [], depth = 0): { at: Key[]; type: string }[] {
  const s = resolve(schema);
  const type = typeOf(s);
  const out = at.length > 0 ? [{ at, type }] : [];
  if (depth > 5) return out;
  const branches = ((s.anyOf ?? s.oneOf) as unknown[] | undefined)?.map(resolve);
  if (branches) {
    const kind = (base as { kind?: unknown } | null)?.kind;
    const branch =
      branches.find((b) => (b.properties as Record<string, Schema> | undefined)?.kind?.const === kind) ??
      branches.find((b) => typeOf(b) !== "null");
    return branch ? [...out, ...fieldsOf(branch, base, at, depth + 1).filter((f) => f.at !== at)] : out;
  }
  if (type === "object" && s.properties) {
    for (const [name, sub] of Object.entries(s.properties as Record<string, unknown>)) {
      out.push(...fieldsOf(sub, (base as Record<string, unknown> | undefined)?.[name], [...at, name], depth + 1));
    }
  }
  if (type === "array" && s.items) {
    out.push(...fieldsOf(s.items, (base as unknown[] | undefined)?.[0], [...at, 0], depth + 1));
  }
  return out;
}

/** A copy of `base` with `value` at `at` (missing objects and arrays on the way are created). */
function withValue(base: unknown, at: Key[], value: unknown): unknown {
  const root = structuredClone(base ?? {}) as Record<Key, unknown>;
  let node = root;
  for (const [i, key] of at.entries()) {
    if (i === at.length - 1) {
      node[key] = value;
      break;
    }
    const next = node[key];
    if (next === null || typeof next !== "object") node[key] = typeof at[i + 1] === "number" ? [] : {};
    node = node[key] as Record<Key, unknown>;
  }
  return root;
}

// ----- requests ----------------------------------------------------------------------------------------

interface Hostile {
  label: string;
  /** Path parameter values as sent (percent-encoded already). */
  path: Record<string, string>;
  /** The query string as sent, without "?". */
  query: string;
  body?: { text: string; contentType: string | null };
  authorization?: string;
}

function baseOf(op: DocumentedOperation, spec: RestRequest, projectId: string): Hostile {
  const params: Record<string, string> = { projectId: encodeURIComponent(projectId) };
  for (const [k, v] of Object.entries(spec.path ?? {})) params[k] = encodeURIComponent(String(v));
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(spec.query ?? {})) {
    for (const item of Array.isArray(v) ? v : [v]) query.append(k, String(item));
  }
  const withBody = op.operation.requestBody !== undefined && !spec.raw;
  return {
    label: "base",
    path: params,
    query: query.toString(),
    ...(withBody ? { body: { text: JSON.stringify(spec.body ?? {}), contentType: "application/json" } } : {}),
  };
}

function toRequest(op: DocumentedOperation, h: Hostile, token: string, spec: RestRequest): Request {
  const pathname = op.path.replace(/\{(.+?)\}/g, (_, name: string) => h.path[name] ?? "");
  const url = `${ORIGIN}${op.server}${pathname}${h.query ? `?${h.query}` : ""}`;
  const headers = new Headers(spec.raw?.headers);
  headers.set("authorization", h.authorization ?? `Bearer ${token}`);
  if (h.body?.contentType) headers.set("content-type", h.body.contentType);
  const body = spec.raw ? spec.raw.body.slice() : h.body?.text;
  return new Request(url, { method: op.method, headers, ...(body !== undefined ? { body } : {}) });
}

const URI_DECODABLE = (s: string) => {
  try {
    decodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
};

/** Every hostile variant of one operation's valid request. */
function hostileRequests(op: DocumentedOperation, base: Hostile, spec: RestRequest, dealer: Dealer): Hostile[] {
  const out: Hostile[] = [];
  const params = (op.operation.parameters ?? []) as { in: string; name: string; schema?: unknown }[];
  // The byte-stream routes get their parameters from Next.js, which answers 400 itself to a path
  // it cannot decode; they are given the decodable segments only.
  const byteStream = op.server !== (doc.servers?.[0]?.url ?? "");

  const isNumeric = (p: { schema?: unknown }) => ["integer", "number"].includes(typeOf(p.schema));

  for (const name of op.pathParams) {
    const param = params.find((p) => p.in === "path" && p.name === name) ?? {};
    // projectId goes through the same schema and middleware in every operation: a few values each.
    const segments = (
      isNumeric(param)
        ? [...INTEGER_TEXTS, ...dealer.few(SEGMENTS, 2)]
        : name === "projectId"
          ? dealer.few(SEGMENTS, 2)
          : dealer.deal(SEGMENTS)
    ) as string[];
    for (const segment of segments) {
      if (byteStream && !URI_DECODABLE(segment)) continue;
      out.push({ ...base, label: `path ${name}=${segment.slice(0, 40)}`, path: { ...base.path, [name]: segment } });
    }
  }

  for (const p of params.filter((x) => x.in === "query")) {
    const others = new URLSearchParams(base.query);
    const existing = others.getAll(p.name);
    others.delete(p.name);
    const rest = others.toString();
    const join = (extra: string) => (rest ? `${rest}&${extra}` : extra);
    const values = isNumeric(p) ? [...INTEGER_TEXTS, ...dealer.few(QUERY_VALUES, 2)] : dealer.deal(QUERY_VALUES);
    for (const value of values as string[]) {
      out.push({ ...base, label: `query ${p.name}=${value.slice(0, 40)}`, query: join(`${p.name}=${value}`) });
    }
    // A scalar parameter given twice; a list parameter given a thousand times.
    const one = encodeURIComponent(existing[0] ?? "1");
    const times = typeOf(p.schema) === "array" ? 1000 : 2;
    out.push({
      ...base,
      label: `query ${p.name} x${times}`,
      query: join(Array.from({ length: times }, () => `${p.name}=${one}`).join("&")),
    });
  }
  if (op.method === "GET" || op.method === "DELETE") {
    for (const query of dealer.few(QUERY_STRINGS, 1) as string[]) {
      out.push({
        ...base,
        label: `query string ${query.slice(0, 20)}`,
        query: base.query ? `${base.query}&${query}` : query,
      });
    }
  }

  const bodySchema = (op.operation.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined)
    ?.content?.["application/json"]?.schema;
  if (bodySchema !== undefined && base.body) {
    const baseBody = spec.body ?? {};
    for (const field of fieldsOf(bodySchema, baseBody)) {
      for (const value of dealer.deal(catalogueFor(field.type))) {
        out.push({
          ...base,
          label: `body ${field.at.join(".")} (${field.type}) = ${JSON.stringify(value)?.slice(0, 40)}`,
          body: { text: bodyText(withValue(baseBody, field.at, value)), contentType: "application/json" },
        });
      }
    }
    const json = base.body.text;
    for (const [label, text, contentType] of dealer.deal(BODIES) as [string, string, string | null][]) {
      const body = text
        .replace("{json}-1", json.slice(0, -1))
        .replace("{json}", json)
        .replace("{huge}", bodyText({ ...(baseBody as object), pad: "x".repeat(4_000_000) }));
      out.push({ ...base, label, body: { text: body, contentType } });
    }
  }

  for (const authorization of dealer.deal(AUTHORIZATIONS, 1) as string[]) {
    out.push({ ...base, label: `authorization ${authorization.slice(0, 20)}`, authorization });
  }
  return out;
}

// ----- the test ------------------------------------------------------------------------------------------

let w: World;
let token: string;

beforeAll(async () => {
  w = await createWorld();
  const created = await tokens.createToken(w.ownerAccess, {
    name: "fuzz",
    scopes: ["READ", "WRITE", "LAUNCH"],
    expiresInDays: 1,
    rateLimitPerMinute: 100_000,
  });
  token = created.secret;
});

afterAll(async () => {
  await tokens.settleTokenUses();
  await queue("cpu").obliterate({ force: true });
  await queue("gpu").obliterate({ force: true });
  await evals.closeEvalFlows();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** What is wrong with one answer (empty: nothing). */
function problemsOf(op: DocumentedOperation, res: { status: number; body: unknown }): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`server error ${res.status}`);
  else if (!op.statuses.includes(String(res.status)) && !ALWAYS_ALLOWED.has(res.status)) {
    problems.push(`undocumented status ${res.status}`);
  }
  const text = typeof res.body === "string" ? res.body : JSON.stringify(res.body);
  for (const [what, pattern] of res.status >= 400 ? LEAKS : SUCCESS_LEAKS) {
    if (pattern.test(text)) problems.push(`leaks ${what}`);
  }
  return problems;
}

/** Answers of a few requests at a time (the handlers wait on Postgres and Redis, not on the CPU). */
async function sendAll(
  requests: (() => Request)[],
  each: (i: number, res: { status: number; body: unknown }) => void,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      each(i, await send(requests[i]!()));
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

describe("the REST API under hostile input", () => {
  it("fuzzes every documented operation", () => {
    expect(operations.filter((op) => !fixtures[op.operationId]).map((op) => op.operationId)).toEqual([]);
  });

  for (const [index, op] of operations.entries()) {
    it(`${op.method} ${op.server}${op.path} (${op.operationId}) answers every hostile request cleanly`, async () => {
      const fx = fixtures[op.operationId]!;
      const spec = await fx.valid(w);
      const base = baseOf(op, spec, w.projectId);
      // Each operation starts dealing at another place, so the spread values go round all of them.
      const cases = hostileRequests(op, base, spec, new Dealer(index * 3));
      const failures: string[] = [];
      await sendAll(
        cases.map((h) => () => toRequest(op, h, token, spec)),
        (i, res) => {
          const problems = problemsOf(op, res);
          if (problems.length > 0) {
            const body = (typeof res.body === "string" ? res.body : JSON.stringify(res.body)).slice(0, 300);
            failures.push(`${cases[i]!.label} -> ${res.status} (${problems.join(", ")}): ${body}`);
          }
        },
      );
      expect(failures).toEqual([]);
      // Launches send a few hundred requests that each queue work: on a loaded machine, minutes.
    }, 180_000);
  }
});
