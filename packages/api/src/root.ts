// Table of contents of the tRPC API.
import { membersRouter } from "./routers/members/router.js";
import { projectsRouter } from "./routers/projects/router.js";
import { runsRouter } from "./routers/runs/router.js";
import { tokensRouter } from "./routers/tokens/router.js";
import { videosRouter } from "./routers/videos/router.js";
import { createCallerFactory, createTRPCRouter } from "./trpc.js";

export const appRouter = createTRPCRouter({
  projects: projectsRouter,
  members: membersRouter,
  tokens: tokensRouter,
  runs: runsRouter,
  videos: videosRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
