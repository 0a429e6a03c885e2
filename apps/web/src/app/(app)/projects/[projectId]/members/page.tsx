"use client";
import { ROLES, type Role } from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent } from "react";
import { timeAgo } from "@/components/format";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/input";
import { Table, Td, Th } from "@/components/ui/table";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

const ROLE_HELP: Record<Role, string> = {
  VIEWER: "reads everything",
  EDITOR: "also launches jobs, uploads and reviews",
  OWNER: "also manages members, tokens and the project",
};

export default function MembersPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const members = useQuery(trpc.members.list.queryOptions({ projectId }));
  const refetch = () => void members.refetch();
  const add = useMutation(trpc.members.add.mutationOptions({ onSuccess: refetch }));
  const updateRole = useMutation(trpc.members.updateRole.mutationOptions({ onSuccess: refetch }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: refetch }));
  const manage = can("members.manage");
  const error = add.error ?? updateRole.error ?? remove.error;

  function onAdd(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    add.mutate(
      { projectId, email: String(form.get("email") ?? ""), role: String(form.get("role")) as Role },
      { onSuccess: () => (e.target as HTMLFormElement).reset() },
    );
  }

  return (
    <div className="flex flex-col gap-6">
      {manage && (
        <Card>
          <CardHeader title="Add a member" description="They need an account on this workbench first." />
          <form onSubmit={onAdd} className="grid gap-3 md:grid-cols-[2fr_1fr_auto] md:items-end">
            <Field label="Email">
              <Input name="email" type="email" required placeholder="colleague@lab.org" />
            </Field>
            <Field label="Role">
              <Select name="role" defaultValue="VIEWER">
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {r.toLowerCase()} — {ROLE_HELP[r]}
                  </option>
                ))}
              </Select>
            </Field>
            <Button type="submit" disabled={add.isPending}>
              Add member
            </Button>
          </form>
        </Card>
      )}
      {error && <Alert>{errorMessage(error)}</Alert>}
      <Table label="Members">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Email</Th>
            <Th>Role</Th>
            <Th>Joined</Th>
            {manage && <Th />}
          </tr>
        </thead>
        <tbody>
          {members.data?.map((m) => (
            <tr key={m.userId}>
              <Td className="font-medium">{m.name}</Td>
              <Td className="text-muted">{m.email}</Td>
              <Td>
                {manage ? (
                  <Select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    className="h-8 w-32"
                    onChange={(e) => updateRole.mutate({ projectId, userId: m.userId, role: e.target.value as Role })}
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r.toLowerCase()}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <Badge tone={m.role === "OWNER" ? "accent" : "neutral"}>{m.role.toLowerCase()}</Badge>
                )}
              </Td>
              <Td className="text-muted">{timeAgo(m.joinedAt)}</Td>
              {manage && (
                <Td className="text-right">
                  <Button size="sm" variant="ghost" onClick={() => remove.mutate({ projectId, userId: m.userId })}>
                    Remove
                  </Button>
                </Td>
              )}
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
