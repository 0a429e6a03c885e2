// `npm start` stops cleanly on a signal sent to its PID alone (issue 41 item 6): every child of the
// supervisor (scripts/lib/children.mjs, used by scripts/start.mjs), its grandchildren, a child
// that ignores SIGTERM and a step still running are gone, and the port is free.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error -- plain .mjs script without type declarations
import { groupAlive } from "../lib/children.mjs";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "supervised.mjs");

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Alive and not a zombie (a reparented grandchild may never be reaped in a container). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return process.platform !== "linux";
  }
}

const spawned: number[] = [];
afterEach(() => {
  for (const pid of spawned.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

async function startStandIn(port: number, graceMs: number, mode = "") {
  const parent: ChildProcess = spawn(process.execPath, [FIXTURE, String(port), String(graceMs), mode], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  parent.stdout!.on("data", (c) => (out += c));
  parent.stderr!.on("data", (c) => (out += c));
  const exited = new Promise<{ code: number | null; at: number }>((r) =>
    parent.on("exit", (code) => r({ code, at: Date.now() })),
  );
  const want = mode === "step" ? 4 : 3;
  const deadline = Date.now() + 15_000;
  while ((out.match(/pid \d+/g) ?? []).length < want || !out.includes("listening")) {
    if (Date.now() > deadline) throw new Error(`stand-in not ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const pids = [...out.matchAll(/pid (\d+)/g)].map((m) => Number(m[1]));
  spawned.push(parent.pid!, ...pids);
  return { parent, pids, exited, output: () => out };
}

describe("the children of npm start (scripts/lib/children.mjs)", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal} to the parent's PID alone: children, grandchildren and a stubborn child gone, port free`, async () => {
      const port = await freePort();
      const graceMs = 1_500;
      const { parent, pids, exited, output } = await startStandIn(port, graceMs);
      expect(await portFree(port)).toBe(false);
      expect(pids.every(alive)).toBe(true);

      const sent = Date.now();
      process.kill(parent.pid!, signal); // the PID only, not the process group
      const { code, at } = await exited;

      expect(code, output()).toBe(0);
      expect(at - sent).toBeLessThan(graceMs + 3_000); // the stubborn child costs the grace period
      expect(output()).toMatch(/still running after 1\.5 s: stubborn; killing/);
      expect(pids.filter(alive)).toEqual([]);
      expect(await portFree(port)).toBe(true);
    });
  }

  it("a signal during a long step (the seed) stops it at once instead of after it ends", async () => {
    const port = await freePort();
    const { parent, pids, exited, output } = await startStandIn(port, 1_000, "step");
    process.kill(parent.pid!, "SIGTERM");
    const { code } = await exited;
    expect(code, output()).toBe(0);
    expect(output()).not.toContain("step done");
    expect(pids.filter(alive)).toEqual([]);
    expect(await portFree(port)).toBe(true);
  });

  it("groupAlive tells a live process group from an empty one", async () => {
    const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    spawned.push(child.pid!);
    expect(groupAlive(child.pid)).toBe(true);
    process.kill(-child.pid!, "SIGKILL");
    await new Promise((r) => child.on("exit", r));
    expect(groupAlive(child.pid)).toBe(false);
  });
});
