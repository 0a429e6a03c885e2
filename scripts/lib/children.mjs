// The child processes of `npm start`, and how they stop. Each child runs in its own process group
// (`detached`), so a signal sent to `npm start`'s PID alone (SIGTERM from a process manager,
// `kill <pid>`) reaches every process the workbench started, grandchildren included (npx, turbo,
// Next.js' own workers), and a Ctrl-C in the terminal goes the same way (the parent forwards it).
// Stopping: SIGTERM to every live group, wait for the groups to be empty up to a grace period,
// SIGKILL to what is left, then exit. Steps (build, migrate, seed) run asynchronously so that a
// signal is handled at once, not after the step ends (a spawnSync blocks the event loop).
import { spawn } from "node:child_process";
import fs from "node:fs";

/**
 * True while some process of the group `pgid` is alive. On Linux it reads /proc, so that a zombie
 * (exited, not yet reaped by a PID 1 that reaps nothing, as in some containers) counts as gone;
 * elsewhere it asks kill(-pgid, 0).
 */
export function groupAlive(pgid) {
  let entries = null;
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    // no /proc
  }
  if (entries) {
    for (const name of entries) {
      if (!/^\d+$/.test(name)) continue;
      let stat;
      try {
        stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      } catch {
        continue; // gone meanwhile
      }
      // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
    }
    return false;
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is already empty
  }
}

const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {{ graceMs?: number, log?: (line: string) => void, exit?: (code: number) => void }} [options]
 */
export function createSupervisor({
  graceMs = 10_000,
  log = (l) => console.error(l),
  exit = (c) => process.exit(c),
} = {}) {
  /** @type {Set<{ name: string, child: import("node:child_process").ChildProcess }>} */
  const live = new Set();
  let stopping = null;

  const prefixLines = (name) => (chunk) =>
    chunk
      .toString()
      .split("\n")
      .filter(Boolean)
      .map((l) => `[${name}] ${l}`)
      .join("\n") + "\n";

  function track(name, child) {
    const entry = { name, child };
    live.add(entry);
    // The group may outlive its leader (a grandchild still running); stop() keeps it in `live`
    // until the group is empty.
    child.on("error", (err) => log(`[${name}] ${err.message}`));
    return entry;
  }

  /**
   * A long-running service (web, workers). Its output is prefixed with its name; if it exits while
   * the workbench is not stopping, the whole workbench stops with exit code 1.
   */
  function service(name, cmd, args, { cwd, env } = {}) {
    if (stopping) throw new Error(`stopping: ${name} not started`);
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (c) => process.stdout.write(prefixLines(name)(c)));
    child.stderr.on("data", (c) => process.stderr.write(prefixLines(name)(c)));
    track(name, child);
    child.on("exit", (code, signal) => {
      if (!stopping) {
        log(`[${name}] exited (${code ?? signal}); stopping the workbench`);
        void stop(1);
      }
    });
    return child;
  }

  // Steps and helpers write through pipes, not the terminal: a process outside the terminal's
  // foreground group that touches its settings would be stopped (SIGTTOU).
  function passThrough(child) {
    child.stdout.on("data", (c) => process.stdout.write(c));
    child.stderr.on("data", (c) => process.stderr.write(c));
  }

  /** A step that must succeed (build, migrate, seed): resolves when it exits 0, rejects otherwise. */
  function step(cmd, args, { cwd, env } = {}) {
    if (stopping) return Promise.reject(new Error(`stopping: ${cmd} not started`));
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    passThrough(child);
    track(cmd, child);
    return new Promise((resolve, reject) => {
      child.on("error", reject);
      child.on("exit", (code, signal) =>
        code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} failed (exit ${code ?? signal})`)),
      );
    });
  }

  /** A background helper (the demo evaluation): stopped with the rest, its exit stops nothing. */
  function background(name, cmd, args, { cwd, env } = {}) {
    if (stopping) return null;
    const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    passThrough(child);
    track(name, child);
    return child;
  }

  async function waitEmpty(deadline) {
    for (;;) {
      for (const e of live) if (e.child.pid === undefined || !groupAlive(e.child.pid)) live.delete(e);
      if (live.size === 0 || Date.now() >= deadline) return;
      await delay(50);
    }
  }

  /** Stops every group (SIGTERM, then SIGKILL after the grace period) and exits with `code`. */
  function stop(code = 0, signal = "SIGTERM") {
    stopping ??= (async () => {
      const deadline = Date.now() + graceMs;
      for (const e of live) if (e.child.pid !== undefined) signalGroup(e.child.pid, signal);
      await waitEmpty(deadline);
      if (live.size) {
        log(`still running after ${graceMs / 1000} s: ${[...live].map((e) => e.name).join(", ")}; killing`);
        for (const e of live) signalGroup(e.child.pid, "SIGKILL");
        await waitEmpty(Date.now() + 2_000);
      }
      exit(code);
    })();
    return stopping;
  }

  /** SIGINT, SIGTERM and SIGHUP to this process stop the workbench (exit 0). */
  function handleSignals() {
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"])
      process.on(sig, () => void stop(0, sig === "SIGHUP" ? "SIGTERM" : sig));
  }

  return {
    service,
    step,
    background,
    stop,
    handleSignals,
    get stopping() {
      return stopping !== null;
    },
    /** PIDs of the group leaders still tracked (for tests and diagnostics). */
    pids: () => [...live].map((e) => e.child.pid),
  };
}
