export { appRouter, createCaller, type AppRouter } from "./root";
export { createContext, type Context } from "./context";
export { restRoute, errorResponse, HttpError } from "./rest/handler";
export * as restVideos from "./rest/videos";
export * as restReviews from "./rest/reviews";
// The REST API (/api/v1) and its OpenAPI document, generated from the procedures' meta.openapi.
export { buildOpenApiDocument, handleRestRequest, openApiDocument, OPENAPI_PATH, REST_BASE } from "./openapi";
export { reportIncident, retryAfterSeconds } from "./errors";
