import crypto from "node:crypto";
import type { ProjectOutput } from "../../contracts/projects";
import { SEED_FAILURE_TAGS } from "../../contracts/reviews";
import { NotFoundError } from "../../errors";
import { db } from "../db";
import type { ProjectAccess } from "./access";

function slugify(name: string): string {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  // A random suffix keeps slugs unique without a read-then-write race.
  return `${base || "project"}-${crypto.randomBytes(3).toString("hex")}`;
}

export async function listProjectsForUser(userId: string): Promise<ProjectOutput[]> {
  const memberships = await db().membership.findMany({
    where: { userId },
    include: { project: { include: { _count: { select: { memberships: true, videos: true, runs: true } } } } },
    orderBy: { project: { createdAt: "desc" } },
  });
  return memberships.map((m) => ({
    id: m.project.id,
    name: m.project.name,
    slug: m.project.slug,
    description: m.project.description,
    role: m.role,
    memberCount: m.project._count.memberships,
    videoCount: m.project._count.videos,
    runCount: m.project._count.runs,
    createdAt: m.project.createdAt,
  }));
}

export async function createProject(
  userId: string,
  input: { name: string; description: string },
): Promise<ProjectOutput> {
  const project = await db().project.create({
    data: {
      name: input.name,
      description: input.description,
      slug: slugify(input.name),
      memberships: { create: { userId, role: "OWNER" } },
      failureTags: { create: SEED_FAILURE_TAGS.map((name, position) => ({ name, position })) },
    },
  });
  return { ...project, role: "OWNER", memberCount: 1, videoCount: 0, runCount: 0 };
}

export async function getProject(access: ProjectAccess): Promise<ProjectOutput> {
  const project = await db().project.findUnique({
    where: { id: access.projectId },
    include: { _count: { select: { memberships: true, videos: true, runs: true } } },
  });
  if (!project) throw new NotFoundError("Project");
  return {
    id: project.id,
    name: project.name,
    slug: project.slug,
    description: project.description,
    role: access.role,
    memberCount: project._count.memberships,
    videoCount: project._count.videos,
    runCount: project._count.runs,
    createdAt: project.createdAt,
  };
}

export async function updateProject(
  access: ProjectAccess,
  input: { name?: string; description?: string },
): Promise<ProjectOutput> {
  await db().project.update({ where: { id: access.projectId }, data: input });
  return getProject(access);
}

export async function deleteProject(access: ProjectAccess): Promise<void> {
  await db().project.delete({ where: { id: access.projectId } });
}
