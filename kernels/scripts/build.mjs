#!/usr/bin/env node
// Builds the compute core: the N-API addon (build/Release/paravt_kernels.node, through the node-gyp
// that ships inside npm, offline against the local Node headers) and the C++ test binaries
// (build/test/, through test/Makefile). Idempotent: each part is rebuilt only when a source is
// newer than its output, so an up-to-date call costs a few stat() calls. npm install never runs it
// (package.json has "gypfile": false and no install script: npm 11 blocks dependency install
// scripts here); `npm start` / `npm test` call it first.
//
//   node kernels/scripts/build.mjs            build what is stale
//   node kernels/scripts/build.mjs --force    reconfigure and rebuild the addon
//   node kernels/scripts/build.mjs --no-tests addon only (and the CUDA library where nvcc is)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const kernelsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const buildDir = path.join(kernelsDir, "build");
const addon = path.join(buildDir, "Release", "paravt_kernels.node");
const args = new Set(process.argv.slice(2));
const force = args.has("--force");
const withTests = !args.has("--no-tests");
const require = createRequire(path.join(kernelsDir, "package.json"));

function fail(message) {
  console.error(`kernels build: ${message}`);
  process.exit(1);
}

function newestSource() {
  const files = [path.join(kernelsDir, "binding.gyp"), path.join(kernelsDir, "package.json")];
  for (const dir of ["src", "src/cuda"]) {
    for (const f of fs.readdirSync(path.join(kernelsDir, dir))) {
      if (/\.(cc|h|inc|cuh)$/.test(f)) files.push(path.join(kernelsDir, dir, f));
    }
  }
  return Math.max(...files.map((f) => fs.statSync(f).mtimeMs));
}

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

function have(cmd, versionArg = "--version") {
  const r = spawnSync(cmd, [versionArg], { stdio: "ignore" });
  return r.status === 0;
}

// node-gyp: the copy bundled with npm next to this node, else a local install, else npx.
function nodeGypCommand() {
  const bundled = path.join(
    path.dirname(process.execPath),
    "../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js",
  );
  if (fs.existsSync(bundled)) return [process.execPath, bundled];
  try {
    return [process.execPath, require.resolve("node-gyp/bin/node-gyp.js")];
  } catch {
    // not installed locally
  }
  const npx = spawnSync("npx", ["--no-install", "node-gyp", "--version"], { stdio: "ignore" });
  if (npx.status === 0) return ["npx", "--no-install", "node-gyp"];
  fail(
    "node-gyp not found (looked for npm's bundled copy next to " +
      `${process.execPath}, a local install and npx). Install it with: npm install -g node-gyp`,
  );
}

// Headers of the running Node: a system install (/usr/include/node) needs no download.
function nodedirArgs() {
  if (process.env.npm_config_nodedir) return [`--nodedir=${process.env.npm_config_nodedir}`];
  const prefix = path.resolve(path.dirname(process.execPath), "..");
  if (fs.existsSync(path.join(prefix, "include", "node", "node_api.h"))) return [`--nodedir=${prefix}`];
  return []; // node-gyp fetches the headers once into its cache (needs network)
}

function run(cmd, argv, what) {
  const r = spawnSync(cmd, argv, { cwd: kernelsDir, stdio: "inherit" });
  if (r.error) fail(`${what} could not start: ${r.error.message}`);
  if (r.status !== 0) fail(`${what} failed (exit ${r.status}); see the compiler output above`);
}

// One build at a time (npm start and npm test may race on a fresh clone).
function withLock(fn) {
  fs.mkdirSync(buildDir, { recursive: true });
  const lock = path.join(buildDir, ".build-lock");
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      let owner = NaN;
      try {
        owner = Number(fs.readFileSync(path.join(lock, "pid"), "utf8"));
      } catch {
        // the owner has not written its pid yet
      }
      let alive = true;
      if (Number.isInteger(owner)) {
        try {
          process.kill(owner, 0);
        } catch {
          alive = false;
        }
      }
      if (!alive) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) fail(`another build holds ${lock}; remove it if no build is running`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function main() {
  const started = Date.now();
  const addonStale = force || mtime(addon) < newestSource();
  if (!addonStale && !withTests) {
    console.log("kernels: addon up to date");
    return;
  }
  const cxx = process.env.CXX || "c++";
  if (!have(cxx) && !have("g++")) {
    fail(
      `no C++ compiler found (tried ${cxx} and g++). Install one, e.g. on Debian/Ubuntu: ` +
        "apt-get install -y g++ make python3",
    );
  }
  if (!have("make")) fail("make not found. Install it, e.g. on Debian/Ubuntu: apt-get install -y make");
  try {
    require.resolve("node-addon-api");
  } catch {
    fail("node-addon-api is not installed; run `npm install` at the repository root first");
  }
  withLock(() => {
    const jobs = String(Math.max(1, os.availableParallelism?.() ?? os.cpus().length));
    let built = false;
    if (force || mtime(addon) < newestSource()) {
      if (!have("python3") && !have("python")) {
        fail("python3 not found (node-gyp needs it). Install it, e.g. on Debian/Ubuntu: apt-get install -y python3");
      }
      const [cmd, ...gyp] = nodeGypCommand();
      const configured =
        fs.existsSync(path.join(buildDir, "Makefile")) || fs.existsSync(path.join(buildDir, "config.gypi"));
      if (
        force ||
        !configured ||
        mtime(path.join(buildDir, "config.gypi")) < mtime(path.join(kernelsDir, "binding.gyp"))
      ) {
        run(cmd, [...gyp, "configure", "--loglevel=warn", ...nodedirArgs()], "node-gyp configure");
      }
      run(cmd, [...gyp, "build", "--loglevel=warn", `--jobs=${jobs}`, ...nodedirArgs()], "node-gyp build");
      if (!fs.existsSync(addon)) fail(`node-gyp finished but ${addon} is missing`);
      fs.utimesSync(addon, new Date(), new Date()); // make newer than every source even if make skipped the link
      built = true;
    }
    if (withTests) {
      const q = spawnSync("make", ["-q", "-C", "test", "all"], { cwd: kernelsDir, stdio: "ignore" });
      if (q.status !== 0) {
        run("make", ["-s", `-j${jobs}`, "-C", "test", "all"], "make -C kernels/test");
        built = true;
      }
    }
    // The CUDA backend, wherever nvcc is (dev machines and CI have nvcc 13 and no GPU: this is the
    // compile check of issue 39): libparavt_cuda.so beside the addon, which loads it at run time,
    // and the device test binary build/test/cuda/test_cuda. PARAVT_NO_CUDA=1 skips it.
    if (process.env.PARAVT_NO_CUDA !== "1" && have(process.env.NVCC || "nvcc")) {
      const q = spawnSync("make", ["-q", "-C", "test", "cuda"], { cwd: kernelsDir, stdio: "ignore" });
      const lib = path.join(buildDir, "Release", "libparavt_cuda.so");
      const built_lib = path.join(buildDir, "test", "cuda", "libparavt_cuda.so");
      if (q.status !== 0 || mtime(lib) < mtime(built_lib)) {
        run("make", ["-s", `-j${jobs}`, "-C", "test", "cuda"], "make -C kernels/test cuda (nvcc)");
        fs.copyFileSync(built_lib, lib);
        built = true;
      }
    }
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    console.log(built ? `kernels: built in ${secs} s (${path.relative(process.cwd(), addon)})` : "kernels: up to date");
  });
}

main();
