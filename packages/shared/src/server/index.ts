// Server-only entry of @paravt/shared: env, connections, queues, events and domain services.
// tRPC routers, REST handlers and workers all call these; none of them talks to Prisma directly.
export * from "./env";
export * from "./db";
export * from "./redis";
export * from "./queues";
export * from "./events";
export * from "./crypto";
export * from "./services/access";
export * as projects from "./services/projects";
export * as members from "./services/members";
export * as tokens from "./services/tokens";
export * as runs from "./services/runs";
export * as videos from "./services/videos";
export * from "./media-paths";
export * from "./sniff";
export * as datasets from "./services/datasets";
export * from "./endpoint-policy";
export * as models from "./services/models";
export * as training from "./services/training";
export * as metrics from "./services/metrics";
export * as trainingRollouts from "./services/training-rollouts";
export * as evals from "./services/evals";
export * as evalsCompare from "./services/evals-compare";
export * from "./csv";
export * as reviews from "./services/reviews";
export * as reviewQueues from "./services/reviews-queues";
export * as reviewTaxonomy from "./services/reviews-taxonomy";
export * as reviewExport from "./services/reviews-export";
