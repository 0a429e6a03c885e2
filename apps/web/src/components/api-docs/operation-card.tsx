"use client";
// One operation of the reference: method, path and summary always visible; parameters, request
// body, responses and "Try it" folded open on demand.
import { useEffect, useState } from "react";
import { cn } from "@/components/ui/cn";
import { constraints, typeLabel, type OpenApiDoc, type Operation } from "./openapi-view";
import { SchemaView } from "./schema-view";
import { TryIt } from "./try-it";

const METHOD_TONE: Record<string, string> = {
  get: "bg-accent/10 text-accent border-accent/30",
  post: "bg-success/10 text-success border-success/30",
  put: "bg-warning/10 text-warning border-warning/30",
  patch: "bg-warning/10 text-warning border-warning/30",
  delete: "bg-danger/10 text-danger border-danger/30",
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={cn(
        "inline-flex w-16 justify-center rounded border px-1.5 py-0.5 font-mono text-xs font-semibold uppercase",
        METHOD_TONE[method] ?? "border-line text-muted",
      )}
    >
      {method}
    </span>
  );
}

export function OperationCard({
  doc,
  operation,
  token,
  projectId,
}: {
  doc: OpenApiDoc;
  operation: Operation;
  token: string;
  projectId: string;
}) {
  const { op } = operation;
  const params = op.parameters ?? [];
  const body = op.requestBody?.content;
  // The details (schemas, Try it) exist only while open: fifty operations of nested schemas are
  // too much DOM to keep hidden. A link to #<operationId> opens its operation.
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (window.location.hash === `#${op.operationId}`) setOpen(true);
  }, [op.operationId]);
  return (
    <details
      id={op.operationId}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      className="group rounded-lg border border-line bg-surface"
    >
      <summary className="flex cursor-pointer flex-wrap items-center gap-3 px-4 py-3">
        <MethodBadge method={operation.method} />
        <code className="font-mono text-sm text-fg">
          {operation.server !== (doc.servers?.[0]?.url ?? "") && <span className="text-muted">{operation.server}</span>}
          {operation.path}
        </code>
        <span className="text-sm text-muted">{op.summary}</span>
      </summary>
      {open && (
        <div className="flex flex-col gap-5 border-t border-line px-4 py-4">
          {op.description && <p className="text-sm">{op.description}</p>}
          <p className="font-mono text-xs text-muted">operationId: {op.operationId}</p>

          {params.length > 0 && (
            <section>
              <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">Parameters</h4>
              <ul className="flex flex-col gap-1">
                {params.map((p) => (
                  <li key={`${p.in}-${p.name}`} className="flex flex-wrap items-baseline gap-x-2 text-xs">
                    <code className="font-mono font-semibold">{p.name}</code>
                    <span className="text-muted">{p.in}</span>
                    <span className="font-mono text-accent">{typeLabel(doc, p.schema)}</span>
                    {p.required && <span className="text-danger">required</span>}
                    {constraints(doc, p.schema).map((c) => (
                      <span key={c} className="rounded bg-surface-2 px-1.5 font-mono text-[11px] text-muted">
                        {c}
                      </span>
                    ))}
                    {p.description && <span className="text-muted">{p.description}</span>}
                  </li>
                ))}
              </ul>
            </section>
          )}

          {body && (
            <section>
              <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">
                Request body <span className="font-mono normal-case">({Object.keys(body).join(", ")})</span>
              </h4>
              {Object.entries(body).map(([type, media]) => (
                <SchemaView key={type} doc={doc} schema={media.schema} />
              ))}
            </section>
          )}

          <section>
            <h4 className="mb-2 text-xs font-semibold uppercase tracking-wide text-muted">Responses</h4>
            <ul className="flex flex-col gap-1">
              {Object.entries(op.responses).map(([status, res]) => {
                const schema = res.content?.["application/json"]?.schema;
                const line = (
                  <span className="flex flex-wrap items-baseline gap-2 text-xs">
                    <code
                      className={cn("font-mono font-semibold", status.startsWith("2") ? "text-success" : "text-danger")}
                    >
                      {status}
                    </code>
                    <span className="text-muted">{res.description}</span>
                    {res.headers &&
                      Object.keys(res.headers).map((h) => (
                        <span key={h} className="rounded bg-surface-2 px-1.5 font-mono text-[11px] text-muted">
                          header {h}
                        </span>
                      ))}
                  </span>
                );
                return (
                  <li key={status}>
                    {schema ? (
                      <details>
                        <summary className="cursor-pointer">{line}</summary>
                        <div className="ml-4 mt-1 border-l border-line pl-3">
                          <SchemaView doc={doc} schema={schema} />
                        </div>
                      </details>
                    ) : (
                      line
                    )}
                  </li>
                );
              })}
            </ul>
          </section>

          <section className="rounded-md border border-line bg-surface-2/40 p-3">
            <h4 className="mb-3 text-xs font-semibold uppercase tracking-wide text-muted">Try it</h4>
            <TryIt doc={doc} operation={operation} token={token} projectId={projectId} />
          </section>
        </div>
      )}
    </details>
  );
}
