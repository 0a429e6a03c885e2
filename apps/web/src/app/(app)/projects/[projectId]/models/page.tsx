"use client";
import { ENDPOINT_LIMIT_DEFAULTS, type ModelConfigDraft } from "@paravt/shared";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Fragment, useState, type FormEvent, type ReactNode } from "react";
import { timeAgo } from "@/components/format";
import Link from "next/link";
import { EndpointProbeSummary, storedProbe } from "@/components/models/endpoint-probe";
import { modelLinks } from "@/components/models/model-links";
import { NanoCheckpointSummary, ShortId } from "@/components/models/nano-checkpoint";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/input";
import { EmptyRow, Table, Td, Th } from "@/components/ui/table";
import { useProject } from "@/lib/use-project";
import { errorMessage, useTRPC } from "@/trpc/client";

type Kind = ModelConfigDraft["kind"];
const KIND_LABEL: Record<Kind, string> = {
  OPENAI_COMPATIBLE: "OpenAI-compatible endpoint (vLLM, SGLang)",
  NANO_CHECKPOINT: "ParaVT-nano checkpoint",
  EXTERNAL: "External (runs imported from another trainer)",
};

/** Where a model lives, and for an endpoint its limits on a second line. */
function describe(config: Record<string, unknown>): [string, string?] {
  if (typeof config.baseUrl === "string") {
    // Models saved before the limits existed run with the defaults.
    const l = storedLimits(config);
    const limits = `${l.firstByteTimeoutS} s first byte / ${l.totalTimeoutS} s total, ${l.retries} retries`;
    return [`${config.baseUrl} · ${String(config.servedModel ?? "")}`, limits];
  }
  if (typeof config.checkpoint === "string") return [config.checkpoint];
  return [typeof config.description === "string" ? config.description : ""];
}

/** The per-endpoint limits (contracts/models.ts), as form fields with the contract's bounds. */
const ENDPOINT_LIMIT_FIELDS = [
  {
    name: "firstByteTimeoutS",
    label: "First-byte timeout (s)",
    hint: "Per attempt, until the server answers; 1–300.",
    min: 1,
    max: 300,
  },
  {
    name: "totalTimeoutS",
    label: "Total timeout (s)",
    hint: "Per attempt, the whole response; 1–3600.",
    min: 1,
    max: 3600,
  },
  { name: "retries", label: "Retries", hint: "On network errors, timeouts, 429 and 5xx; 0–10.", min: 0, max: 10 },
] as const;

/** The stored limits of an endpoint (defaults for models saved before they existed). */
function storedLimits(config: Record<string, unknown>) {
  const d = ENDPOINT_LIMIT_DEFAULTS;
  const n = (k: keyof typeof d) => (typeof config[k] === "number" ? config[k] : d[k]);
  return { firstByteTimeoutS: n("firstByteTimeoutS"), totalTimeoutS: n("totalTimeoutS"), retries: n("retries") };
}

/** Changes an endpoint's timeouts and retries in place (models.update); the server checks them together. */
function EditLimitsForm({
  projectId,
  model,
  onDone,
}: {
  projectId: string;
  model: { id: string; config: Record<string, unknown> };
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const update = useMutation(trpc.models.update.mutationOptions({ onSuccess: onDone }));
  const current = storedLimits(model.config);
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const num = (k: keyof typeof current) => Number(f.get(k));
    update.mutate({
      projectId,
      modelId: model.id,
      limits: {
        firstByteTimeoutS: num("firstByteTimeoutS"),
        totalTimeoutS: num("totalTimeoutS"),
        retries: num("retries"),
      },
    });
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" aria-label="Endpoint limits">
      {ENDPOINT_LIMIT_FIELDS.map((f) => (
        <Field key={f.name} label={f.label} hint={f.hint}>
          <Input name={f.name} type="number" min={f.min} max={f.max} step={1} required defaultValue={current[f.name]} />
        </Field>
      ))}
      <Button type="submit" size="sm" disabled={update.isPending}>
        Save limits
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onDone}>
        Close
      </Button>
      {update.error && <Alert>{errorMessage(update.error)}</Alert>}
    </form>
  );
}

/** A model's one-line description (models.update `description`, stored in its config). */
function EditDescriptionForm({
  projectId,
  model,
  onDone,
}: {
  projectId: string;
  model: { id: string; name: string; description: string };
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const update = useMutation(trpc.models.update.mutationOptions({ onSuccess: onDone }));
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const description = String(new FormData(e.currentTarget).get("description") ?? "");
    update.mutate({ projectId, modelId: model.id, description });
  }
  return (
    <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-3" aria-label={`Description of ${model.name}`}>
      <Field label="Model description">
        <Input name="description" maxLength={500} defaultValue={model.description} className="w-96" />
      </Field>
      <Button type="submit" size="sm" disabled={update.isPending}>
        Save description
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onDone}>
        Close
      </Button>
      {update.error && <Alert>{errorMessage(update.error)}</Alert>}
    </form>
  );
}

export default function ModelsPage() {
  const { projectId, can } = useProject();
  const trpc = useTRPC();
  const list = useQuery(trpc.models.list.queryOptions({ projectId }));
  const refetch = () => void list.refetch();
  const create = useMutation(trpc.models.create.mutationOptions({ onSuccess: refetch }));
  const remove = useMutation(trpc.models.delete.mutationOptions({ onSuccess: refetch }));
  // Probing asks the server what it serves and whether it takes several images (docs/serving.md).
  const probe = useMutation(trpc.models.probe.mutationOptions({ onSettled: refetch }));
  const [kind, setKind] = useState<Kind>("OPENAI_COMPATIBLE");
  const [editing, setEditing] = useState<string | null>(null);
  const [describing, setDescribing] = useState<string | null>(null);
  // An inline form's end: close it and read the list again.
  const done = (close: (id: null) => void) => () => {
    close(null);
    refetch();
  };

  function onCreate(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const get = (k: string) => String(f.get(k) ?? "");
    // A blank number field takes the default; anything else goes to the server's validation as typed.
    const num = (k: string) => (get(k).trim() === "" ? undefined : Number(get(k)));
    const config: ModelConfigDraft =
      kind === "OPENAI_COMPATIBLE"
        ? {
            kind,
            baseUrl: get("baseUrl"),
            servedModel: get("servedModel"),
            firstByteTimeoutS: num("firstByteTimeoutS"),
            totalTimeoutS: num("totalTimeoutS"),
            retries: num("retries"),
          }
        : kind === "NANO_CHECKPOINT"
          ? { kind, checkpoint: get("checkpoint") }
          : { kind, description: get("description") };
    const apiKey = get("apiKey");
    create.mutate(
      { projectId, name: get("name"), config, ...(apiKey ? { apiKey } : {}) },
      {
        onSuccess: (m) => {
          (e.target as HTMLFormElement).reset();
          if (m.kind === "OPENAI_COMPATIBLE") probe.mutate({ projectId, modelId: m.id });
        },
      },
    );
  }

  const error = create.error ?? remove.error ?? probe.error;
  return (
    <div className="flex flex-col gap-6">
      {can("models.manage") && (
        <Card>
          <CardHeader
            title="Add a model"
            description="Endpoint API keys are encrypted at rest and never shown again; link-local and cloud-metadata addresses are refused."
          />
          <form onSubmit={onCreate} className="flex flex-col gap-3">
            <div className="grid gap-3 md:grid-cols-2">
              <Field label="Name">
                <Input name="name" required maxLength={120} placeholder="ParaVT-8B on gpu-node-7" />
              </Field>
              <Field label="Kind">
                <Select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
                  {(Object.keys(KIND_LABEL) as Kind[]).map((k) => (
                    <option key={k} value={k}>
                      {KIND_LABEL[k]}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
            {kind === "OPENAI_COMPATIBLE" && (
              <div className="grid gap-3 md:grid-cols-3">
                <Field label="Base URL">
                  <Input name="baseUrl" required placeholder="http://gpu-node-7:8000/v1" />
                </Field>
                <Field label="Served model">
                  <Input name="servedModel" required placeholder="Qwen3-VL-8B-Instruct" />
                </Field>
                <Field label="API key (optional)" hint="Write-only.">
                  <Input name="apiKey" type="password" autoComplete="off" />
                </Field>
                {ENDPOINT_LIMIT_FIELDS.map((f) => (
                  <Field key={f.name} label={f.label} hint={f.hint}>
                    <Input
                      name={f.name}
                      type="number"
                      min={f.min}
                      max={f.max}
                      step={1}
                      defaultValue={ENDPOINT_LIMIT_DEFAULTS[f.name]}
                    />
                  </Field>
                ))}
              </div>
            )}
            {kind === "NANO_CHECKPOINT" && (
              <Field label="Checkpoint directory">
                <Input
                  name="checkpoint"
                  required
                  placeholder="/srv/paravt/var/data/checkpoints/<run id> (absolute; your project's runs, the committed checkpoints or MEDIA_ROOTS)"
                />
              </Field>
            )}
            {kind === "EXTERNAL" && (
              <Field label="Description">
                <Input name="description" maxLength={500} placeholder="ParaVT-8B, reference trainer, step 54" />
              </Field>
            )}
            <div>
              <Button type="submit" disabled={create.isPending}>
                Add model
              </Button>
            </div>
          </form>
        </Card>
      )}
      {error && <Alert>{errorMessage(error)}</Alert>}
      <Table label="Models">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Kind</Th>
            <Th>Where</Th>
            <Th>API key</Th>
            <Th>Added</Th>
            {can("models.manage") && <Th />}
          </tr>
        </thead>
        <tbody>
          {list.data?.map((m) => {
            const found = storedProbe(m.config);
            const probing = probe.isPending && probe.variables?.modelId === m.id;
            return (
              <Fragment key={m.id}>
                <tr id={`model-${m.id}`} data-testid={`model-${m.id}`}>
                  <Td className="max-w-xs">
                    <div className="flex min-w-0 items-baseline">
                      <span className="truncate font-medium" title={m.name}>
                        {m.name}
                      </span>
                      {m.nano && <ShortId nano={m.nano} />}
                    </div>
                    {m.description && (
                      <div className="truncate text-xs text-muted" title={m.description}>
                        {m.description}
                      </div>
                    )}
                    <ModelLinksLine links={modelLinks(projectId, m)} name={m.name} canLaunch={can("runs.launch")} />
                  </Td>
                  <Td>
                    <Badge>{m.kind.toLowerCase().replace("_", " ")}</Badge>
                  </Td>
                  <Td className="max-w-md font-mono text-xs text-muted">
                    {describe(m.config).map((line) => (
                      <div key={line} className="truncate" title={line}>
                        {line}
                      </div>
                    ))}
                  </Td>
                  <Td>{m.hasApiKey ? <Badge tone="success">set</Badge> : <span className="text-muted">—</span>}</Td>
                  <Td className="text-muted">{timeAgo(m.createdAt)}</Td>
                  {can("models.manage") && (
                    <Td className="whitespace-nowrap text-right">
                      {m.kind === "OPENAI_COMPATIBLE" && (
                        <Button
                          size="sm"
                          variant="ghost"
                          disabled={probing}
                          onClick={() => probe.mutate({ projectId, modelId: m.id })}
                        >
                          {probing ? "Probing…" : "Probe"}
                        </Button>
                      )}
                      {m.kind === "OPENAI_COMPATIBLE" && (
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-expanded={editing === m.id}
                          onClick={() => setEditing(editing === m.id ? null : m.id)}
                        >
                          Limits
                        </Button>
                      )}
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-expanded={describing === m.id}
                        onClick={() => setDescribing(describing === m.id ? null : m.id)}
                      >
                        Describe
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => remove.mutate({ projectId, modelId: m.id })}>
                        Remove
                      </Button>
                    </Td>
                  )}
                </tr>
                {describing === m.id && (
                  <FormRow>
                    <EditDescriptionForm projectId={projectId} model={m} onDone={done(setDescribing)} />
                  </FormRow>
                )}
                {editing === m.id && (
                  <FormRow>
                    <EditLimitsForm projectId={projectId} model={m} onDone={done(setEditing)} />
                  </FormRow>
                )}
                {m.nano && (
                  <tr>
                    <Td colSpan={can("models.manage") ? 6 : 5} className="pt-0">
                      <NanoCheckpointSummary nano={m.nano} />
                    </Td>
                  </tr>
                )}
                {m.kind === "OPENAI_COMPATIBLE" && (found || probing) && (
                  <tr>
                    <Td colSpan={can("models.manage") ? 6 : 5} className="pt-0">
                      {found ? (
                        <EndpointProbeSummary probe={found} />
                      ) : (
                        <span className="text-xs text-muted">Probing…</span>
                      )}
                    </Td>
                  </tr>
                )}
              </Fragment>
            );
          })}
          {list.data?.length === 0 && <EmptyRow colSpan={6}>No models yet.</EmptyRow>}
        </tbody>
      </Table>
    </div>
  );
}

/** Under a model's name: the run that produced it, its evaluations, and "Evaluate this model". */
function ModelLinksLine({
  links,
  name,
  canLaunch,
}: {
  links: ReturnType<typeof modelLinks>;
  name: string;
  canLaunch: boolean;
}) {
  const link = "text-accent hover:underline";
  if (!links.producedBy && links.evaluations.length === 0 && !canLaunch) return null;
  return (
    <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs">
      {links.producedBy && (
        <Link href={links.producedBy} className={link}>
          Training run
        </Link>
      )}
      {links.evaluations.length > 0 && (
        <span className="text-muted">
          Evaluations:{" "}
          {links.evaluations.map((e, i) => (
            <span key={e.href}>
              {i > 0 && ", "}
              <Link href={e.href} className={link} title={e.label}>
                {e.label.length > 24 ? `${e.label.slice(0, 23)}…` : e.label}
              </Link>
            </span>
          ))}
        </span>
      )}
      {canLaunch && (
        <Link href={links.evaluate} className={link} aria-label={`Evaluate ${name}`}>
          Evaluate this model
        </Link>
      )}
    </div>
  );
}

/** A row under a model's row holding one of its inline forms (limits, description). */
function FormRow({ children }: { children: ReactNode }) {
  return (
    <tr>
      <Td colSpan={6} className="pt-0">
        {children}
      </Td>
    </tr>
  );
}
