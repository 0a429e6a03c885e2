"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader, PageHeader } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/input";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function ProjectsPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const projects = useQuery(trpc.projects.list.queryOptions());
  const [creating, setCreating] = useState(false);
  const create = useMutation(
    trpc.projects.create.mutationOptions({
      onSuccess: async (p) => {
        await queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
        router.push(`/projects/${p.id}`);
      },
    }),
  );

  function onCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    create.mutate({ name: String(form.get("name") ?? ""), description: String(form.get("description") ?? "") });
  }

  return (
    <>
      <PageHeader
        title="Projects"
        description="Each project holds its videos, datasets, models, runs and reviews, shared with its members."
        actions={!creating && <Button onClick={() => setCreating(true)}>New project</Button>}
      />
      {creating && (
        <Card className="mb-6">
          <CardHeader title="New project" />
          <form onSubmit={onCreate} className="grid gap-4 md:grid-cols-[1fr_2fr_auto] md:items-end">
            <Field label="Name">
              <Input name="name" required minLength={2} maxLength={80} autoFocus placeholder="Needle suite ablations" />
            </Field>
            <Field label="Description">
              <Input name="description" maxLength={500} placeholder="What this project is for" />
            </Field>
            <div className="flex gap-2">
              <Button type="submit" disabled={create.isPending}>
                Create project
              </Button>
              <Button type="button" variant="ghost" onClick={() => setCreating(false)}>
                Cancel
              </Button>
            </div>
          </form>
          {create.error && (
            <div className="mt-3">
              <Alert>{errorMessage(create.error)}</Alert>
            </div>
          )}
        </Card>
      )}
      {projects.error && <Alert>{errorMessage(projects.error)}</Alert>}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Your projects">
        {projects.data?.map((p) => (
          <li key={p.id}>
            <Link
              href={`/projects/${p.id}`}
              className="block h-full rounded-lg border border-line bg-surface p-5 transition hover:border-accent"
            >
              <div className="flex items-start justify-between gap-2">
                <h2 className="font-semibold">{p.name}</h2>
                <Badge tone={p.role === "OWNER" ? "accent" : "neutral"}>{p.role.toLowerCase()}</Badge>
              </div>
              <p className="mt-1 line-clamp-2 min-h-10 text-sm text-muted">{p.description || "No description"}</p>
              <p className="mt-3 text-xs text-muted">
                {p.memberCount} member{p.memberCount === 1 ? "" : "s"} · created {p.createdAt.toLocaleDateString()}
              </p>
            </Link>
          </li>
        ))}
      </ul>
      {projects.data?.length === 0 && !creating && (
        <Card className="text-center">
          <p className="text-sm text-muted">No projects yet. Create one to start adding videos and runs.</p>
        </Card>
      )}
    </>
  );
}
