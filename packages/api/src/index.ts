export { appRouter, createCaller, type AppRouter } from "./root.js";
export { createContext, type Context } from "./context.js";
