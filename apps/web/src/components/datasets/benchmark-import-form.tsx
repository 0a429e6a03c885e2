"use client";
// "Import benchmark": a local copy of a SPEC §5 benchmark (or a custom JSONL / JSON / parquet set,
// or a ParaVT RL / SFT parquet file of the reference trainer, SPEC §6) already on the server, read
// by @paravt/benchmarks. The registry tells the user which files the loader expects; the input is
// validated with the same schema as the server before it is sent.
import { importBenchmarkInput, type BenchmarkInfoOutput } from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/input";
import { errorMessage, useTRPC } from "@/trpc/client";

function ExpectedFiles({ info }: { info: BenchmarkInfoOutput }) {
  return (
    <div className="rounded border border-line bg-surface-2 p-3 text-xs" data-testid="benchmark-info">
      <p className="text-sm">{info.description}</p>
      <p className="mt-1 text-muted">
        Layout of {info.source}. Scored by {info.metric}.
      </p>
      <ul className="mt-2 flex flex-col gap-1">
        {info.files.map((f) => (
          <li key={f.path}>
            <code className="font-mono">{f.path}</code>
            <span className="text-muted">
              {" "}
              — {f.description}
              {f.required ? "" : " (optional)"}
            </span>
          </li>
        ))}
      </ul>
      {info.variants.length > 0 && <p className="mt-2 text-muted">Also accepted: {info.variants.join("; ")}.</p>}
    </div>
  );
}

export function BenchmarkImportForm({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const registry = useQuery(trpc.datasets.benchmarks.queryOptions());
  const [benchmark, setBenchmark] = useState("videomme");
  const [invalid, setInvalid] = useState<string | null>(null);
  const launch = useMutation(
    trpc.datasets.importBenchmark.mutationOptions({
      onSuccess: ({ dataset }) => router.push(`/projects/${projectId}/datasets/${dataset.id}`),
    }),
  );
  const info = registry.data?.find((b) => b.id === benchmark);
  // A ParaVT parquet import names one file, and its "video directory" is the media root under which
  // the sentinel paths (longvt_source/…, museg/…, selfqa/…) lie.
  const parquet = benchmark === "paravt-parquet";

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const parsed = importBenchmarkInput.safeParse({
      projectId,
      name: String(f.get("name") ?? ""),
      benchmark,
      path: String(f.get("path") ?? ""),
      videoDir: String(f.get("videoDir") ?? ""),
      split: String(f.get("split") ?? ""),
      subtitles: f.get("subtitles") === "on",
    });
    if (!parsed.success) {
      setInvalid(parsed.error.issues.map((i) => i.message).join("; "));
      return;
    }
    setInvalid(null);
    launch.mutate(parsed.data);
  }

  return (
    <Card>
      <CardHeader
        title="Import benchmark"
        description="A local copy in its published layout (or a ParaVT RL / SFT parquet file of the reference trainer), on the server inside the media roots. Rows that cannot be used are skipped and reported with their reason."
      />
      <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-label="Import benchmark">
        <div className="grid gap-3 md:grid-cols-[1fr_2fr]">
          <Field label="Benchmark">
            <Select value={benchmark} onChange={(e) => setBenchmark(e.target.value)}>
              {(registry.data ?? []).map((b) => (
                <option key={b.id} value={b.id}>
                  {b.title}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Dataset name">
            <Input name="name" required maxLength={120} defaultValue={info?.title ?? ""} key={benchmark} />
          </Field>
        </div>
        {info && <ExpectedFiles info={info} />}
        <div className="grid gap-3 md:grid-cols-[2fr_2fr_1fr]">
          <Field
            label={parquet ? "Parquet file" : "Benchmark directory"}
            hint="Absolute server path (or file:// URI) inside the media roots."
          >
            <Input
              name="path"
              required
              placeholder={parquet ? "/data/paravt/rl_train.parquet" : "/data/benchmarks/Video-MME"}
            />
          </Field>
          <Field
            label={parquet ? "Media root (optional)" : "Video directory (optional)"}
            hint={
              parquet
                ? "The folder holding longvt_source/, museg/…, selfqa/. Default: the folder of the file."
                : info
                  ? `Default: ${info.videoDirs.map((d) => d || "the directory itself").join(", ")}`
                  : undefined
            }
          >
            <Input name="videoDir" placeholder="default" />
          </Field>
          <Field label="Split" hint={info?.splits.length ? info.splits.join(", ") : "any name"}>
            {info && info.splits.length > 0 ? (
              <Select name="split" defaultValue={info.defaultSplit} key={benchmark}>
                {info.splits.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </Select>
            ) : (
              <Input name="split" placeholder={info?.defaultSplit ?? "test"} key={benchmark} />
            )}
          </Field>
        </div>
        {info?.supportsSubtitles && (
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="subtitles" className="accent-[var(--accent)]" />
            With subtitles (prefix each question with the video&apos;s SRT text; same as split test_subtitles)
          </label>
        )}
        <div>
          <Button type="submit" disabled={launch.isPending || !info}>
            Import
          </Button>
        </div>
      </form>
      {(invalid ?? launch.error ?? registry.error) && (
        <div className="mt-3">
          <Alert>{invalid ?? errorMessage(launch.error ?? registry.error)}</Alert>
        </div>
      )}
    </Card>
  );
}
