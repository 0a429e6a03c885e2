"use client";
import { DEFAULT_TOKEN_RATE_LIMIT, MAX_TOKEN_RATE_LIMIT, TOKEN_SCOPE_MEANING, TOKEN_SCOPES } from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { TokenAudit } from "@/components/api-docs/token-audit";
import { timeAgo } from "@/components/format";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function TokensPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  // "Last used" changes with every script call: fresh whenever the page opens.
  const tokens = useQuery({
    ...trpc.tokens.list.queryOptions({ projectId }),
    enabled: can("tokens.manage"),
    refetchOnMount: "always",
  });
  const [secret, setSecret] = useState<string | null>(null);
  // The audit table below shows this token's uses (null: every token's).
  const [auditToken, setAuditToken] = useState<string | null>(null);
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: (res) => {
        setSecret(res.secret);
        void tokens.refetch();
      },
    }),
  );
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: () => void tokens.refetch() }));

  if (!can("tokens.manage")) return <Alert>Only project owners manage API tokens.</Alert>;

  function onCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const days = String(form.get("expires"));
    create.mutate({
      projectId,
      name: String(form.get("name") ?? ""),
      scopes: TOKEN_SCOPES.filter((s) => form.get(`scope-${s}`) === "on"),
      expiresInDays: days === "never" ? null : Number(days),
      rateLimitPerMinute: Number(form.get("rateLimit")),
    });
  }

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader
          title="Create an API token"
          description="Tokens let scripts call the API for this project only. Send it as: Authorization: Bearer <token>."
          actions={
            <Link href={`/projects/${projectId}/api`} className="text-sm text-accent hover:underline">
              REST API reference
            </Link>
          }
        />
        <form onSubmit={onCreate} className="flex flex-col gap-4">
          <div className="grid gap-3 md:grid-cols-[2fr_1fr_1fr]">
            <Field label="Name">
              <Input name="name" required maxLength={80} placeholder="training-cluster uploader" />
            </Field>
            <Field label="Requests per minute" hint="Beyond it the API answers 429">
              <Input
                name="rateLimit"
                type="number"
                required
                min={1}
                max={MAX_TOKEN_RATE_LIMIT}
                step={1}
                defaultValue={DEFAULT_TOKEN_RATE_LIMIT}
              />
            </Field>
            <Field label="Expires">
              <Select name="expires" defaultValue="90">
                <option value="7">in 7 days</option>
                <option value="30">in 30 days</option>
                <option value="90">in 90 days</option>
                <option value="365">in a year</option>
                <option value="never">never</option>
              </Select>
            </Field>
          </div>
          <fieldset className="flex flex-wrap gap-4 text-sm">
            <legend className="mb-1.5 font-medium">Scopes</legend>
            <p className="w-full text-xs text-muted">
              Each API operation needs one scope and scopes do not include each other: a script that reads runs and
              writes reviews needs read and write. Any token may call /whoami; members, tokens and project settings stay
              with signed-in people.
            </p>
            {TOKEN_SCOPES.map((s) => (
              <label key={s} className="flex items-center gap-2">
                <input type="checkbox" name={`scope-${s}`} defaultChecked={s === "READ"} className="accent-accent" />
                <span>
                  {s.toLowerCase()} <span className="text-muted">({TOKEN_SCOPE_MEANING[s]})</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div>
            <Button type="submit" disabled={create.isPending}>
              Create token
            </Button>
          </div>
        </form>
        {secret && (
          <div className="mt-4 flex flex-col gap-2">
            <Alert tone="success">Copy this token now. It is shown only once and cannot be recovered.</Alert>
            <div className="flex gap-2">
              <code
                data-testid="new-token"
                className="flex-1 overflow-x-auto rounded-md border border-line bg-surface-2 px-3 py-2 font-mono text-xs"
              >
                {secret}
              </code>
              <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(secret)}>
                Copy
              </Button>
              <Button variant="ghost" onClick={() => setSecret(null)}>
                Done
              </Button>
            </div>
          </div>
        )}
        {create.error && (
          <div className="mt-3">
            <Alert>{errorMessage(create.error)}</Alert>
          </div>
        )}
      </Card>
      {revoke.error && <Alert>{errorMessage(revoke.error)}</Alert>}
      <Table label="API tokens">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Token</Th>
            <Th>Scopes</Th>
            <Th>Limit</Th>
            <Th>Expires</Th>
            <Th>Last used</Th>
            <Th>Created by</Th>
            <Th />
          </tr>
        </thead>
        <tbody>
          {tokens.data?.map((t) => {
            const expired = t.expiresAt !== null && t.expiresAt <= new Date();
            return (
              <tr key={t.id}>
                <Td className="font-medium">{t.name}</Td>
                <Td className="font-mono text-xs text-muted">{t.prefix}…</Td>
                <Td>
                  <div className="flex gap-1">
                    {t.scopes.map((s) => (
                      <Badge key={s}>{s.toLowerCase()}</Badge>
                    ))}
                  </div>
                </Td>
                <Td className="whitespace-nowrap text-muted">{t.rateLimitPerMinute.toLocaleString("en")}/min</Td>
                <Td className="text-muted">{t.expiresAt ? t.expiresAt.toLocaleDateString() : "never"}</Td>
                <Td className="text-muted">{timeAgo(t.lastUsedAt)}</Td>
                <Td className="text-muted">{t.createdBy}</Td>
                <Td className="text-right">
                  <div className="flex items-center justify-end gap-2">
                    <Button size="sm" variant="ghost" onClick={() => setAuditToken(t.id)}>
                      Uses
                    </Button>
                    {t.revokedAt ? (
                      <Badge tone="danger">revoked</Badge>
                    ) : expired ? (
                      <Badge tone="warning">expired</Badge>
                    ) : (
                      <Button size="sm" variant="secondary" onClick={() => revoke.mutate({ projectId, tokenId: t.id })}>
                        Revoke
                      </Button>
                    )}
                  </div>
                </Td>
              </tr>
            );
          })}
          {tokens.data?.length === 0 && <EmptyRow colSpan={8}>No tokens yet.</EmptyRow>}
        </tbody>
      </Table>
      <TokenAudit projectId={projectId} tokens={tokens.data ?? []} tokenId={auditToken} onTokenChange={setAuditToken} />
    </div>
  );
}
