"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { BenchmarkImportForm } from "@/components/datasets/benchmark-import-form";
import { timeAgo } from "@/components/format";
import { LiveBadge } from "@/components/live-badge";
import { useLiveRuns } from "@/components/live-runs";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

export default function DatasetsPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const list = useQuery(trpc.datasets.list.queryOptions({ projectId }));
  const live = useLiveRuns(projectId);
  const refetch = () => void list.refetch();
  const generate = useMutation(trpc.datasets.generateSuite.mutationOptions({ onSuccess: refetch }));
  const importSuite = useMutation(trpc.datasets.importSuite.mutationOptions({ onSuccess: refetch }));
  const [seed, setSeed] = useState(1);

  function onGenerate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    generate.mutate({
      projectId,
      name: String(f.get("name") ?? ""),
      seed,
      count: Number(f.get("count")),
      minMinutes: Number(f.get("minMinutes")),
      maxMinutes: Number(f.get("maxMinutes")),
      optionStyle: f.get("optionStyle") === "text-first" ? "text-first" : "letter-first",
    });
  }

  function onImport(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    importSuite.mutate({ projectId, name: String(f.get("importName") ?? ""), path: String(f.get("path") ?? "") });
  }

  const error = generate.error ?? importSuite.error;
  return (
    <div className="flex flex-col gap-6">
      {can("runs.launch") && (
        <Card>
          <CardHeader
            title="Generate a needle suite"
            description="Long synthetic videos with scenes and short events, questions of the three protocol types, and oracle trajectories — rendered on a worker, then imported."
          />
          <form onSubmit={onGenerate} className="grid gap-3 md:grid-cols-[2fr_1fr_1fr_1fr_1fr_1.3fr_auto] md:items-end">
            <Field label="Dataset name">
              <Input name="name" required maxLength={120} defaultValue={`needle-suite-seed-${seed}`} key={seed} />
            </Field>
            <Field label="Seed">
              <Input type="number" min={0} value={seed} onChange={(e) => setSeed(Number(e.target.value))} />
            </Field>
            <Field label="Videos">
              <Input name="count" type="number" min={1} max={200} defaultValue={3} />
            </Field>
            <Field label="Min minutes">
              <Input name="minMinutes" type="number" min={1} max={30} defaultValue={1} />
            </Field>
            <Field label="Max minutes">
              <Input name="maxMinutes" type="number" min={1} max={30} defaultValue={2} />
            </Field>
            <Field label="MCQ options">
              <Select
                name="optionStyle"
                defaultValue="text-first"
                title="How multiple-choice questions list their options (nano-default was trained on '- white (C)')"
              >
                <option value="letter-first">C. white</option>
                <option value="text-first">- white (C)</option>
              </Select>
            </Field>
            <Button type="submit" disabled={generate.isPending}>
              Generate suite
            </Button>
          </form>
          <details className="mt-4 text-sm">
            <summary className="cursor-pointer text-muted">Import a suite directory from the server instead</summary>
            <form onSubmit={onImport} className="mt-3 grid gap-3 md:grid-cols-[1fr_2fr_auto] md:items-end">
              <Field label="Dataset name">
                <Input name="importName" required maxLength={120} />
              </Field>
              <Field
                label="Suite directory"
                hint="Written by `npx paravt suite generate`, inside the server's media roots."
              >
                <Input name="path" required placeholder="/data/suites/seed-7" />
              </Field>
              <Button type="submit" variant="secondary" disabled={importSuite.isPending}>
                Import
              </Button>
            </form>
          </details>
          {error && (
            <div className="mt-3">
              <Alert>{errorMessage(error)}</Alert>
            </div>
          )}
        </Card>
      )}
      {can("runs.launch") && <BenchmarkImportForm projectId={projectId} />}
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold">Datasets</h2>
        <LiveBadge status={live.status} />
      </div>
      <Table label="Datasets">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Samples</Th>
            <Th>By type</Th>
            <Th>Source</Th>
            <Th>Created</Th>
          </tr>
        </thead>
        <tbody>
          {list.data?.map((d) => (
            <tr key={d.id}>
              <Td className="font-medium">
                <Link href={`/projects/${projectId}/datasets/${d.id}`} className="hover:text-accent hover:underline">
                  {d.name}
                </Link>
              </Td>
              <Td className="tabular-nums">{d.sampleCount}</Td>
              <Td>
                <div className="flex gap-1">
                  {Object.entries(d.countsByType).map(([t, n]) => (
                    <Badge key={t}>
                      {t} {n}
                    </Badge>
                  ))}
                </div>
              </Td>
              <Td className="max-w-md truncate text-muted">{d.description}</Td>
              <Td className="text-muted">{timeAgo(d.createdAt)}</Td>
            </tr>
          ))}
          {list.data?.length === 0 && <EmptyRow colSpan={5}>No datasets yet.</EmptyRow>}
        </tbody>
      </Table>
    </div>
  );
}
