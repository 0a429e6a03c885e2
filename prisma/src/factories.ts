// Composable seed factories shared by the demo seed, integration tests and e2e tests.
// Each call creates fresh, uniquely named rows so tests never collide with one another.
import crypto from "node:crypto";
import type { Db } from "./client";
import type { Role } from "@prisma/client";

const uid = () => crypto.randomBytes(6).toString("hex");

export async function createUser(db: Db, overrides: { name?: string; email?: string } = {}) {
  const id = `usr_${uid()}`;
  return db.user.create({
    data: {
      id,
      name: overrides.name ?? `User ${id.slice(-4)}`,
      email: (overrides.email ?? `${id}@example.test`).toLowerCase(),
      emailVerified: true,
    },
  });
}

export async function createProject(db: Db, ownerId: string, overrides: { name?: string } = {}) {
  const suffix = uid();
  return db.project.create({
    data: {
      name: overrides.name ?? `Project ${suffix}`,
      slug: `project-${suffix}`,
      memberships: { create: { userId: ownerId, role: "OWNER" } },
    },
  });
}

export async function addMember(db: Db, projectId: string, userId: string, role: Role) {
  return db.membership.create({ data: { projectId, userId, role } });
}

/** A project with one user per role, the usual starting point of an authorization test. */
export async function createProjectWithRoles(db: Db) {
  const owner = await createUser(db, { name: "Owner" });
  const editor = await createUser(db, { name: "Editor" });
  const viewer = await createUser(db, { name: "Viewer" });
  const outsider = await createUser(db, { name: "Outsider" });
  const project = await createProject(db, owner.id);
  await addMember(db, project.id, editor.id, "EDITOR");
  await addMember(db, project.id, viewer.id, "VIEWER");
  return { project, owner, editor, viewer, outsider };
}
