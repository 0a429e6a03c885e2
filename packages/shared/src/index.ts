// Client-safe entry: contracts, errors, roles and the job catalog. Server code is in ./server.
export * from "./errors.js";
export * from "./roles.js";
export * from "./jobs/catalog.js";
export * from "./contracts/common.js";
export * from "./contracts/projects.js";
export * from "./contracts/tokens.js";
export * from "./contracts/runs.js";
export * from "./contracts/videos.js";
