import type { MemberOutput } from "../../contracts/projects";
import { ConflictError, NotFoundError, ValidationError } from "../../errors";
import type { Role } from "../../roles";
import { db } from "../db";
import type { ProjectAccess } from "./access";

export async function listMembers(access: ProjectAccess): Promise<MemberOutput[]> {
  const rows = await db().membership.findMany({
    where: { projectId: access.projectId },
    include: { user: { select: { name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((m) => ({
    userId: m.userId,
    name: m.user.name,
    email: m.user.email,
    role: m.role,
    joinedAt: m.createdAt,
  }));
}

/** Adds an existing account to the project (accounts are created by signing up). */
export async function addMember(access: ProjectAccess, input: { email: string; role: Role }): Promise<MemberOutput> {
  const user = await db().user.findUnique({ where: { email: input.email } });
  if (!user) throw new ValidationError(`No account uses ${input.email}; ask them to sign up first`);
  const existing = await db().membership.findUnique({
    where: { projectId_userId: { projectId: access.projectId, userId: user.id } },
  });
  if (existing) throw new ConflictError(`${input.email} is already a member`);
  const m = await db().membership.create({
    data: { projectId: access.projectId, userId: user.id, role: input.role },
  });
  return { userId: user.id, name: user.name, email: user.email, role: m.role, joinedAt: m.createdAt };
}

async function assertNotLastOwner(projectId: string, userId: string): Promise<void> {
  const owners = await db().membership.findMany({ where: { projectId, role: "OWNER" }, select: { userId: true } });
  if (owners.length === 1 && owners[0]?.userId === userId) {
    throw new ValidationError("A project needs at least one owner; make someone else owner first");
  }
}

export async function updateMemberRole(access: ProjectAccess, input: { userId: string; role: Role }): Promise<void> {
  const m = await db().membership.findUnique({
    where: { projectId_userId: { projectId: access.projectId, userId: input.userId } },
  });
  if (!m) throw new NotFoundError("Member");
  if (m.role === "OWNER" && input.role !== "OWNER") await assertNotLastOwner(access.projectId, input.userId);
  await db().membership.update({ where: { id: m.id }, data: { role: input.role } });
}

export async function removeMember(access: ProjectAccess, input: { userId: string }): Promise<void> {
  const m = await db().membership.findUnique({
    where: { projectId_userId: { projectId: access.projectId, userId: input.userId } },
  });
  if (!m) throw new NotFoundError("Member");
  if (m.role === "OWNER") await assertNotLastOwner(access.projectId, input.userId);
  await db().membership.delete({ where: { id: m.id } });
}
