export { appRouter, createCaller, type AppRouter } from "./root";
export { createContext, type Context } from "./context";
