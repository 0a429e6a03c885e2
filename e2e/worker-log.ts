// Where global-setup.ts writes the e2e worker's output; a failing spec quotes its end (support.ts).
import path from "node:path";

export const WORKER_LOG = path.join(import.meta.dirname, "..", "var", "test-results", "e2e-worker.log");
