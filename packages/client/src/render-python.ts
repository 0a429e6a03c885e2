// openapi.json -> the Python SDK's typed REST client (PYTHON_CLIENT_PATH): one
// TypedDict per object schema of a request body or answer, one method per operation on
// `ApiClient`, and the OPERATIONS table the transport (paravt_workbench/api/_transport.py, hand-written,
// stdlib only) sends by. Pure: the generator (apps/web/scripts/write-openapi.ts) and the staleness
// test (render-python.test.ts) render the same text from the same document.
//
// TypedDicts rather than dataclasses: an answer is json.loads' dict as it is, typed for editors and
// type checkers at no runtime cost, and a body is a plain dict the caller writes. Python 3.9 has no
// NotRequired, so an object with both required and optional keys is a required base class plus a
// `total=False` subclass. Structurally identical schemas (the run summary appears in many answers)
// are rendered once; every later name is an alias of the first, so every name stays valid.

/**
 * Where the rendered client lives, from the repository root: the SDK's import package is
 * `paravt_workbench`, not `paravt`, which is the ParaVT reference trainer's own package
 * (sdk/python/_build/paravt_build.py says why).
 */
export const PYTHON_CLIENT_PATH = "sdk/python/paravt_workbench/api/_generated.py";

type Schema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: Schema;
}

const PY_KEYWORDS = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " +
    "global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);
const METHODS = ["get", "put", "post", "patch", "delete"] as const;

const isObject = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);
const pascal = (s: string) =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    // OPENAI_COMPATIBLE -> OpenaiCompatible; camelCase words keep their inner capitals.
    .map((w) => w[0]!.toUpperCase() + (w === w.toUpperCase() ? w.slice(1).toLowerCase() : w.slice(1)))
    .join("");
const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
const isIdentifier = (s: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !PY_KEYWORDS.has(s);
/** A Python string literal (JSON's escapes are Python's too). */
const pyStr = (s: string) => JSON.stringify(s);
const pyLiteral = (v: unknown): string =>
  v === null ? "None" : v === true ? "True" : v === false ? "False" : typeof v === "string" ? pyStr(v) : String(v);
/** One line of prose for a comment or docstring: no newlines, no docstring terminator. */
const prose = (s: unknown) =>
  typeof s === "string" ? s.replace(/\s+/g, " ").replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"').trim() : "";

/** Python lines stay within this width where words allow (signatures break one argument a line). */
const LINE = 100;

/** `head(arg, arg)tail` on one line, or one argument a line when that is wider than LINE. */
function callLines(indent: string, head: string, args: string[], tail: string): string[] {
  const oneLine = `${indent}${head}(${args.join(", ")})${tail}`;
  if (oneLine.length <= LINE) return [oneLine];
  return [`${indent}${head}(`, ...args.map((a) => `${indent}    ${a},`), `${indent})${tail}`];
}

/** Prose broken at spaces into lines of at most LINE characters, each starting with `prefix`. */
function wrap(text: string, prefix: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && prefix.length + line.length + 1 + word.length > LINE) {
      lines.push(prefix + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(prefix + line);
  return lines;
}

class Renderer {
  private readonly blocks: string[] = [];
  private readonly used = new Set<string>();
  /** Structural key of a rendered object schema -> the class name it got first. */
  private readonly byShape = new Map<string, string>();
  /** components.schemas key -> its Python type, for $refs. */
  private readonly components = new Map<string, string>();
  /** Public type names in definition order, for __all__. */
  private readonly names: string[] = [];

  constructor(private readonly doc: Schema) {}

  private unique(name: string): string {
    let n = name;
    for (let i = 2; this.used.has(n); i++) n = `${name}${i}`;
    this.used.add(n);
    return n;
  }

  private resolve(schema: Schema): Schema {
    const ref = schema.$ref;
    if (typeof ref !== "string") return schema;
    const target = ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), this.doc);
    if (!isObject(target)) throw new Error(`unresolved $ref ${ref}`);
    return target;
  }

  /** The Python type of a schema; object schemas with properties become TypedDicts named `name`. */
  type(schema: unknown, name: string): string {
    if (!isObject(schema)) return "Any";
    if (typeof schema.$ref === "string") {
      const component = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
      const known = component ? this.components.get(component) : undefined;
      return known ?? this.type(this.resolve(schema), component ? pascal(component) : name);
    }
    if ("const" in schema) return `Literal[${pyLiteral(schema.const)}]`;
    if (Array.isArray(schema.enum)) return `Literal[${schema.enum.map(pyLiteral).join(", ")}]`;
    const members = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    if (Array.isArray(members)) return this.union(members, name);
    if (Array.isArray(schema.type)) {
      return this.union(
        schema.type.map((t) => ({ ...schema, type: t })),
        name,
      );
    }
    switch (schema.type) {
      case "string":
        return schema.format === "binary" ? "bytes" : "str";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "null":
        return "None";
      case "array":
        return `List[${this.type(schema.items, `${name}Item`)}]`;
      case "object":
        return this.object(schema, name);
      default:
        return isObject(schema.properties) ? this.object(schema, name) : "Any";
    }
  }

  private union(members: unknown[], name: string): string {
    const nonNull = members.filter((m) => !(isObject(m) && m.type === "null"));
    const nullable = nonNull.length < members.length;
    const objects = nonNull.filter((m) => isObject(m) && isObject(m.properties)).length;
    const types: string[] = [];
    nonNull.forEach((m, i) => {
      // One object among the members keeps the parent's name; several are told apart by their
      // discriminator's const value (filter kinds, model configs) or by position.
      let memberName = name;
      if (objects > 1 && isObject(m) && isObject(m.properties)) {
        const tag = Object.values(m.properties).find((p) => isObject(p) && typeof p.const === "string") as
          Schema | undefined;
        memberName = `${name}${tag ? pascal(String(tag.const)) : `Variant${i + 1}`}`;
      }
      const t = this.type(m, memberName);
      if (!types.includes(t)) types.push(t);
    });
    const inner = types.length === 0 ? "Any" : types.length === 1 ? types[0]! : `Union[${types.join(", ")}]`;
    return nullable ? `Optional[${inner}]` : inner;
  }

  private object(schema: Schema, name: string): string {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const keys = Object.keys(properties);
    if (keys.length === 0) {
      const extra = schema.additionalProperties;
      return `Dict[str, ${isObject(extra) ? this.type(extra, `${name}Value`) : "Any"}]`;
    }
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    // Children first: a TypedDict's field types must exist when its class statement runs.
    const fields = keys.map((key) => {
      const property = properties[key];
      return {
        key,
        type: this.type(property, `${name}${pascal(key)}`),
        required: required.has(key),
        description: isObject(property) ? prose(property.description) : "",
      };
    });
    const description = prose(schema.description);
    const shape = JSON.stringify([description, fields]);
    const existing = this.byShape.get(shape);
    const className = this.unique(name);
    this.names.push(className);
    if (existing) {
      // Fields name the first class, so the parents of identical children are identical too.
      this.blocks.push(`${className} = ${existing}`);
      return existing;
    }
    this.byShape.set(shape, className);
    this.blocks.push(this.typedDict(className, description, fields));
    return className;
  }

  private typedDict(
    className: string,
    description: string,
    fields: { key: string; type: string; required: boolean; description: string }[],
  ): string {
    const requiredFields = fields.filter((f) => f.required);
    const optionalFields = fields.filter((f) => !f.required);
    const doc = description ? wrap(`"""${description}"""`, "    ") : [];
    const body = (list: typeof fields) =>
      list.flatMap((f) => [...(f.description ? wrap(f.description, "    # ") : []), `    ${f.key}: ${f.type}`]);
    if (fields.every((f) => isIdentifier(f.key))) {
      if (optionalFields.length === 0) return [`class ${className}(TypedDict):`, ...doc, ...body(fields)].join("\n");
      if (requiredFields.length === 0) {
        return [`class ${className}(TypedDict, total=False):`, ...doc, ...body(fields)].join("\n");
      }
      const base = this.unique(`_${className}Required`);
      return [
        `class ${base}(TypedDict):`,
        ...body(requiredFields),
        "",
        "",
        `class ${className}(${base}, total=False):`,
        ...doc,
        ...body(optionalFields),
      ].join("\n");
    }
    // A key that is no Python identifier (`from`) needs TypedDict's functional form.
    const functional = (n: string, list: typeof fields, total: boolean) =>
      `${n} = TypedDict(${pyStr(n)}, {${list.map((f) => `${pyStr(f.key)}: ${f.type}`).join(", ")}}${total ? "" : ", total=False"})`;
    if (optionalFields.length === 0) return functional(className, fields, true);
    if (requiredFields.length === 0) return functional(className, fields, false);
    const base = this.unique(`_${className}Required`);
    const rest = this.unique(`_${className}Optional`);
    return [
      functional(base, requiredFields, true),
      functional(rest, optionalFields, false),
      "",
      "",
      `class ${className}(${base}, ${rest}):`,
      ...(doc.length ? doc : ["    pass"]),
    ].join("\n");
  }

  /** Every component schema, then every operation's types; returns the method and table texts. */
  render(): string {
    const components =
      isObject(this.doc.components) && isObject(this.doc.components.schemas) ? this.doc.components.schemas : {};
    for (const [key, schema] of Object.entries(components)) this.components.set(key, this.type(schema, pascal(key)));

    const servers = Array.isArray(this.doc.servers) ? (this.doc.servers as Schema[]) : [];
    const defaultServer = typeof servers[0]?.url === "string" ? servers[0].url : "";
    const methods: string[] = [];
    const table: string[] = [];
    const paths = isObject(this.doc.paths) ? this.doc.paths : {};
    for (const [path, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      const pathServers = Array.isArray(item.servers) ? (item.servers as Schema[]) : [];
      const server = typeof pathServers[0]?.url === "string" ? pathServers[0].url : defaultServer;
      for (const method of METHODS) {
        const op = item[method];
        if (!isObject(op) || typeof op.operationId !== "string") continue;
        const rendered = this.operation(path, method, server, op, [
          ...(Array.isArray(item.parameters) ? (item.parameters as Parameter[]) : []),
          ...(Array.isArray(op.parameters) ? (op.parameters as Parameter[]) : []),
        ]);
        methods.push(rendered.method);
        table.push(rendered.entry);
      }
    }
    return [
      HEADER,
      `DEFAULT_SERVER = ${pyStr(defaultServer)}`,
      ...this.blocks.map((b) => `\n\n${b}`),
      "\n\n# operationId -> how to send it (method, path template, server prefix, parameters by place).",
      "OPERATIONS: Dict[str, Operation] = {",
      ...table,
      "}",
      "\n\nclass ApiClient(Transport):",
      '    """One method per operation of the REST API; see Transport for the connection and errors."""',
      ...methods,
      "\n",
      "__all__ = [",
      ...["ApiClient", "OPERATIONS", "DEFAULT_SERVER", ...this.names].map((n) => `    ${pyStr(n)},`),
      "]",
      "",
    ].join("\n");
  }

  private operation(path: string, method: string, server: string, op: Schema, parameters: Parameter[]) {
    const id = op.operationId as string;
    const base = pascal(id);
    const byPlace = (place: Parameter["in"]) => parameters.filter((p) => p.in === place);
    const taken = new Set(["self", "body"]);
    const pyName = (p: Parameter) => {
      let n = snake(p.name);
      while (PY_KEYWORDS.has(n) || taken.has(n)) n = `${n}_`;
      taken.add(n);
      return n;
    };
    const pathParams = byPlace("path").map((p) => ({
      p,
      py: pyName(p),
      type: this.type(p.schema, `${base}${pascal(p.name)}`),
    }));
    const optionalParams = [...byPlace("query"), ...byPlace("header")].map((p) => ({
      p,
      py: pyName(p),
      type: this.type(p.schema, `${base}${pascal(p.name)}`),
    }));

    const content = isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content : {};
    const bodyKind = "application/json" in content ? "json" : Object.keys(content).length > 0 ? "binary" : null;
    const bodyType =
      bodyKind === "json"
        ? this.type((content["application/json"] as Schema).schema, `${base}Body`)
        : bodyKind === "binary"
          ? "bytes"
          : null;
    const bodyRequired = isObject(op.requestBody) && op.requestBody.required === true;

    const responses = isObject(op.responses) ? op.responses : {};
    const success = Object.keys(responses)
      .filter((code) => /^2\d\d$/.test(code))
      .sort()[0];
    const answer = success ? responses[success] : undefined;
    const answerContent = isObject(answer) && isObject(answer.content) ? answer.content : {};
    const answerTypes = Object.entries(answerContent).map(([mime, media]) =>
      mime === "application/json"
        ? this.type(isObject(media) ? media.schema : undefined, `${base}Response`)
        : mime.startsWith("text/")
          ? "str"
          : "bytes",
    );
    const returns =
      answerTypes.length === 0
        ? "None"
        : answerTypes.length === 1
          ? answerTypes[0]!
          : `Union[${answerTypes.join(", ")}]`;

    const args = ["self", ...pathParams.map((a) => `${a.py}: ${a.type}`)];
    if (bodyType && bodyRequired) args.push(`body: ${bodyType}`);
    const keywordArgs = [
      ...optionalParams.filter((a) => a.p.required).map((a) => `${a.py}: ${a.type}`),
      ...(bodyType && !bodyRequired ? [`body: Optional[${bodyType}] = None`] : []),
      ...optionalParams.filter((a) => !a.p.required).map((a) => `${a.py}: Optional[${a.type}] = None`),
    ];
    if (keywordArgs.length > 0) args.push("*", ...keywordArgs);

    const dict = (list: typeof optionalParams) => `{${list.map((a) => `${pyStr(a.p.name)}: ${a.py}`).join(", ")}}`;
    const call = [`OPERATIONS[${pyStr(id)}]`];
    if (pathParams.length) call.push(`path=${dict(pathParams)}`);
    if (byPlace("query").length) call.push(`query=${dict(optionalParams.filter((a) => a.p.in === "query"))}`);
    if (byPlace("header").length) call.push(`headers=${dict(optionalParams.filter((a) => a.p.in === "header"))}`);
    if (bodyType) call.push("body=body");

    const description = prose(op.description);
    const scope =
      typeof op["x-token-scope"] === "string" && !description.includes("Token scope")
        ? ` Token scope: ${op["x-token-scope"]}.`
        : "";
    const doc = [
      ...wrap(`"""${prose(op.summary) || id}`, "        "),
      "",
      ...wrap(`${method.toUpperCase()} ${server}${path} (${id}).${scope}`, "        "),
      ...(description ? wrap(description, "        ") : []),
      `        """`,
    ];
    const names = (list: { p: Parameter }[]) =>
      `(${list.map((a) => pyStr(a.p.name)).join(", ")}${list.length === 1 ? "," : ""})`;
    const entry = callLines(
      "    ",
      `${pyStr(id)}: Operation`,
      [
        pyStr(id),
        pyStr(method.toUpperCase()),
        pyStr(path),
        pyStr(server),
        `path=${names(pathParams)}`,
        `query=${names(optionalParams.filter((a) => a.p.in === "query"))}`,
        `headers=${names(optionalParams.filter((a) => a.p.in === "header"))}`,
        `body=${bodyKind ? pyStr(bodyKind) : "None"}`,
      ],
      ",",
    ).join("\n");
    return {
      entry,
      method: [
        "",
        ...callLines("    ", `def ${snake(id)}`, args, ` -> ${returns}:`),
        ...doc,
        ...callLines("        ", "return self.call", call, ".data"),
      ].join("\n"),
    };
  }
}

const HEADER = `# Generated from packages/client/openapi.json by packages/client/src/render-python.ts
# (\`npm run -w @paravt/web openapi\`). Do not edit: packages/client/src/render-python.test.ts fails
# while this file is stale.
"""Typed client of the workbench's REST API: TypedDicts of bodies and answers, a method per operation."""

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

from ._transport import Operation, Transport
`;

export function renderPythonClient(doc: Record<string, unknown>): string {
  return new Renderer(doc).render();
}
