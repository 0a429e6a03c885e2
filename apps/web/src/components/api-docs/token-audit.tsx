"use client";
// The audit log of the project's API tokens (issue 11): every call made with a token, newest
// first, a page at a time (tokens.audit, owners only). Shown on the API tokens page.
import type { TokenOutput } from "@paravt/shared";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Select } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { errorMessage, useTRPC } from "@/trpc/client";

function statusTone(status: number) {
  if (status < 300) return "success" as const;
  if (status === 429) return "warning" as const;
  return status >= 500 ? ("danger" as const) : ("neutral" as const);
}

export function TokenAudit({
  projectId,
  tokens,
  tokenId,
  onTokenChange,
}: {
  projectId: string;
  tokens: Pick<TokenOutput, "id" | "name" | "prefix">[];
  /** Only this token's uses; null: every token's. */
  tokenId: string | null;
  onTokenChange: (tokenId: string | null) => void;
}) {
  const trpc = useTRPC();
  const uses = useInfiniteQuery(
    trpc.tokens.audit.infiniteQueryOptions(
      { projectId, limit: 50, ...(tokenId ? { tokenId } : {}) },
      // Scripts use tokens outside this page: always fresh when the page opens, and every 10 s.
      { getNextPageParam: (last) => last.nextCursor ?? undefined, refetchOnMount: "always", refetchInterval: 10_000 },
    ),
  );
  const rows = uses.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section className="flex flex-col gap-3" aria-labelledby="token-audit-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="token-audit-title" className="text-base font-semibold">
            Recent uses
          </h2>
          <p className="mt-0.5 text-sm text-muted">
            Every request made with a token of this project, over the REST API or tRPC, with the status it got.
          </p>
        </div>
        <div className="flex items-end gap-2">
          <Button variant="secondary" onClick={() => void uses.refetch()} disabled={uses.isFetching}>
            Refresh
          </Button>
          <div className="w-64">
            <Field label="Token">
              <Select value={tokenId ?? ""} onChange={(e) => onTokenChange(e.target.value || null)}>
                <option value="">All tokens</option>
                {tokens.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} ({t.prefix}…)
                  </option>
                ))}
              </Select>
            </Field>
          </div>
        </div>
      </div>
      {uses.error && <Alert>{errorMessage(uses.error)}</Alert>}
      <Table label="Token uses">
        <thead>
          <tr>
            <Th>Time</Th>
            <Th>Token</Th>
            <Th>Method</Th>
            <Th>Path</Th>
            <Th>Status</Th>
            <Th>IP</Th>
          </tr>
        </thead>
        <tbody>
          {rows.map((u) => (
            <tr key={u.id}>
              <Td className="whitespace-nowrap text-muted" title={u.at.toISOString()}>
                {u.at.toLocaleString()}
              </Td>
              <Td className="whitespace-nowrap">
                {u.token.name} <span className="font-mono text-xs text-muted">{u.token.prefix}…</span>
              </Td>
              <Td className="font-mono text-xs">{u.method}</Td>
              <Td className="max-w-md truncate font-mono text-xs" title={u.path}>
                {u.path}
              </Td>
              <Td>
                <Badge tone={statusTone(u.status)}>{u.status}</Badge>
              </Td>
              <Td className="font-mono text-xs text-muted">{u.ip ?? "—"}</Td>
            </tr>
          ))}
          {uses.isSuccess && rows.length === 0 && (
            <EmptyRow colSpan={6}>
              {tokenId ? "This token has not been used yet." : "No token has been used yet."}
            </EmptyRow>
          )}
        </tbody>
      </Table>
      {uses.hasNextPage && (
        <div>
          <Button
            variant="secondary"
            size="sm"
            disabled={uses.isFetchingNextPage}
            onClick={() => void uses.fetchNextPage()}
          >
            Load older uses
          </Button>
        </div>
      )}
    </section>
  );
}
