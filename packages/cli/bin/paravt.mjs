#!/usr/bin/env node
// Entry point of the `paravt` command: registers tsx so the TypeScript sources (and the
// TypeScript-only @paravt/protocol package) load directly, then hands over to src/main.ts.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
