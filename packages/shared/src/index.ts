// Client-safe entry: contracts, errors, roles and the job catalog. Server code is in ./server.
export * from "./errors";
export * from "./roles";
export * from "./jobs/catalog";
export * from "./contracts/common";
export * from "./contracts/projects";
export * from "./contracts/tokens";
export * from "./contracts/runs";
export * from "./contracts/videos";
export * from "./contracts/datasets";
export * from "./contracts/models";
export * from "./contracts/training";
export * from "./contracts/token-cap";
export * from "./contracts/evals";
export * from "./contracts/eval-quantities";
export * from "./contracts/reviews";
export * from "./contracts/ingest";
