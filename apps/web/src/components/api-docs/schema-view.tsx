"use client";
// A JSON schema of the OpenAPI document as a nested field list: name, type, required, bounds,
// description; nested objects and arrays fold open on demand (<details>, no script needed).
import { constraints, resolveSchema, typeLabel, type JsonSchema, type OpenApiDoc } from "./openapi-view";

/** The object schema a field's value is (through $ref, array items and nullable unions), if any. */
function nestedObject(doc: OpenApiDoc, raw: JsonSchema | undefined, depth = 0): JsonSchema | null {
  const s = resolveSchema(doc, raw);
  if (!s || depth > 4) return null;
  if (s.properties) return s;
  if (s.items) return nestedObject(doc, s.items, depth + 1);
  for (const option of s.anyOf ?? s.oneOf ?? []) {
    const found = nestedObject(doc, option, depth + 1);
    if (found) return found;
  }
  return null;
}

function Field({
  doc,
  name,
  schema,
  required,
  depth,
}: {
  doc: OpenApiDoc;
  name: string;
  schema: JsonSchema;
  required: boolean;
  depth: number;
}) {
  const resolved = resolveSchema(doc, schema);
  const nested = depth < 6 ? nestedObject(doc, schema) : null;
  const options = resolved?.anyOf ?? resolved?.oneOf;
  const variants = options && options.filter((o) => resolveSchema(doc, o)?.properties).length > 1 ? options : null;
  const head = (
    <span className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
      <code className="font-mono text-xs font-semibold text-fg">{name}</code>
      <span className="font-mono text-xs text-accent">{typeLabel(doc, schema)}</span>
      {required && <span className="text-xs text-danger">required</span>}
      {constraints(doc, schema).map((c) => (
        <span key={c} className="rounded bg-surface-2 px-1.5 font-mono text-[11px] text-muted">
          {c}
        </span>
      ))}
      {resolved?.description && <span className="text-xs text-muted">{resolved.description}</span>}
    </span>
  );
  if (variants) {
    return (
      <li>
        <details>
          <summary className="cursor-pointer">{head}</summary>
          <div className="ml-4 mt-1 flex flex-col gap-2 border-l border-line pl-3">
            {variants.map((v, i) => (
              <div key={i}>
                <div className="text-xs text-muted">variant {i + 1}</div>
                <SchemaView doc={doc} schema={v} depth={depth + 1} />
              </div>
            ))}
          </div>
        </details>
      </li>
    );
  }
  if (!nested) return <li className="py-0.5">{head}</li>;
  return (
    <li>
      <details>
        <summary className="cursor-pointer py-0.5">{head}</summary>
        <div className="ml-4 border-l border-line pl-3">
          <SchemaView doc={doc} schema={nested} depth={depth + 1} />
        </div>
      </details>
    </li>
  );
}

export function SchemaView({
  doc,
  schema,
  depth = 0,
}: {
  doc: OpenApiDoc;
  schema: JsonSchema | undefined;
  depth?: number;
}) {
  const s = resolveSchema(doc, schema);
  if (!s) return <p className="text-xs text-muted">any JSON value</p>;
  const object = nestedObject(doc, s);
  if (!object) {
    return <p className="font-mono text-xs text-accent">{typeLabel(doc, s)}</p>;
  }
  const props = Object.entries(object.properties ?? {});
  return (
    <div className="flex flex-col gap-1">
      {object !== s && <p className="font-mono text-xs text-accent">{typeLabel(doc, s)}</p>}
      {props.length === 0 ? (
        <p className="text-xs text-muted">an object with any keys</p>
      ) : (
        <ul className="flex flex-col gap-0.5">
          {props.map(([name, field]) => (
            <Field
              key={name}
              doc={doc}
              name={name}
              schema={field}
              required={object.required?.includes(name) ?? false}
              depth={depth}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
