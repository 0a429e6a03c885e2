"use client";
// "Try it" of one operation: its parameters and JSON body (or a file for the upload), sent with
// fetch from the browser with the bearer token of the page (or, without one, the session
// cookie); the answer's status, time and body are shown as they came.
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/input";
import { curlCommand, exampleFor, requestUrl, typeLabel, type OpenApiDoc, type Operation } from "./openapi-view";

interface Answer {
  status: number;
  statusText: string;
  ms: number;
  retryAfter: string | null;
  body: string;
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function TryIt({
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
  const params = (operation.op.parameters ?? []).filter((p) => p.in === "path" || p.in === "query");
  const content = operation.op.requestBody?.content ?? {};
  const jsonSchema = content["application/json"]?.schema;
  const takesFile = "application/octet-stream" in content;
  const initialBody = useMemo(
    () => (jsonSchema ? JSON.stringify(exampleFor(doc, jsonSchema), null, 2) : undefined),
    [doc, jsonSchema],
  );
  const [values, setValues] = useState<Record<string, string>>({ projectId });
  const [body, setBody] = useState(initialBody ?? "");
  const [file, setFile] = useState<File | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const { url, missing } = requestUrl(operation, values);
  // Set after mount so the server's render and the first client render agree.
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);

  async function send(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    if (missing.length) return setProblem(`Fill in ${missing.join(", ")}`);
    const headers = new Headers();
    if (token.trim()) headers.set("authorization", `Bearer ${token.trim()}`);
    let payload: BodyInit | undefined;
    if (takesFile) {
      if (!file) return setProblem("Pick a file to upload");
      headers.set("x-file-name", encodeURIComponent(file.name));
      payload = file;
    } else if (initialBody !== undefined) {
      try {
        JSON.parse(body);
      } catch {
        return setProblem("The body is not valid JSON");
      }
      headers.set("content-type", "application/json");
      payload = body;
    }
    setPending(true);
    const started = performance.now();
    try {
      // Same origin: without a token the browser's session cookie authenticates the call.
      const res = await fetch(url, { method: operation.method.toUpperCase(), headers, body: payload });
      const text = await res.text();
      setAnswer({
        status: res.status,
        statusText: res.statusText,
        ms: Math.round(performance.now() - started),
        retryAfter: res.headers.get("retry-after"),
        body: pretty(text),
      });
    } catch (err) {
      setProblem(`The request failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={send} className="flex flex-col gap-3" aria-label={`Try ${operation.op.operationId}`}>
      {params.length > 0 && (
        <div className="grid gap-3 md:grid-cols-2">
          {params.map((p) => (
            <Field
              key={`${p.in}-${p.name}`}
              label={`${p.name}${p.required ? " *" : ""}`}
              hint={`${p.in}, ${typeLabel(doc, p.schema)}${typeLabel(doc, p.schema).startsWith("array") ? " (comma-separated)" : ""}`}
            >
              <Input
                value={values[p.name] ?? ""}
                onChange={(e) => setValues((v) => ({ ...v, [p.name]: e.target.value }))}
                className="font-mono"
              />
            </Field>
          ))}
        </div>
      )}
      {takesFile && (
        <Field label="File">
          <Input type="file" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </Field>
      )}
      {initialBody !== undefined && (
        <div className="flex flex-col gap-1.5 text-sm">
          <label htmlFor={`body-${operation.op.operationId}`} className="font-medium">
            JSON body
          </label>
          <textarea
            id={`body-${operation.op.operationId}`}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            spellCheck={false}
            rows={Math.min(16, Math.max(4, body.split("\n").length + 1))}
            className="rounded-md border border-line bg-surface px-3 py-2 font-mono text-xs text-fg focus:border-accent focus:outline-none"
          />
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" disabled={pending}>
          Send
        </Button>
        <code className="break-all font-mono text-xs text-muted">
          {operation.method.toUpperCase()} {url}
        </code>
      </div>
      {problem && <p className="text-sm text-danger">{problem}</p>}
      <details>
        <summary className="cursor-pointer text-xs text-muted">curl</summary>
        <pre className="mt-1 overflow-x-auto rounded-md border border-line bg-surface-2 p-3 font-mono text-xs">
          {curlCommand(
            origin,
            operation,
            url,
            takesFile ? { file: true } : initialBody !== undefined ? { json: body } : {},
          )}
        </pre>
      </details>
      {answer && (
        <div className="flex flex-col gap-2" aria-live="polite">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge tone={answer.status < 300 ? "success" : answer.status === 429 ? "warning" : "danger"}>
              <span data-testid="try-status">{answer.status}</span>
            </Badge>
            <span className="text-muted">{answer.statusText}</span>
            <span className="text-muted">{answer.ms} ms</span>
            {answer.retryAfter && <span className="text-warning">Retry-After: {answer.retryAfter} s</span>}
          </div>
          <pre className="max-h-96 overflow-auto rounded-md border border-line bg-surface-2 p-3 font-mono text-xs">
            {answer.body || "(empty body)"}
          </pre>
        </div>
      )}
    </form>
  );
}
