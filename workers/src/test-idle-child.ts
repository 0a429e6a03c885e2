// A stand-in training child for training-child.int.test.ts: says it started, then idles until it
// is killed (or its parent goes away, like the real children: exitWithParent).
import { exitWithParent } from "./training-child";

exitWithParent();
process.once("message", () => {
  process.send!({ type: "started", pid: process.pid });
  setInterval(() => undefined, 1_000);
});
