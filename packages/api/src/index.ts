export { appRouter, createCaller, type AppRouter } from "./root";
export { createContext, type Context } from "./context";
export { restRoute, errorResponse, HttpError } from "./rest/handler";
export * as restVideos from "./rest/videos";
export * as restReviews from "./rest/reviews";
