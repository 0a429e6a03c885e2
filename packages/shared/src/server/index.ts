// Server-only entry of @paravt/shared: env, connections, queues, events and domain services.
// tRPC routers, REST handlers and workers all call these; none of them talks to Prisma directly.
export * from "./env.js";
export * from "./db.js";
export * from "./redis.js";
export * from "./queues.js";
export * from "./events.js";
export * from "./crypto.js";
export * from "./services/access.js";
export * as projects from "./services/projects.js";
export * as members from "./services/members.js";
export * as tokens from "./services/tokens.js";
export * as runs from "./services/runs.js";
export * as videos from "./services/videos.js";
