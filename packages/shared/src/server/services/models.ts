// The model registry: nano checkpoints, OpenAI-compatible endpoints (vLLM / SGLang) and external
// models whose runs are imported. An endpoint's API key is encrypted at rest (AES-256-GCM,
// crypto.ts) and no API output ever contains it; only `hasApiKey` tells that one is set.
import { Prisma, type Model } from "@paravt/db";
import {
  ENDPOINT_LIMIT_DEFAULTS,
  modelConfigInput,
  storedEndpointLimits,
  type EndpointLimits,
  type EndpointProbe,
  type ModelConfigDraft,
  type ModelOutput,
} from "../../contracts/models";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import { decryptSecret, encryptSecret } from "../crypto";
import { db } from "../db";
import { confineCheckpoint } from "../checkpoint-paths";
import { checkEndpointUrl } from "../endpoint-policy";
import { probeEndpoint } from "../endpoint-probe";
import { serverEnv } from "../env";
import type { ProjectAccess } from "./access";
import { readNanoCheckpoint } from "./models-nano";

type ModelEvaluation = ModelOutput["evaluations"][number];
const EVALUATIONS_PER_MODEL = 5;

/** The evaluation groups each model ran in, newest first (eval runs store their group in config). */
async function evaluationsOf(projectId: string, modelIds: string[]): Promise<Map<string, ModelEvaluation[]>> {
  const out = new Map<string, ModelEvaluation[]>();
  if (modelIds.length === 0) return out;
  const rows = await db().$queryRaw<{ model_id: string; group_id: string; name: string; created_at: Date }[]>`
    SELECT model_id, group_id, name, created_at FROM (
      SELECT model_id, config->'group'->>'id' AS group_id, config->'group'->>'name' AS name,
             min(created_at) AS created_at,
             row_number() OVER (PARTITION BY model_id ORDER BY min(created_at) DESC) AS n
      FROM runs
      WHERE project_id = ${projectId} AND kind = 'eval' AND model_id = ANY(${modelIds})
        AND config->'group'->>'id' IS NOT NULL
      GROUP BY model_id, config->'group'->>'id', config->'group'->>'name'
    ) g WHERE n <= ${EVALUATIONS_PER_MODEL} ORDER BY created_at DESC`;
  for (const r of rows) {
    const list = out.get(r.model_id) ?? [];
    list.push({ groupId: r.group_id, name: r.name ?? r.group_id, createdAt: r.created_at });
    out.set(r.model_id, list);
  }
  return out;
}

async function toOutput(m: Model, evaluations?: ModelEvaluation[]): Promise<ModelOutput> {
  const config = (m.config ?? {}) as Record<string, unknown>;
  return {
    id: m.id,
    name: m.name,
    kind: m.kind,
    config,
    hasApiKey: m.secretEnc !== null,
    createdAt: m.createdAt,
    // Trained Ks, quality and lineage come from the checkpoint itself (models-nano.ts).
    nano: m.kind === "NANO_CHECKPOINT" ? await readNanoCheckpoint(m.projectId, config.checkpoint) : null,
    description: typeof config.description === "string" ? config.description : "",
    // train.sft / train.rl record the run that registered the checkpoint (workers/src/handlers).
    producedByRunId: typeof config.runId === "string" ? config.runId : null,
    evaluations: evaluations ?? (await evaluationsOf(m.projectId, [m.id])).get(m.id) ?? [],
  };
}

function normalizeConfig(draft: ModelConfigDraft): Prisma.InputJsonObject {
  // Parsed here too (the routers already did) so direct callers get the same defaults and checks.
  const parsed = modelConfigInput.safeParse(draft);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? "Invalid model settings");
  const config = parsed.data;
  if (config.kind === "OPENAI_COMPATIBLE") {
    const url = checkEndpointUrl(config.baseUrl, serverEnv().MODEL_ENDPOINT_ALLOW);
    return {
      baseUrl: url.toString().replace(/\/+$/, ""),
      servedModel: config.servedModel,
      firstByteTimeoutS: config.firstByteTimeoutS,
      totalTimeoutS: config.totalTimeoutS,
      retries: config.retries,
    };
  }
  if (config.kind === "NANO_CHECKPOINT") return { checkpoint: config.checkpoint };
  return { description: config.description };
}

export async function listModels(access: ProjectAccess): Promise<ModelOutput[]> {
  const rows = await db().model.findMany({ where: { projectId: access.projectId }, orderBy: { createdAt: "desc" } });
  const evaluations = await evaluationsOf(
    access.projectId,
    rows.map((m) => m.id),
  );
  return Promise.all(rows.map((m) => toOutput(m, evaluations.get(m.id) ?? [])));
}

export async function createModel(
  access: ProjectAccess,
  input: { name: string; config: ModelConfigDraft; apiKey?: string },
): Promise<ModelOutput> {
  if (input.apiKey && input.config.kind !== "OPENAI_COMPATIBLE") {
    throw new ValidationError("Only OpenAI-compatible endpoints take an API key");
  }
  // A checkpoint directory is confined to what this project may read (checkpoint-paths.ts, issue
  // 37); its real path is stored, so a symlink changed later does not move the model.
  const draft =
    input.config.kind === "NANO_CHECKPOINT"
      ? { ...input.config, checkpoint: await confineCheckpoint(access.projectId, input.config.checkpoint) }
      : input.config;
  try {
    const m = await db().model.create({
      data: {
        projectId: access.projectId,
        name: input.name,
        kind: input.config.kind,
        config: normalizeConfig(draft),
        secretEnc: input.apiKey ? encryptSecret(input.apiKey) : null,
      },
    });
    return toOutput(m);
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw new ConflictError(`A model named "${input.name}" already exists in this project`);
    }
    throw err;
  }
}

/** An endpoint's stored limits patched with `patch`, checked together (first byte <= total). */
function patchedLimits(config: Record<string, unknown>, patch: Partial<EndpointLimits>): EndpointLimits {
  const stored = Object.fromEntries(
    (Object.keys(ENDPOINT_LIMIT_DEFAULTS) as (keyof EndpointLimits)[])
      .filter((k) => typeof config[k] === "number")
      .map((k) => [k, config[k]]),
  );
  const parsed = storedEndpointLimits.safeParse({ ...stored, ...patch });
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]?.message ?? "Invalid endpoint limits");
  return parsed.data;
}

export async function updateModel(
  access: ProjectAccess,
  input: {
    modelId: string;
    name?: string;
    apiKey?: string | null;
    limits?: Partial<EndpointLimits>;
    description?: string;
  },
): Promise<ModelOutput> {
  const m = await db().model.findFirst({ where: { id: input.modelId, projectId: access.projectId } });
  if (!m) throw new NotFoundError("Model");
  if (input.apiKey && m.kind !== "OPENAI_COMPATIBLE")
    throw new ValidationError("Only OpenAI-compatible endpoints take an API key");
  if (input.limits && m.kind !== "OPENAI_COMPATIBLE")
    throw new ValidationError("Only OpenAI-compatible endpoints have timeouts and retries");
  const config = (m.config ?? {}) as Record<string, unknown>;
  const updated = await db().model.update({
    where: { id: m.id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.limits || input.description !== undefined
        ? {
            config: {
              ...config,
              ...(input.limits ? patchedLimits(config, input.limits) : {}),
              ...(input.description !== undefined ? { description: input.description } : {}),
            } as Prisma.InputJsonObject,
          }
        : {}),
      ...(input.apiKey !== undefined ? { secretEnc: input.apiKey === null ? null : encryptSecret(input.apiKey) } : {}),
    },
  });
  return toOutput(updated);
}

export async function deleteModel(access: ProjectAccess, modelId: string): Promise<void> {
  const res = await db().model.deleteMany({ where: { id: modelId, projectId: access.projectId } });
  if (res.count === 0) throw new NotFoundError("Model");
}

/** For engines only (server side, never returned by the API): the decrypted key or null. */
export async function modelApiKey(modelId: string): Promise<string | null> {
  const m = await db().model.findUnique({ where: { id: modelId }, select: { secretEnc: true } });
  if (!m) throw new NotFoundError("Model");
  return m.secretEnc ? decryptSecret(m.secretEnc) : null;
}

/**
 * Probes a registered OpenAI-compatible endpoint (models, one image, several images, reasoning
 * parser; endpoint-probe.ts) and keeps the result in its config as `probe`, so the launch form can
 * show it before an evaluation is launched.
 */
export async function probeModel(access: ProjectAccess, modelId: string): Promise<EndpointProbe> {
  const m = await db().model.findFirst({ where: { id: modelId, projectId: access.projectId } });
  if (!m) throw new NotFoundError("Model");
  if (m.kind !== "OPENAI_COMPATIBLE") throw new ValidationError("Only OpenAI-compatible endpoints can be probed");
  const config = (m.config ?? {}) as { baseUrl?: unknown; servedModel?: unknown };
  if (typeof config.baseUrl !== "string" || typeof config.servedModel !== "string") {
    throw new ValidationError("This model has no base URL / served model to probe");
  }
  const probe = await probeEndpoint({
    baseUrl: config.baseUrl,
    servedModel: config.servedModel,
    apiKey: m.secretEnc ? decryptSecret(m.secretEnc) : null,
    allow: serverEnv().MODEL_ENDPOINT_ALLOW,
  });
  await db().model.update({
    where: { id: m.id },
    data: { config: { ...(m.config as Prisma.JsonObject), probe: probe as unknown as Prisma.InputJsonObject } },
  });
  return probe;
}
