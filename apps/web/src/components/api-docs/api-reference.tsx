"use client";
// The interactive REST API reference (issue 11): /api/v1/openapi.json rendered by this app (no
// CDN assets: the machine may be offline), operations grouped by tag, and "Try it" with a bearer
// token kept in this tab's sessionStorage only.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { OperationCard } from "./operation-card";
import { operationsByTag, type OpenApiDoc } from "./openapi-view";

const TOKEN_KEY = "paravt.apiDocs.token";
export const OPENAPI_URL = "/api/v1/openapi.json";

/** The token of "Try it": in sessionStorage, so it leaves with the tab and never reaches the server's storage. */
function useSessionToken(): [string, (t: string) => void] {
  const [token, setToken] = useState("");
  useEffect(() => {
    setToken(window.sessionStorage.getItem(TOKEN_KEY) ?? "");
  }, []);
  return [
    token,
    (t: string) => {
      setToken(t);
      if (t) window.sessionStorage.setItem(TOKEN_KEY, t);
      else window.sessionStorage.removeItem(TOKEN_KEY);
    },
  ];
}

export function ApiReference({ projectId }: { projectId: string }) {
  const doc = useQuery({
    queryKey: ["openapi-document"],
    queryFn: async (): Promise<OpenApiDoc> => {
      const res = await fetch(OPENAPI_URL);
      if (!res.ok) throw new Error(`${OPENAPI_URL} answered ${res.status}`);
      return (await res.json()) as OpenApiDoc;
    },
    staleTime: Infinity,
  });
  const [token, setToken] = useSessionToken();
  const [filter, setFilter] = useState("");
  const groups = useMemo(() => (doc.data ? operationsByTag(doc.data) : []), [doc.data]);
  const needle = filter.trim().toLowerCase();
  const shown = groups
    .map((g) => ({
      ...g,
      operations: g.operations.filter(
        (o) =>
          !needle || `${o.method} ${o.path} ${o.op.summary ?? ""} ${o.op.operationId}`.toLowerCase().includes(needle),
      ),
    }))
    .filter((g) => g.operations.length > 0);

  if (doc.error) return <Alert>{doc.error.message}</Alert>;
  if (!doc.data) return <p className="text-sm text-muted">Loading the API document…</p>;
  const d = doc.data;

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader
          title={`${d.info.title} (v${d.info.version})`}
          description={`Base URL ${d.servers?.[0]?.url ?? "/"} · OpenAPI ${d.openapi} document: ${OPENAPI_URL}`}
          actions={
            <a href={OPENAPI_URL} className="text-sm text-accent hover:underline" target="_blank" rel="noreferrer">
              openapi.json
            </a>
          }
        />
        {d.info.description && <p className="mb-4 text-sm">{d.info.description}</p>}
        <div className="grid gap-3 md:grid-cols-[2fr_1fr]">
          <Field
            label="Bearer token for Try it"
            hint="Kept in this tab's sessionStorage only. Empty: calls use your signed-in session."
          >
            <Input
              type="password"
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              placeholder="pvt_…"
              className="font-mono"
            />
          </Field>
          <Field label="Filter operations">
            <Input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="runs, POST, metrics…" />
          </Field>
        </div>
      </Card>

      <nav aria-label="API sections" className="flex flex-wrap gap-2 text-sm">
        {shown.map((g) => (
          <a key={g.tag} href={`#tag-${g.tag}`} className="rounded-md border border-line px-2 py-1 hover:border-accent">
            {g.tag} <span className="text-muted">{g.operations.length}</span>
          </a>
        ))}
      </nav>

      {shown.map((g) => (
        <section key={g.tag} id={`tag-${g.tag}`} aria-labelledby={`tag-title-${g.tag}`} className="flex flex-col gap-2">
          <h2 id={`tag-title-${g.tag}`} className="text-base font-semibold capitalize">
            {g.tag}
          </h2>
          {g.operations.map((o) => (
            <OperationCard key={o.op.operationId} doc={d} operation={o} token={token} projectId={projectId} />
          ))}
        </section>
      ))}
      {shown.length === 0 && <p className="text-sm text-muted">No operation matches “{filter}”.</p>}
    </div>
  );
}
