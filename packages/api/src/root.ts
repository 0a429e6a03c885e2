// Table of contents of the tRPC API.
import { datasetsRouter } from "./routers/datasets/router";
import { evalsRouter } from "./routers/evals/router";
import { ingestRouter } from "./routers/ingest/router";
import { membersRouter } from "./routers/members/router";
import { modelsRouter } from "./routers/models/router";
import { projectsRouter } from "./routers/projects/router";
import { reviewsRouter } from "./routers/reviews/router";
import { runsRouter } from "./routers/runs/router";
import { tokensRouter } from "./routers/tokens/router";
import { trainingRouter } from "./routers/training/router";
import { videosRouter } from "./routers/videos/router";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  projects: projectsRouter,
  members: membersRouter,
  tokens: tokensRouter,
  runs: runsRouter,
  videos: videosRouter,
  datasets: datasetsRouter,
  models: modelsRouter,
  training: trainingRouter,
  evals: evalsRouter,
  reviews: reviewsRouter,
  ingest: ingestRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
