// Project roles and what each may do. Client-safe so the UI hides exactly the controls the API
// would refuse (the API still checks; hiding is only a courtesy).

export const ROLES = ["VIEWER", "EDITOR", "OWNER"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { VIEWER: 0, EDITOR: 1, OWNER: 2 };

export function hasRole(actual: Role, required: Role): boolean {
  return RANK[actual] >= RANK[required];
}

/** The least role needed for each action; one table instead of checks spread over pages. */
export const PERMISSIONS = {
  "project.read": "VIEWER",
  "project.update": "OWNER",
  "project.delete": "OWNER",
  "members.manage": "OWNER",
  "tokens.manage": "OWNER",
  "runs.launch": "EDITOR",
  "models.manage": "EDITOR",
  "runs.cancel": "EDITOR",
  "videos.upload": "EDITOR",
  // Issue 10: editors review, comment, build queues and add / rename / merge taxonomy tags;
  // owners also delete tags and queues (the destructive part of managing them).
  "reviews.write": "EDITOR",
  // Issue 11: an external trainer (WRITE token) creates its run and streams metrics / rollouts.
  "runs.ingest": "EDITOR",
  "reviews.queue.create": "EDITOR",
  "reviews.queue.delete": "OWNER",
  // Authors edit and delete their own comments (reviews.write); owners may delete anyone's.
  "reviews.comment.moderate": "OWNER",
  "taxonomy.edit": "EDITOR",
  "taxonomy.delete": "OWNER",
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role != null && hasRole(role, PERMISSIONS[permission]);
}
